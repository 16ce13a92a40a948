package cache

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/internal/writedeny"
)

// seeded is a cache home holding one event, closed.
func seeded(t *testing.T) (string, *nostr.Event) {
	t.Helper()
	home := t.TempDir()
	c, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	evt := signed(t, aliceSK, 1, 1, "kept")
	if err := c.Put(evt); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return home, evt
}

// checkReadOnly opens home with o and checks the read-only contract: reads
// answer, every write is refused with ErrReadOnly naming the permission
// problem and --home (never `cache clear`), and the file is not changed.
func checkReadOnly(t *testing.T, home string, o Options, evt *nostr.Event) {
	t.Helper()
	before, err := os.ReadFile(Path(home))
	if err != nil {
		t.Fatal(err)
	}
	c, err := OpenWith(home, o)
	if err != nil {
		t.Fatalf("a read-only cache does not open: %v", err)
	}
	if c.ReadOnly() == nil {
		t.Fatal("ReadOnly() is nil for a read-only open")
	}
	if got, err := c.Event(evt.ID); err != nil || got == nil {
		t.Fatalf("read: %v %v", got, err)
	}
	if got, err := c.Query(nostr.Filter{Kinds: []int{1}}); err != nil || len(got) != 1 {
		t.Fatalf("query: %d events, %v", len(got), err)
	}
	err = c.Put(signed(t, bobSK, 1, 2, "new"))
	assertCacheError(t, err, ErrReadOnly, home, "read-only")
	var ce *Error
	if errors.As(err, &ce) && len(ce.Commands()) != 0 {
		t.Fatalf("a read-only cache suggests %v", ce.Commands())
	}
	if err := c.PutRelayInfo("wss://r.example", []byte(`{}`), time.Unix(1, 0)); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("relay info write: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("close of a read-only cache: %v", err)
	}
	after, err := os.ReadFile(Path(home))
	if err != nil || !bytes.Equal(before, after) {
		t.Fatalf("the read-only file changed (%v)", err)
	}
}

// Rule (docs/cache.md "Read-only"): a cache file the operating system will
// not let roster write is opened read-only: reads work, writes fail naming
// the permission problem and --home. Where this machine cannot deny a write
// (root without chattr) the read-only open is asserted through
// Options.ReadOnly, and the log says so.
func TestAnUnwritableCacheFileIsReadOnly(t *testing.T) {
	home, evt := seeded(t)
	o := Options{}
	how := writedeny.Deny(t, Path(home))
	if how == "" {
		t.Log("this machine denies no write (root without chattr +i): the read-only path is checked through Options.ReadOnly")
		o.ReadOnly = true
	} else {
		t.Logf("writing the cache file denied by %s", how)
	}
	checkReadOnly(t, home, o, evt)
}

// Rule: Options.ReadOnly opens a writable file read-only, with the same
// contract (the seam the command tests use where no write can be denied).
func TestAReadOnlyOpenReadsAndRefusesWrites(t *testing.T) {
	home, evt := seeded(t)
	checkReadOnly(t, home, Options{ReadOnly: true}, evt)
	// It left the file usable for a writer afterwards.
	c, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.ReadOnly() != nil {
		t.Fatalf("a writable open reports %v", c.ReadOnly())
	}
	if err := c.Put(signed(t, bobSK, 1, 2, "new")); err != nil {
		t.Fatal(err)
	}
}

// Rule: a home where the cache file does not exist and cannot be created
// is an error naming the permission problem and --home. There is no seam
// for the operating system refusing a create: where no write can be denied
// the test fails naming what is missing (writedeny.MustDeny).
func TestACacheThatCannotBeCreatedNamesThePermissionAndHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	writedeny.MustDeny(t, home)
	_, err := Open(home)
	assertCacheError(t, err, ErrUnreadable, home, "does not permit")
}

// Rule: clearing a cache in a directory roster may not write says so and
// names --home (the OS must refuse the write: writedeny.MustDeny).
func TestClearingACacheRosterMayNotRemoveNamesHome(t *testing.T) {
	home, _ := seeded(t)
	writedeny.MustDeny(t, home)
	err := Clear(home)
	if err == nil || !strings.Contains(err.Error(), "--home") || !strings.Contains(err.Error(), "does not permit") {
		t.Fatalf("clear: %v", err)
	}
	if _, err := os.Stat(Path(home)); err != nil {
		t.Fatalf("the file is gone: %v", err)
	}
}
