//go:build !unix

package cache

import "os"

// releaseFile closes a file bbolt opened and then abandoned in a panic.
func releaseFile(f *os.File) { _ = f.Close() }
