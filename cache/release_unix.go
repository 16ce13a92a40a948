//go:build unix

package cache

import (
	"os"
	"syscall"
)

// releaseFile drops the flock bbolt took on a file it then abandoned in a
// panic, and closes it. Closing alone is not enough: bbolt's memory map of
// the file keeps the open file description, and with it the lock, alive.
func releaseFile(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	_ = f.Close()
}
