package cache

import (
	"bytes"
	"os"
	"testing"
)

// Rule (a read pays no write it does not need): opening a cache this
// roster made, in the current schema, and closing it without reading
// commits nothing (the schema is checked in a read transaction: no
// fdatasync), so the file is byte for byte what it was; a file still to
// be initialized is written as before.
func TestOpeningACurrentCacheCommitsNothing(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put(signed(t, aliceSK, 1, 5, "kept")); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(Path(home))
	if err != nil {
		t.Fatal(err)
	}
	c, err = Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(Path(home))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("opening and closing a current cache changed the file")
	}
}
