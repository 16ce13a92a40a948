package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/writedeny"
)

// denyCacheWrites makes w's cache file unwritable for real (chmod, or
// chattr +i for root); where this machine denies no write it sets the seam
// that opens the cache read-only instead, and says so in the log.
func denyCacheWrites(t *testing.T, w *clitest.MutWorld) {
	t.Helper()
	path := cache.Path(w.Home["ROSTER_HOME"])
	if how := writedeny.Deny(t, path); how != "" {
		t.Logf("writing %s denied by %s", filepath.Base(path), how)
		return
	}
	t.Log("this machine denies no write (root without chattr +i): the cache is opened read-only through the seam")
	w.Seams.CacheReadOnly = true
}

// Rule (docs/cache.md "Read-only"): a cache roster may not write is read:
// --offline answers from it, a relay read and a health check work, the read
// warning that it could not keep what it read (naming the permission
// problem and --home); a
// membership change, which must keep what it publishes, is refused before
// anything is signed (exit 1, cache-read-only), naming the same, and the
// relays are untouched.
// It runs twice: with writing really denied (where this machine can), and
// through the seam alone.
func TestAReadOnlyCacheIsReadAndAWriteIsRefusedNamingHome(t *testing.T) {
	t.Parallel()
	for _, denied := range []bool{true, false} {
		name := map[bool]string{true: "denied", false: "seam"}[denied]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := clitest.TwoMaintainers(t) // every run so far filled the cache
			if denied {
				denyCacheWrites(t, w)
			} else {
				w.Seams.CacheReadOnly = true
			}
			readOnlyCacheIsRead(t, w)
		})
	}
}

func readOnlyCacheIsRead(t *testing.T, w *clitest.MutWorld) {

	r := w.Run(clitest.Alice, clitest.Alice, 2200, "repo", "--offline", "--json")
	var view struct {
		Lead string `json:"lead_maintainer"`
	}
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &view) != nil || view.Lead != clitest.Alice.Npub() {
		t.Fatalf("--offline on a read-only cache: exit %d out %s err %s", r.Code, r.Out, r.Err)
	}

	r = w.Run(clitest.Alice, clitest.Alice, 2200, "repo", "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "read-only") || !strings.Contains(r.Err, "--home") {
		t.Fatalf("a relay read on a read-only cache: exit %d err %q", r.Code, r.Err)
	}
	if strings.Contains(r.Err, "cache clear") {
		t.Fatalf("a read-only cache suggests clearing it: %q", r.Err)
	}

	r = clitest.Invocation{Env: w.Home, Seams: w.Seams}.Roster(t, "cache", "info", "--home", w.Home["ROSTER_HOME"])
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "read-only:") || !strings.Contains(r.Out, "events:") {
		t.Fatalf("cache info on a read-only cache: exit %d out %s err %s", r.Code, r.Out, r.Err)
	}

	// A health check reads with complete evidence but publishes nothing:
	// the read-only cache is compared with, not refused.
	r = w.Run(clitest.Alice, clitest.Alice, 2200, "repo", "health", "--json")
	if r.Code != cmdutil.ExitOK || strings.Contains(r.Out, "cache-read-only") {
		t.Fatalf("repo health on a read-only cache: exit %d out %s err %s", r.Code, r.Out, r.Err)
	}

	m := w.Refused(clitest.Alice, clitest.Alice, 2300, cmdutil.ExitFailure, "cache-read-only", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "read-only") || !strings.Contains(msg, "--home") || !strings.Contains(msg, "keeps what it publishes") {
		t.Fatalf("message %q", msg)
	}
	before := w.StoredCount()
	r = w.Run(clitest.Alice, clitest.Alice, 2300, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if r.Code != cmdutil.ExitFailure || !strings.Contains(r.Err, "read-only") || !strings.Contains(r.Err, "--home") || w.StoredCount() != before {
		t.Fatalf("text: exit %d err %q", r.Code, r.Err)
	}
	for _, c := range clitest.ToStrings(m["error"].(map[string]any)["commands"]) {
		if strings.Contains(c, "cache clear") {
			t.Fatalf("suggests %q", c)
		}
	}
}
