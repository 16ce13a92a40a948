package filelock

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Rule: one holder at a time: eight goroutines taking the lock in turn
// never overlap, and each gets it.
func TestOneHolderAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := Lock(context.Background(), path, 10*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			if n > most.Load() {
				most.Store(n)
			}
			time.Sleep(2 * time.Millisecond)
			inside.Add(-1)
			unlock()
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("%d holders at once", most.Load())
	}
}

// Rule: a held lock is waited for within the bound (ErrTimeout) or until
// the context ends (its error), and is free again once released.
func TestAHeldLockTimesOutOrEndsWithTheContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(context.Background(), path, 20*time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v, want ErrTimeout", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Lock(ctx, path, time.Second); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	unlock()
	again, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	again()
}
