package change_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// No change, no event: a metadata edit whose new tag set equals the current
// announcement's (here the same hashtags in another order) publishes
// nothing, says "nothing to change" and exits 0.
func TestMetadataEditWithTheSameTagSetPublishesNothing(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100, nostr.Tag{"t", "go"}, nostr.Tag{"t", "cli"}))
	before := w.StoredCount()
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--hashtag", "cli", "--hashtag", "go")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if !strings.Contains(r.Out, "nothing to change") {
		t.Fatalf("output does not say nothing to change:\n%s", r.Out)
	}
	if got := w.StoredCount(); got != before {
		t.Fatalf("relays store %d events, %d before: an unchanged tag set was published", got, before)
	}
}

// A rerun of repo init with the same inputs is no change: nothing is
// published (exit 0, "nothing to change", unchanged true, published []),
// and the checkout still selects the coordinate.
func TestRepoInitRerunWithTheSameTagsPublishesNothing(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	args := append([]string{"repo", "init", "--clone", "https://git.example/widget.git"}, clitest.InitRelayFlags(relays)...)
	inv := clitest.Invocation{Env: env, Dir: dir, Now: time.Unix(1750000000, 0)}
	if r := inv.Roster(t, args...); r.Code != cmdutil.ExitOK {
		t.Fatalf("first init: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	inv.Now = time.Unix(1750000100, 0)
	r := inv.Roster(t, append(args, "--json")...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("second init: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	var res report.RepoInit
	clitest.DecodeJSON(t, r, &res)
	if !res.Unchanged || len(res.Published) != 0 || res.GitConfig.NostrRepo == nil {
		t.Fatalf("rerun: unchanged %v published %v nostr.repo %v", res.Unchanged, res.Published, res.GitConfig.NostrRepo)
	}
	if n := len(relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}})); n != 1 {
		t.Fatalf("relay stores %d announcements after an unchanged rerun, want 1", n)
	}
	if r := inv.Roster(t, args...); r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "nothing to change") {
		t.Fatalf("third init (human): exit %d\n%s", r.Code, r.Out)
	}
}

// A follow-lead that changes history, defer copies or the pointer still
// publishes, and its preview names every tag it changes: each difference
// between the announcement before and the one published is one of
// preview.changes or preview.other_tags.
func TestFollowLeadPreviewNamesEveryTagItChanges(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	w.Ok(clitest.Alice, clitest.Alice, 2200, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Carol, clitest.Alice, 2300, "repo", "accept")
	w.Ok(clitest.Alice, clitest.Alice, 2400, "repo", "edit", "--acknowledge-maintainer-change", clitest.Carol.Npub())
	w.Ok(clitest.Bob, clitest.Bob, 3000, "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())
	w.Ok(clitest.Alice, clitest.Alice, 4000, "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())

	old := latestEvent(t, w, clitest.Carol)
	m := w.Ok(clitest.Carol, clitest.Carol, 5000, "repo", "follow-lead")
	published, _ := m["published"].([]any)
	if len(published) != 1 {
		t.Fatalf("follow-lead published %v, want one announcement", m["published"])
	}
	next := latestEvent(t, w, clitest.Carol)
	preview := m["preview"].(map[string]any)
	named := map[string]bool{}
	var list []any
	for _, c := range preview["changes"].([]any) {
		c := c.(map[string]any)
		list = append(list, c["before"], c["after"])
	}
	for _, e := range preview["other_tags"].([]any) {
		list = append(list, e.(map[string]any)["tag"])
	}
	for _, t := range list {
		b, _ := json.Marshal(t)
		named[string(b)] = true
	}
	diff := func(a, b nostr.Tags) []string {
		var out []string
		for _, t := range a {
			if !containsTag(b, t) {
				j, _ := json.Marshal(t)
				out = append(out, string(j))
			}
		}
		return out
	}
	for _, d := range append(diff(old.Tags, next.Tags), diff(next.Tags, old.Tags)...) {
		if !named[d] {
			t.Errorf("tag %s changed but the preview does not name it (changes %v, other_tags %v)", d, preview["changes"], preview["other_tags"])
		}
	}
	r := w.Run(clitest.Carol, clitest.Carol, 5000, "repo", "follow-lead", "--dry-run")
	if strings.Contains(r.Out, "your announcement:") {
		t.Fatalf("a second follow-lead still changes the announcement:\n%s", r.Out)
	}
}

func containsTag(tags nostr.Tags, t nostr.Tag) bool {
	for _, x := range tags {
		if strings.Join(x, "\x00") == strings.Join(t, "\x00") {
			return true
		}
	}
	return false
}

func latestEvent(t *testing.T, w *clitest.MutWorld, p clitest.Person) *nostr.Event {
	t.Helper()
	var best *nostr.Event
	for _, e := range w.Relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{p.Pk}}) {
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	if best == nil {
		t.Fatalf("no announcement of %s", p.Name)
	}
	return best
}
