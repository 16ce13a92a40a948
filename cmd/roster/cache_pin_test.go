package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// bigEventsRepository is Eve's "big": she lists n maintainers, and each of them
// announces it with a 200 KiB description, under the cache's per-event
// limit, so a read of it caches n × 200 KiB.
func bigEventsRepository(t *testing.T, n int) (clitest.Person, []*nostr.Event) {
	t.Helper()
	eve := clitest.NewPerson("eve of the big repository")
	tags := []nostr.Tag{clitest.Role("M", eve)}
	var people []clitest.Person
	for i := range n {
		p := clitest.NewPerson(fmt.Sprintf("big repository maintainer %d", i))
		people = append(people, p)
		tags = append(tags, clitest.Role("m", p, "100"))
	}
	tags = append(tags, clitest.MaintainersTag(append([]clitest.Person{eve}, people...)...))
	out := []*nostr.Event{eve.Announce(t, "big", 100, tags...)}
	for _, p := range people {
		out = append(out, p.Announce(t, "big", 101, clitest.Role("M", eve, "100"), clitest.Role("m", p, "100"),
			nostr.Tag{"description", strings.Repeat("x", 200<<10)}))
	}
	return eve, out
}

// Rule (the cache never evicts the repository the home used most recently
// in favour of another repository's large events): Alice adds Bob, then
// reads Eve's "big", whose 30 maintainers' announcements (6 MB) overrun a
// 4 MiB cache. Alice's repository stays: `--offline` still shows Bob
// invited, and when the relay then serves the announcement her edit
// replaced, her next edit is still refused stale-relays (exit 4) with
// nothing published.
func TestAnotherRepositorysBigEventsDoNotEvictTheHomesRepository(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seams.CacheMaxBytes = 4 << 20
	base := clitest.Alice.Announce(t, w.Id, 100)
	w.Seed(base)
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	eve, big := bigEventsRepository(t, 30)
	clitest.Publish(t, w.Relays[0].URL(), big...)
	r := clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Alice), Dir: w.Dir, Seams: w.Seams}.Roster(t,
		"repo", "--repo", eve.Naddr("big"), "--relay", w.Relays[0].URL(), "--home", w.Home["ROSTER_HOME"], "--timeout", "10s", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("reading the big repository: exit %d\n%s", r.Code, r.Err)
	}
	c, err := cache.OpenWith(w.Home["ROSTER_HOME"], cache.Options{MaxBytes: w.Seams.CacheMaxBytes})
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Info()
	c.Close()
	if err != nil || info.Evicted == 0 {
		t.Fatalf("the big repository evicted nothing (%+v, %v): the test does not overrun the cache", info, err)
	}

	off := w.Run(clitest.Alice, clitest.Alice, 1100, "repo", "--offline", "--json")
	var view map[string]any
	if off.Code != cmdutil.ExitOK || json.Unmarshal([]byte(off.Out), &view) != nil || !strings.Contains(off.Out, clitest.Bob.Npub()) {
		t.Fatalf("--offline after the big read: exit %d\n%s%s", off.Code, off.Out, off.Err)
	}

	// The relay now serves the version the edit replaced.
	latest := w.Relays[0].Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{clitest.Alice.Pk}, Tags: nostr.TagMap{"d": {w.Id}}})
	if len(latest) != 1 || latest[0].ID == base.ID {
		t.Fatalf("stored %v", latest)
	}
	hidden := latest[0].ID
	w.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool { return e.ID == hidden }})
	w.Relays[0].Inject(base)
	before := w.StoredCount()
	stale := w.Run(clitest.Alice, clitest.Alice, 1200, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json", "--timeout", "5s")
	if stale.Code != cmdutil.ExitIncomplete || !strings.Contains(stale.Out, `"code": "stale-relays"`) || w.StoredCount() != before {
		t.Fatalf("exit %d against a relay serving the replaced version, want 4 stale-relays and nothing stored\n%s%s", stale.Code, stale.Out, stale.Err)
	}
}
