package cache

import (
	"errors"
	"testing"
	"time"
)

// Rule (one invocation never waits for its own lock): a part of an
// invocation that needs the cache while another part has it open takes a
// Hold on it instead of opening the file again. Each handle closes on its
// own (twice is harmless), the file stays locked until the last one
// closes, and a closed cache gives no more holds.
func TestAHoldSharesTheOpenFileUntilItsLastHandleCloses(t *testing.T) {
	t.Parallel()
	first, home := openTemp(t)
	evt := signed(t, aliceSK, 1, 1, "held")
	held, ok := first.Hold()
	if !ok {
		t.Fatal("an open cache gave no hold")
	}
	if err := held.Put(evt); err != nil {
		t.Fatal(err)
	}
	if got, _ := first.Event(evt.ID); got == nil {
		t.Fatal("the first handle does not see what the held one wrote")
	}
	// Closing the first handle twice releases it once: the held handle
	// still reads.
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := held.Event(evt.ID); err != nil || got == nil {
		t.Fatalf("the held handle lost the file when another handle closed: %v, %v", got, err)
	}
	// Another opener still waits for the lock: the file is open.
	if c, err := OpenWith(home, Options{Timeout: 50 * time.Millisecond}); err == nil {
		c.Close()
		t.Fatal("the file was unlocked while a handle was still open")
	} else if !errors.Is(err, ErrLocked) {
		t.Fatalf("got %v, want the lock error", err)
	}
	again, ok := held.Hold()
	if !ok {
		t.Fatal("a hold of a hold failed while the file was open")
	}
	held.Close()
	again.Close()
	if _, ok := again.Hold(); ok {
		t.Fatal("a closed cache gave a hold")
	}
	c, err := OpenWith(home, Options{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("the last handle's Close did not release the lock: %v", err)
	}
	defer c.Close()
	if got, _ := c.Event(evt.ID); got == nil {
		t.Fatal("what the held handle wrote was lost")
	}
}
