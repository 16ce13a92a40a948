package change_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// swallowAnnouncements is a relay that answers OK to kind 30617 and keeps
// nothing: a relay that drops the event after accepting it.
type swallowAnnouncements struct{}

func (swallowAnnouncements) Kinds() []int { return []int{graph.KindAnnouncement} }
func (swallowAnnouncements) Ingest(context.Context, devrelay.Env, string, *nostr.Event) ([]*nostr.Event, error) {
	return nil, nil
}
func (swallowAnnouncements) View(_ devrelay.Env, _ string, evt *nostr.Event) *nostr.Event { return evt }

// maintainers.md "Required client invariants": "A fresh
// one-person repository emits no role or maintainers tag." The announcement
// carries d, r <root> euc, name, description, clone, web, relays (and alt) in
// ngit's order; git config nostr.repo names it; every relay returns it.
func TestRepoInitAnnouncesAFreshOnePersonRepositoryInNgitTagOrder(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	dir, root := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	args := append([]string{"repo", "init", "--json", "--description", "Makes widgets",
		"--clone", "https://git.example/widget.git", "--web", "https://widget.example"}, clitest.InitRelayFlags(relays)...)
	now := time.Unix(1750000000, 0)
	r := clitest.Invocation{Env: env, Dir: dir, Now: now}.Roster(t, args...)
	if r.Code != 0 {
		t.Fatalf("exit %d out %s err %s", r.Code, r.Out, r.Err)
	}
	var res report.RepoInit
	clitest.DecodeJSON(t, r, &res)
	urls := devrelay.URLs(relays)
	want := nostr.Tags{
		{"d", "widget"},
		{"r", root, "euc"},
		{"name", "widget"},
		{"description", "Makes widgets"},
		{"clone", "https://git.example/widget.git"},
		{"web", "https://widget.example"},
		append(nostr.Tag{"relays"}, urls...),
		{"alt", "git repository: widget"},
	}
	for _, rel := range relays {
		stored := clitest.InitStoredAnnouncements(rel, k.Pubkey)
		if len(stored) != 1 {
			t.Fatalf("%s stores %d announcements", rel.URL(), len(stored))
		}
		e := stored[0]
		if e.ID != res.Event.ID || e.Kind != 30617 || e.CreatedAt != nostr.Timestamp(now.Unix()) || e.Content != "" {
			t.Fatalf("stored %v", e)
		}
		if !slices.EqualFunc(e.Tags, want, func(a, b nostr.Tag) bool { return slices.Equal(a, b) }) {
			t.Fatalf("tags\n got %v\nwant %v", e.Tags, want)
		}
		for _, tag := range e.Tags {
			if slices.Contains([]string{"maintainers", "M", "m", "o"}, tag[0]) {
				t.Fatalf("fresh one-person repository emits %q", tag[0])
			}
		}
	}
	if !res.Verified || len(res.Relays) != 2 || !res.Relays[0].ReadBack || !res.Relays[1].ReadBack || res.Replaces != nil ||
		len(res.Published) != 1 || res.Published[0] != res.Event.ID || res.Backend != "env" {
		t.Fatalf("result %+v", res)
	}
	naddr, origin := clitest.InitTestGitConfig(t, dir)
	c, hints, err := gitstate.DecodeNaddr(naddr)
	if err != nil || c != graph.NewCoordinate(k.Pubkey, "widget") || !slices.Equal(hints, urls) || naddr != res.Coordinate.Naddr {
		t.Fatalf("nostr.repo %q -> %v %v %v", naddr, c, hints, err)
	}
	if origin != "" || res.GitConfig.Origin != nil {
		t.Fatalf("origin set without --set-origin: %q", origin)
	}
}

