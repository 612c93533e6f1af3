//go:build !unix

package blasinit

import "errors"

// reexec fails: there is no execve(2) to replace the process with.
func reexec() error { return errors.New("re-executing a program is not supported on this system") }
