package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a dry run publishes nothing, and shows exactly what would be):
// `repo init --dry-run` prints the announcement init would sign (its tags,
// the relays) as roster.repo-init-preview/v1, exits 0, signs and sends
// nothing, keeps nothing in the journal and leaves git config alone; the
// init that follows publishes those very tags.
func TestRepoInitDryRunPreviewsTheAnnouncementAndPublishesNothing(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	dir, root := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	now := time.Unix(1750000000, 0)
	args := append([]string{"repo", "init", "--description", "Makes widgets", "--clone", "https://git.example/widget.git"}, clitest.InitRelayFlags(relays)...)
	r := clitest.Invocation{Env: env, Dir: dir, Now: now}.Roster(t, append(args, "--dry-run", "--json")...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("dry run: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	var p struct {
		Schema string       `json:"schema"`
		DryRun bool         `json:"dry_run"`
		Event  *nostr.Event `json:"event"`
		Relays []string     `json:"relays"`
	}
	if err := json.Unmarshal([]byte(r.Out), &p); err != nil || p.Schema != "roster.repo-init-preview/v1" || !p.DryRun || p.Event == nil {
		t.Fatalf("preview: %v\n%s", err, r.Out)
	}
	if p.Event.Sig != "" || p.Event.Kind != graph.KindAnnouncement || p.Event.PubKey != k.Pubkey || !slices.Equal(p.Relays, devrelay.URLs(relays)) ||
		!slices.Equal(p.Event.Tags.Find("r"), nostr.Tag{"r", root, "euc"}) {
		t.Fatalf("preview event %+v relays %v", p.Event, p.Relays)
	}
	for _, rel := range relays {
		if n := len(rel.Stored(nostr.Filter{})); n != 0 {
			t.Fatalf("%s stores %d events after a dry run", rel.URL(), n)
		}
	}
	if naddr, _ := clitest.InitTestGitConfig(t, dir); naddr != "" {
		t.Fatalf("a dry run set nostr.repo to %q", naddr)
	}
	if files := clitest.JournalFiles(t, env["ROSTER_HOME"]); len(files) != 0 {
		t.Fatalf("a dry run kept %v", files)
	}
	human := clitest.Invocation{Env: env, Dir: dir, Now: now}.Roster(t, append(args, "--dry-run")...)
	if human.Code != cmdutil.ExitOK || !strings.Contains(human.Out, "nothing signed or published") || !strings.Contains(human.Out, "tag  r "+root+" euc") {
		t.Fatalf("human dry run: exit %d\n%s", human.Code, human.Out)
	}

	published := clitest.Invocation{Env: env, Dir: dir, Now: now}.Roster(t, args...)
	if published.Code != cmdutil.ExitOK {
		t.Fatalf("init: exit %d\n%s\n%s", published.Code, published.Out, published.Err)
	}
	stored := clitest.InitStoredAnnouncements(relays[0], k.Pubkey)
	if len(stored) != 1 || !slices.EqualFunc(stored[0].Tags, p.Event.Tags, func(a, b nostr.Tag) bool { return slices.Equal(a, b) }) ||
		stored[0].CreatedAt != p.Event.CreatedAt {
		t.Fatalf("published %v, previewed %v", stored, p.Event)
	}
}

// Rule (every signed event is journaled until verified): an init whose
// second relay loses the connection right after the EVENT exits 6 and
// keeps the signed announcement in the journal; `roster pending` names the
// relay that lacks it, and `roster pending resume` sends the very same
// event there and forgets the entry once every relay returns it.
func TestAnInterruptedRepoInitIsResumedWithTheSameAnnouncement(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	ours := func(e *nostr.Event) bool { return e.Kind == graph.KindAnnouncement && e.PubKey == k.Pubkey }
	relays[1].SetMisbehaviour(devrelay.Misbehaviour{DropEvent: ours})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir, Now: time.Unix(1750000000, 0)}.Roster(t, append([]string{"repo", "init", "--json", "--timeout", "5s"}, clitest.InitRelayFlags(relays)...)...)
	var body struct {
		Event *nostr.Event `json:"event"`
		Error struct {
			Code     string         `json:"code"`
			Details  map[string]any `json:"details"`
			Commands []string       `json:"commands"`
		} `json:"error"`
	}
	_ = json.Unmarshal([]byte(r.Out), &body)
	write, _ := body.Error.Details["journal"].(string)
	if r.Code != cmdutil.ExitUnverified || body.Event == nil || write != body.Event.ID ||
		!slices.ContainsFunc(body.Error.Commands, func(c string) bool { return strings.HasPrefix(c, "roster pending resume "+write[:12]) }) {
		t.Fatalf("interrupted init: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	relays[1].SetMisbehaviour(devrelay.Misbehaviour{})
	if !clitest.Stores(relays[0], write) || clitest.Stores(relays[1], write) {
		t.Fatal("want the announcement on the first relay only")
	}
	at := time.Unix(1750000010, 0)
	list := clitest.Invocation{Env: env, Dir: dir, Now: at}.Roster(t, "pending", "--timeout", "5s")
	if list.Code != cmdutil.ExitOK || !strings.Contains(list.Out, write[:12]) || !strings.Contains(list.Out, "lacking: "+relays[1].URL()) {
		t.Fatalf("roster pending: exit %d\n%s\n%s", list.Code, list.Out, list.Err)
	}
	res := clitest.Invocation{Env: env, Dir: dir, Now: at}.Roster(t, "pending", "resume", write[:12], "--json", "--timeout", "5s")
	if res.Code != cmdutil.ExitOK || !strings.Contains(res.Out, `"verified": true`) {
		t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Out, res.Err)
	}
	for _, rel := range relays {
		got := rel.Stored(nostr.Filter{IDs: []string{write}})
		if len(got) != 1 || got[0].Sig != body.Event.Sig {
			t.Fatalf("%s holds %v, want the original event", rel.URL(), got)
		}
	}
	if files := clitest.JournalFiles(t, env["ROSTER_HOME"]); len(files) != 0 {
		t.Fatalf("the resumed write stays in the journal: %v", files)
	}
}

// Rule (the journal fails closed): repo init whose journal holds an entry
// it cannot read signs nothing and sends nothing (exit 1,
// journal-unreadable), naming the file.
func TestRepoInitStopsBeforeSigningWhenItsJournalCannotBeRead(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	jdir := filepath.Join(env["ROSTER_HOME"], "journal")
	if err := os.MkdirAll(jdir, 0o700); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(jdir, strings.Repeat("cd", 32)+"-0.json")
	if err := os.WriteFile(corrupt, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init"}, clitest.InitRelayFlags(relays)...)...)
	if r.Code != cmdutil.ExitFailure || !strings.Contains(r.Err, corrupt) || !strings.Contains(r.Err, "nothing was signed") {
		t.Fatalf("init with an unreadable journal: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if n := len(relays[0].Stored(nostr.Filter{})); n != 0 {
		t.Fatalf("the refused init reached the relay: %d events", n)
	}
}

// Rule (every signed event is journaled until verified): a first
// announcement that no relay kept (the only relay lost the connection
// after the EVENT) is resumed by init's own recheck, every relay answering
// and none holding another announcement of the identifier, and the same
// signed event is sent.
func TestAFirstAnnouncementNoRelayKeptIsResumedWithTheSameEvent(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	relays[0].SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == graph.KindAnnouncement }})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir, Now: time.Unix(1750000000, 0)}.Roster(t, append([]string{"repo", "init", "--json", "--timeout", "5s"}, clitest.InitRelayFlags(relays)...)...)
	var body struct {
		Event *nostr.Event `json:"event"`
	}
	_ = json.Unmarshal([]byte(r.Out), &body)
	if r.Code != cmdutil.ExitUnverified || body.Event == nil || len(clitest.JournalFiles(t, env["ROSTER_HOME"])) != 1 {
		t.Fatalf("init on a relay that drops it: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	relays[0].SetMisbehaviour(devrelay.Misbehaviour{})
	res := clitest.Invocation{Env: env, Dir: dir, Now: time.Unix(1750000010, 0)}.Roster(t, "pending", "resume", body.Event.ID[:12], "--timeout", "5s")
	if res.Code != cmdutil.ExitOK || !strings.Contains(res.Out, "is finished") {
		t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Out, res.Err)
	}
	if got := relays[0].Stored(nostr.Filter{IDs: []string{body.Event.ID}}); len(got) != 1 || got[0].Sig != body.Event.Sig {
		t.Fatalf("the relay holds %v, want the original event", got)
	}
	if files := clitest.JournalFiles(t, env["ROSTER_HOME"]); len(files) != 0 {
		t.Fatalf("the resumed write stays in the journal: %v", files)
	}
}