// Rule (repo init sets git config nostr.repo, an naddr, and, with
// --set-origin, a nostr:// origin). The identifier and name default to the directory name.
func TestRepoInitSetOriginAndDirectoryNameDefaults(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "My Widget")
	clitest.GitRun(t, dir, "remote", "add", "origin", "https://git.example/widget.git")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Hex
	env["ROSTER_RELAYS"] = relays[0].URL()
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, "repo", "init", "--set-origin")
	if r.Code != 0 {
		t.Fatalf("exit %d err %s", r.Code, r.Err)
	}
	stored := clitest.InitStoredAnnouncements(relays[0], k.Pubkey)
	if len(stored) != 1 || stored[0].Tags.GetD() != "my-widget" || stored[0].Tags.Find("name")[1] != "My Widget" {
		t.Fatalf("stored %v", stored)
	}
	// The clone URL defaults to origin's (non-nostr) URL from before init.
	if c := stored[0].Tags.Find("clone"); !slices.Equal(c, nostr.Tag{"clone", "https://git.example/widget.git"}) {
		t.Fatalf("clone tag %v", c)
	}
	_, origin := clitest.InitTestGitConfig(t, dir)
	want := gitstate.NostrURL(graph.NewCoordinate(k.Pubkey, "my-widget"), []string{relays[0].URL()})
	if origin != want {
		t.Fatalf("origin %q, want %q", origin, want)
	}
	ref, err := gitstate.ParseNostrURL(origin)
	if err != nil || ref.Coordinate != graph.NewCoordinate(k.Pubkey, "my-widget") {
		t.Fatalf("origin does not parse back: %+v %v", ref, err)
	}
	if !strings.Contains(r.Out, "my-widget") || !strings.Contains(r.Out, "read back") {
		t.Fatalf("text output %q", r.Out)
	}
}

// Rule (repo init refuses to overwrite an existing announcement of the same
// identifier by the same author unless it is identical in identity fields).
func TestRepoInitRefusesToOverwriteADifferentAnnouncement(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	other := clitest.NewTestKey(t)
	dir, root := clitest.InitTestCheckout(t, "widget")
	cases := map[string]nostr.Tags{
		"other root commit":    {{"d", "widget"}, {"r", strings.Repeat("ab", 20), "euc"}, {"name", "widget"}},
		"maintainer roles":     {{"d", "widget"}, {"r", root, "euc"}, {"M", k.Pubkey}, {"m", other.Pubkey}, {"maintainers", k.Pubkey, other.Pubkey}},
		"legacy co-maintainer": {{"d", "widget"}, {"r", root, "euc"}, {"maintainers", k.Pubkey, other.Pubkey}},
	}
	for name, tags := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			relays := devrelay.StartN(t, 1, devrelay.Options{})
			prev := &nostr.Event{Kind: 30617, CreatedAt: 1700000000, Tags: tags}
			if err := prev.Sign(k.Hex); err != nil {
				t.Fatal(err)
			}
			if err := relays[0].Publish(prev); err != nil {
				t.Fatal(err)
			}
			env := clitest.HomeEnv(t)
			env["ROSTER_SECRET_KEY"] = k.Nsec
			r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(relays)...)...)
			var body clitest.InitJSON
			clitest.DecodeJSON(t, r, &body)
			if r.Code != cmdutil.ExitRefused || body.Error.Code != "announcement-exists" || !strings.Contains(r.Out, "repo edit") {
				t.Fatalf("exit %d out %s", r.Code, r.Out)
			}
			stored := clitest.InitStoredAnnouncements(relays[0], k.Pubkey)
			if len(stored) != 1 || stored[0].ID != prev.ID {
				t.Fatalf("refused init changed the relay: %v", stored)
			}
			if naddr, _ := clitest.InitTestGitConfig(t, dir); naddr != "" {
				t.Fatalf("refused init wrote nostr.repo %q", naddr)
			}
		})
	}
}

