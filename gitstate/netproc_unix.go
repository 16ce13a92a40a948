//go:build unix

package gitstate

import (
	"os/exec"
	"syscall"
)

// detach runs cmd in a session of its own: it has no controlling terminal,
// so neither ssh nor a credential helper can prompt on the user's, and a
// cancelled command is killed with every process it started (ssh,
// git-remote-https), not only git.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
