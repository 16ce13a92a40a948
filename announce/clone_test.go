package announce

import (
	"errors"
	"slices"
	"testing"
)

// Clone URLs are written as others fetch from them: scp-like as ssh://, a
// URL as given, an explicit path as file://; a path taken by default is a
// *LocalCloneError; a remote helper is refused; "" is no URL.
func TestCloneURLsToWriteNormalizesWhatOthersFetchFrom(t *testing.T) {
	got, err := CloneURLsToWrite([]string{"git@github.com:o/r.git", "https://git.example/r.git", "", "ssh://git@github.com/o/r.git"}, false)
	if err != nil || !slices.Equal(got, []string{"ssh://git@github.com/o/r.git", "https://git.example/r.git"}) {
		t.Fatalf("got %v, %v", got, err)
	}
	if got, err := CloneURLsToWrite([]string{"/srv/r.git"}, true); err != nil || !slices.Equal(got, []string{"file:///srv/r.git"}) {
		t.Fatalf("explicit path: %v, %v", got, err)
	}
	var le *LocalCloneError
	if _, err := CloneURLsToWrite([]string{"/srv/r.git"}, false); !errors.As(err, &le) {
		t.Fatalf("a default path: %v, want a LocalCloneError", err)
	}
	if _, err := CloneURLsToWrite([]string{"nostr::npub1x/r"}, true); err == nil {
		t.Fatal("a remote helper URL was accepted")
	}
}
