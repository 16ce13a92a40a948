// Package filelock is an exclusive lock on a file between processes of one
// machine (flock on unix; none elsewhere), waited for within a bound. The
// kernel drops a lock when its process dies, so a crash never leaves one
// held. A lock file is created once and never removed: removing it would
// let two processes lock two different files of one name.
package filelock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrTimeout is the lock still held by another process after the wait.
var ErrTimeout = errors.New("the lock is held by another process")

// poll is how often a held lock is tried again.
const poll = time.Millisecond

// Lock takes the exclusive lock on path (created 0600 if missing), trying
// until it is free, wait has passed (ErrTimeout, wrapped) or ctx ends
// (ctx.Err()). Where the filesystem has no locks, it returns at once,
// unlocked (the callers' other guards still hold). unlock releases it.
func Lock(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	end := time.Now().Add(wait)
	for {
		held, err := try(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		if held {
			return func() { release(f); _ = f.Close() }, nil
		}
		if time.Now().After(end) {
			f.Close()
			return nil, fmt.Errorf("%s: %w for over %s", path, ErrTimeout, wait)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(poll):
		}
	}
}
