//go:build unix

package blasinit

import (
	"os"
	"runtime"
	"syscall"
)

// reexec is execve(2) of the running executable: /proc/self/exe on Linux
// (it names the file even if its path has changed since), os.Executable
// elsewhere. os.Args and the environment go with it, so a test binary
// keeps its -test flags.
func reexec() error {
	path := "/proc/self/exe"
	if runtime.GOOS != "linux" {
		p, err := os.Executable()
		if err != nil {
			return err
		}
		path = p
	}
	return syscall.Exec(path, os.Args, os.Environ())
}