// An announcement that agrees in identity (same root commit, sole author, as
// ngit writes it with maintainers=[author]) is refreshed: newer created_at,
// every tag init does not write is kept byte for byte, and the whole
// replacement is in ngit's tag order whatever order the old one had.
func TestRepoInitRefreshesAnIdenticalIdentityKeepingOtherTags(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, root := clitest.InitTestCheckout(t, "widget")
	now := time.Unix(1750000000, 0)
	prev := &nostr.Event{Kind: 30617, CreatedAt: nostr.Timestamp(now.Unix()), Tags: nostr.Tags{
		{"d", "widget"}, {"t", "go"}, {"x-unknown", "a", "b"}, {"maintainers", k.Pubkey}, {"r", root, "euc"}, {"name", "old"},
		{"description", ""}, {"clone"}, {"web"}, {"relays"}, {"alt", "git repository: old"}, {"u", "nostr://upstream"},
	}}
	if err := prev.Sign(k.Hex); err != nil {
		t.Fatal(err)
	}
	if err := relays[0].Publish(prev); err != nil {
		t.Fatal(err)
	}
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir, Now: now}.Roster(t, append([]string{"repo", "init", "--json", "--name", "Widget"}, clitest.InitRelayFlags(relays)...)...)
	if r.Code != 0 {
		t.Fatalf("exit %d out %s err %s", r.Code, r.Out, r.Err)
	}
	var res report.RepoInit
	clitest.DecodeJSON(t, r, &res)
	stored := clitest.InitStoredAnnouncements(relays[0], k.Pubkey)
	if len(stored) != 1 || stored[0].ID != res.Event.ID || res.Replaces == nil || *res.Replaces != prev.ID {
		t.Fatalf("stored %v result %+v", stored, res)
	}
	e := stored[0]
	if e.CreatedAt != prev.CreatedAt+1 || e.Tags.Find("name")[1] != "Widget" {
		t.Fatalf("replacement %v", e)
	}
	got, _ := json.Marshal(e.Tags)
	relay := relays[0].URL()
	want := `[["d","widget"],["r","` + root + `","euc"],["name","Widget"],["description",""],["clone"],["web"],["relays","` + relay + `"],` +
		`["maintainers","` + k.Pubkey + `"],["alt","git repository: Widget"],["t","go"],["u","nostr://upstream"],["x-unknown","a","b"]]`
	if string(got) != want {
		t.Fatalf("replacement tags\n got: %s\nwant: %s", got, want)
	}
}

// The earliest unique commit is the `r` tag holding a commit id (graph's
// announcement parse): an `r` tag holding a URL names no commit, so an
// existing announcement with the same euc commit and a URL `r` tag is the
// same repository. init refreshes it and carries the URL `r` tag over, as it
// carries every tag it does not write.
func TestRepoInitEarliestUniqueCommitIsTheCommitRTagNotAURL(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, root := clitest.InitTestCheckout(t, "widget")
	now := time.Unix(1750000000, 0)
	prev := &nostr.Event{Kind: 30617, CreatedAt: nostr.Timestamp(now.Unix()), Tags: nostr.Tags{
		{"d", "widget"}, {"r", "https://git.example/widget"}, {"r", root, "euc"}, {"name", "widget"}, {"maintainers", k.Pubkey},
	}}
	if err := prev.Sign(k.Hex); err != nil {
		t.Fatal(err)
	}
	if err := relays[0].Publish(prev); err != nil {
		t.Fatal(err)
	}
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir, Now: now}.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(relays)...)...)
	if r.Code != 0 {
		t.Fatalf("same euc commit refused: exit %d out %s err %s", r.Code, r.Out, r.Err)
	}
	var res report.RepoInit
	clitest.DecodeJSON(t, r, &res)
	if res.Replaces == nil || *res.Replaces != prev.ID {
		t.Fatalf("result %+v", res)
	}
	var rTags []nostr.Tag
	for _, tag := range res.Event.Tags {
		if tag[0] == "r" {
			rTags = append(rTags, tag)
		}
	}
	if len(rTags) != 2 || !slices.Equal(rTags[0], nostr.Tag{"r", root, "euc"}) || !slices.Equal(rTags[1], nostr.Tag{"r", "https://git.example/widget"}) {
		t.Fatalf("r tags %v, want the euc commit and the carried URL", rTags)
	}
}

