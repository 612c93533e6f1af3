//go:build unix

package cli

import (
	"os"
	"os/exec"
	"syscall"
)

// ownProcessGroup starts cmd in a process group of its own, out of reach
// of the terminal's signals, which this program forwards to it once.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// interrupt asks the process p to stop as Ctrl-C does.
func interrupt(p *os.Process) { p.Signal(os.Interrupt) }
