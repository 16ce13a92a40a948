package cache

import (
	"errors"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// refusedAtTheCap is a write bbolt refuses at the cap its first refusals
// times (the free pages too scattered for it), then accepts; it counts
// its tries.
func refusedAtTheCap(refusals int, tries *int) func(*bolt.Tx) error {
	return func(*bolt.Tx) error {
		*tries++
		if *tries <= refusals {
			return bolterrors.ErrMaxSizeReached
		}
		return nil
	}
}

// Rule (docs/cache.md "Compaction": a write is refused only if it still
// fails after evicting and compacting): the last try, alone, may be
// refused because the free pages are scattered; it compacts, which leaves
// them in one run, and the write is tried once more.
func TestTheLastTryIsWrittenAgainAfterItsCompaction(t *testing.T) {
	c, _ := openTemp(t)
	tries := 0
	if err := c.write(entryOverhead, refusedAtTheCap(3, &tries)); err != nil || tries != 4 {
		t.Fatalf("err %v after %d tries; want the write done on the try after the last compaction", err, tries)
	}
}

// Rule (the same): a write that still does not fit after the last
// compaction is refused, and says so.
func TestAWriteThatNeverFitsIsRefusedAfterTheLastCompaction(t *testing.T) {
	c, _ := openTemp(t)
	tries := 0
	err := c.write(entryOverhead, refusedAtTheCap(100, &tries))
	if !errors.Is(err, bolterrors.ErrMaxSizeReached) || !strings.Contains(err.Error(), "even after evicting and compacting") || tries != 4 {
		t.Fatalf("err %v after %d tries; want the cap's refusal after the try that followed the last compaction", err, tries)
	}
}