// Rule (exit 6 if read-back is incomplete): one relay answers OK and
// keeps nothing.
func TestRepoInitExits6WhenARelayDropsTheEvent(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	good := devrelay.StartN(t, 1, devrelay.Options{})
	dropping := devrelay.StartN(t, 1, devrelay.Options{Authorities: []devrelay.Authority{swallowAnnouncements{}}})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	all := append(good, dropping...)
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(all)...)...)
	var body clitest.InitJSON
	clitest.DecodeJSON(t, r, &body)
	if r.Code != cmdutil.ExitUnverified || body.Error.Code != "unverified" || body.Verified || len(body.Published) != 1 || body.Published[0] != body.Event.ID {
		t.Fatalf("exit %d out %s", r.Code, r.Out)
	}
	rs := body.Relays
	if len(rs) != 2 || !rs[0].OK || !rs[0].ReadBack || !rs[1].OK || rs[1].ReadBack {
		t.Fatalf("relays %+v", rs)
	}
	if len(clitest.InitStoredAnnouncements(good[0], k.Pubkey)) != 1 || len(clitest.InitStoredAnnouncements(dropping[0], k.Pubkey)) != 0 {
		t.Fatal("relay contents are not what the test set up")
	}
	if naddr, _ := clitest.InitTestGitConfig(t, dir); naddr == "" {
		t.Fatal("nostr.repo not written although a relay holds the announcement")
	}
	text := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init"}, clitest.InitRelayFlags(all)...)...)
	if text.Code != cmdutil.ExitUnverified || !strings.Contains(text.Err, dropping[0].URL()) || !strings.Contains(text.Out, "NOT returned") {
		t.Fatalf("text: exit %d out %q err %q", text.Code, text.Out, text.Err)
	}
}

// A relay that demands NIP-42 authentication is answered with the user's
// signer, for the existence check, the publish and the read-back.
func TestRepoInitAuthenticatesToRelaysThatRequireNIP42(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{RequireAuth: true})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(relays)...)...)
	var res report.RepoInit
	clitest.DecodeJSON(t, r, &res)
	if r.Code != 0 || !res.Verified {
		t.Fatalf("exit %d out %s err %s", r.Code, r.Out, r.Err)
	}
	if len(clitest.InitStoredAnnouncements(relays[0], k.Pubkey)) != 1 {
		t.Fatal("the auth-requiring relay does not hold the announcement")
	}
}

// docs/exit-codes.md: every write treats incomplete evidence as exit 4 and
// publishes nothing.
func TestRepoInitExits4WhenARelayDoesNotAnswerTheCheck(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	relays[1].SetSilent(true)
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--timeout", "300ms"}, clitest.InitRelayFlags(relays)...)...)
	// The silent relay is named the way every other command names one.
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, relays[1].URL()+": timeout: no answer before the timeout") {
		t.Fatalf("exit %d err %q", r.Code, r.Err)
	}
	if n := len(clitest.InitStoredAnnouncements(relays[0], k.Pubkey)); n != 0 {
		t.Fatalf("published %d announcements despite incomplete evidence", n)
	}
	// The same error code as every other command's incomplete evidence.
	j := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--json", "--timeout", "300ms"}, clitest.InitRelayFlags(relays)...)...)
	retry := "roster repo init --relay " + relays[0].URL() + " --relay " + relays[1].URL() + " --timeout 30s"
	if j.Code != cmdutil.ExitIncomplete || !strings.Contains(j.Out, `"code": "incomplete"`) || !strings.Contains(j.Out, retry) {
		t.Fatalf("--json: exit %d out %q", j.Code, j.Out)
	}
}

