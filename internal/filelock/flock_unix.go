//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// try takes the flock without waiting: held false when another process
// holds it; held true, unlocked, where the filesystem has no locks.
func try(f *os.File) (held bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR):
		return false, nil
	case errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EINVAL):
		return true, nil
	}
	return false, err
}

func release(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
