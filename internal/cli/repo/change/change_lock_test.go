package change_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/filelock"
)

// Rule (one home writes one coordinate at a time): while another command of
// the same home holds the coordinate's lock (here the test holds it), a
// change waits for it before its recheck and publishes nothing; its
// --deadline ends the wait (exit 4 deadline, phase rechecking). Once the
// lock is free the same change goes through.
func TestAChangeWaitsForTheHomesLockOnItsCoordinate(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	dir := filepath.Join(w.Home["ROSTER_HOME"], "locks")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("30617:" + clitest.Alice.Pk + ":" + w.Id))
	unlock, err := filelock.Lock(context.Background(), filepath.Join(dir, hex.EncodeToString(sum[:16])+".lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	before := w.StoredCount()
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--deadline", "2s", "--json")
	_, e := clitest.MutationJSON(t, r)
	if d, _ := e["details"].(map[string]any); r.Code != cmdutil.ExitIncomplete || e["code"] != "deadline" || d["phase"] != "rechecking" {
		t.Fatalf("exit %d %v, want 4 deadline while rechecking (waiting for the lock)\n%s", r.Code, e, r.Out)
	}
	if w.StoredCount() != before {
		t.Fatal("a change waiting for the home's lock stored an event")
	}
	unlock()
	if out := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub()); out["verified"] != true {
		t.Fatalf("after the lock was released: %v", out)
	}
}
