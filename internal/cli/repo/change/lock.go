package change

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/filelock"
	"github.com/roster-cli/roster/membership"
)

// changeLockWait bounds how long a membership change waits for another
// command of the same home changing the same coordinate (a remote signer
// waiting for approval holds it that long at most); --deadline and an
// interrupt end the wait sooner.
const changeLockWait = 2 * time.Minute

// changeLock is membership.Pipeline.Lock: a lock file per coordinate in
// the cache directory (locks/<hash>.lock, created once, never removed). A
// home where it cannot be made (an unwritable cache) gets no lock.
func changeLock(a *cmdutil.Factory, ctx context.Context, address string) (func(), error) {
	dir, err := a.CacheDir()
	if err != nil {
		return func() {}, nil
	}
	dir = filepath.Join(dir, "locks")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return func() {}, nil
	}
	sum := sha256.Sum256([]byte(address))
	unlock, err := filelock.Lock(ctx, filepath.Join(dir, hex.EncodeToString(sum[:16])+".lock"), changeLockWait)
	switch {
	case err == nil:
		return unlock, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, filelock.ErrTimeout):
		return nil, fmt.Errorf("%w (for over %s)", membership.ErrLocked, changeLockWait)
	}
	return func() {}, nil
}
