package cache

import "testing"

// The people bucket: when profiles were asked for and NIP-05 answers,
// kept across opens of the file.
func TestPeopleBucketKeepsChecksAcrossOpens(t *testing.T) {
	home := t.TempDir()
	c, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	pk := "aa"
	if at, err := c.ProfileCheckedAt(pk); err != nil || at != 0 {
		t.Fatalf("never checked: %d %v", at, err)
	}
	if err := c.ProfileChecked(100, pk); err != nil {
		t.Fatal(err)
	}
	if err := c.PutNIP05("Bob@Example.com", NIP05Check{Pubkey: pk, CheckedAt: 100}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if at, err := c.ProfileCheckedAt(pk); err != nil || at != 100 {
		t.Fatalf("checked at %d %v, want 100", at, err)
	}
	got, ok, err := c.NIP05("bob@example.com")
	if err != nil || !ok || got.Pubkey != pk || got.CheckedAt != 100 {
		t.Fatalf("NIP-05 %+v %v %v", got, ok, err)
	}
}
