//go:build !unix

package cli

import (
	"os"
	"os/exec"
)

// ownProcessGroup leaves cmd in this program's process group: where
// signals cannot be sent to a process, a console's Ctrl-C reaches it
// directly.
func ownProcessGroup(cmd *exec.Cmd) {}

// interrupt stops the process p: where it cannot be sent Ctrl-C, it is
// killed.
func interrupt(p *os.Process) { p.Kill() }
