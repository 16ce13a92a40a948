package gitstate

import (
	"testing"
)

// Opening a checkout parses its config file to check the repository's
// format; the first read of the config uses that parse instead of opening
// and parsing the file again, and every later read sees the file as it is
// then, edits included (SetNostrRepo followed by ResolveCoordinate on the
// same Checkout).
func TestTheConfigParsedAtOpenIsReadOnceThenTheFileAgain(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	first := EncodeNaddr(coord(alicePK, "once"), nil)
	r.git("config", "nostr.repo", first)
	c := r.open()
	if c.repo == nil {
		t.Fatal("want a go-git repository")
	}
	if c.repo.opened.Load() == nil {
		t.Fatal("open kept no parsed config")
	}
	sel, err := c.ResolveCoordinate("")
	if err != nil || sel.Coordinate != coord(alicePK, "once") {
		t.Fatalf("ResolveCoordinate = %+v, %v", sel, err)
	}
	if c.repo.opened.Load() != nil {
		t.Fatal("the parse at open was not taken by the first read")
	}
	if err := c.SetNostrRepo(EncodeNaddr(coord(bobPK, "twice"), nil)); err != nil {
		t.Fatal(err)
	}
	sel, err = c.ResolveCoordinate("")
	if err != nil || sel.Coordinate != coord(bobPK, "twice") {
		t.Fatalf("after the edit, ResolveCoordinate = %+v, %v", sel, err)
	}
}