func TestRepoInitUsageErrors(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	empty := filepath.Join(t.TempDir(), "empty")
	clitest.GitInit(t, empty)
	withKey := clitest.HomeEnv(t)
	withKey["ROSTER_SECRET_KEY"] = k.Nsec
	for name, c := range map[string]struct {
		env  map[string]string
		dir  string
		args []string
		kind string
	}{
		"no signer":      {clitest.HomeEnv(t), dir, clitest.InitRelayFlags(relays), "no-signer"},
		"no relays":      {withKey, dir, nil, "no-relays"},
		"no commits":     {withKey, empty, clitest.InitRelayFlags(relays), "no-commits"},
		"not a checkout": {withKey, t.TempDir(), clitest.InitRelayFlags(relays), "not-a-checkout"},
		"bad identifier": {withKey, dir, append([]string{"--identifier", "a b"}, clitest.InitRelayFlags(relays)...), "usage"},
		"offline":        {withKey, dir, append([]string{"--offline"}, clitest.InitRelayFlags(relays)...), "usage"},
	} {
		r := clitest.Invocation{Env: c.env, Dir: c.dir}.Roster(t, append([]string{"repo", "init", "--json"}, c.args...)...)
		var body clitest.InitJSON
		clitest.DecodeJSON(t, r, &body)
		if r.Code != cmdutil.ExitUsage || body.Error.Code != c.kind {
			t.Fatalf("%s: exit %d out %s", name, r.Code, r.Out)
		}
	}
	if n := len(clitest.InitStoredAnnouncements(relays[0], k.Pubkey)); n != 0 {
		t.Fatalf("usage errors published %d events", n)
	}
}

// Rule: when init may not refresh an announcement that has other
// maintainers, the metadata it was given is a metadata edit instead: the
// suggested `repo edit --name ... --repo <own coordinate>` runs as pasted
// and keeps the roles byte for byte.
func TestRepoInitRefusedSuggestsTheMetadataEditThatRunsAsPasted(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	other := clitest.NewTestKey(t)
	dir, root := clitest.InitTestCheckout(t, "widget")
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	prev := &nostr.Event{Kind: 30617, CreatedAt: 1700000000, Tags: nostr.Tags{{"d", "widget"}, {"r", root, "euc"}, {"name", "widget"},
		{"M", k.Pubkey}, {"m", other.Pubkey, "1700000000"}, {"maintainers", k.Pubkey, other.Pubkey}}}
	if err := prev.Sign(k.Hex); err != nil {
		t.Fatal(err)
	}
	if err := relays[0].Publish(prev); err != nil {
		t.Fatal(err)
	}
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--json", "--name", "Widget", "--description", "Makes-widgets"}, clitest.InitRelayFlags(relays)...)...)
	var body clitest.InitJSON
	clitest.DecodeJSON(t, r, &body)
	var edit string
	for _, c := range body.Error.Commands {
		if strings.HasPrefix(c, "roster repo edit --name Widget --description Makes-widgets --repo naddr1") {
			edit = strings.SplitN(c, "  #", 2)[0]
		}
	}
	if r.Code != cmdutil.ExitRefused || edit == "" || !strings.Contains(edit, "--relay "+relays[0].URL()) {
		t.Fatalf("exit %d commands %v", r.Code, body.Error.Commands)
	}
	r = clitest.Invocation{Env: env, Dir: t.TempDir(), Now: time.Unix(1700000100, 0)}.Roster(t, strings.Fields(edit)[1:]...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("the suggested edit: exit %d out %s err %s", r.Code, r.Out, r.Err)
	}
	stored := clitest.InitStoredAnnouncements(relays[0], k.Pubkey)
	got, _ := json.Marshal(stored[0].Tags)
	want := `[["d","widget"],["r","` + root + `","euc"],["name","Widget"],["description","Makes-widgets"],["M","` + k.Pubkey + `"],` +
		`["m","` + other.Pubkey + `","1700000000"],["maintainers","` + k.Pubkey + `","` + other.Pubkey + `"]]`
	if len(stored) != 1 || string(got) != want {
		t.Fatalf("stored %d, tags\n got: %s\nwant: %s", len(stored), got, want)
	}
}
