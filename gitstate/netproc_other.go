//go:build !unix

package gitstate

import "os/exec"

// detach: elsewhere a cancelled command is killed by exec's default.
func detach(cmd *exec.Cmd) {}
