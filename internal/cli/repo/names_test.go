package repo_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// namesWorld is the lead-shaped repository with profiles that exercise
// every rule: Alice's verifies its NIP-05, Bob's claims Alice's name and a
// NIP-05 the domain does not list for him, Carol's is forged (a bad
// signature: ignored), Dave has none.
func namesWorld(t *testing.T) (*devrelay.Relay, *http.Client, *atomic.Int32) {
	t.Helper()
	rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, rl.URL(), clitest.LeadShaped(t, "proj")...)
	clitest.Publish(t, rl.URL(),
		clitest.Alice.Profile(t, 500, map[string]any{"name": "alice", "display_name": "Alice A.", "nip05": "alice@example.com"}),
		clitest.Bob.Profile(t, 500, map[string]any{"name": "Alice", "nip05": "bob@example.com"}))
	forged := clitest.Carol.Profile(t, 500, map[string]any{"name": "carol"})
	forged.Content = `{"name":"mallory"}` // the signature no longer matches
	forged.ID = forged.GetID()
	rl.Inject(forged)
	client, lookups := clitest.Nip05Server(t, map[string]string{"alice": clitest.Alice.Pk, "bob": clitest.Carol.Pk})
	return rl, client, lookups
}

func membersByNpub(t *testing.T, v any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, m := range v.([]any) {
		mm := m.(map[string]any)
		out[mm["npub"].(string)] = mm
	}
	return out
}

// Rule (people are shown by the name they gave themselves, which is a
// label, never an identity): every person object carries name and nip05;
// a NIP-05 address counts only when its domain lists that key; a forged
// profile is ignored; a person with no profile has null.
func TestRepoJSONNamesPeopleFromVerifiedProfiles(t *testing.T) {
	t.Parallel()
	rl, client, lookups := namesWorld(t)
	env := clitest.TestEnv(t)
	inv := clitest.Invocation{Env: env, Seams: cmdutil.Seams{Http: client}}
	m, r := clitest.RepoJSONRun(t, inv, "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	ms := membersByNpub(t, m["maintainers"])
	want := map[string][2]any{
		clitest.Alice.Npub(): {"alice", "alice@example.com"},
		clitest.Bob.Npub():   {"Alice", nil}, // claims bob@example.com, which the domain gives to Carol
		clitest.Carol.Npub(): {nil, nil},     // forged profile
	}
	for npub, w := range want {
		got := ms[npub]
		if got == nil {
			t.Fatalf("%s missing from maintainers: %v", npub, m["maintainers"])
		}
		if got["name"] != w[0] || got["nip05"] != w[1] {
			t.Fatalf("%s: name %v nip05 %v, want %v %v", npub, got["name"], got["nip05"], w[0], w[1])
		}
	}
	mods := membersByNpub(t, m["moderators"])
	if d := mods[clitest.Dave.Npub()]; d == nil || d["name"] != nil || d["nip05"] != nil {
		t.Fatalf("dave has no profile: want null name and nip05, got %v", mods)
	}
	if n := lookups.Load(); n != 2 {
		t.Fatalf("%d NIP-05 lookups, want 2 (alice's and bob's claims)", n)
	}
	// Discovery, the state author's deletions (docs/cache.md "Deletions on
	// a plain read") and one profile REQ.
	profiles := 0
	for _, req := range rl.Requests() {
		if clitest.IsProfileREQ(req) {
			profiles++
		}
	}
	if rl.ReqCount() != 3 || profiles != 1 {
		t.Fatalf("want discovery, the state authors' deletions and one profile REQ, got %v", rl.Requests())
	}

	// A warm read: profiles and NIP-05 answers come from the cache.
	m2, r := clitest.RepoJSONRun(t, inv, "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("second exit %d: %s", r.Code, r.Err)
	}
	if rl.ReqCount() != 5 || lookups.Load() != 2 {
		t.Fatalf("warm read: %d REQs in all (want 5: discovery and the state authors' deletions, no profiles), %d lookups (want 2)", rl.ReqCount(), lookups.Load())
	}
	if !clitest.JsonEqual(m["maintainers"], m2["maintainers"]) {
		t.Fatalf("warm read differs:\n%v\n%v", m["maintainers"], m2["maintainers"])
	}
	// Offline, too.
	m3, r := clitest.RepoJSONRun(t, inv, "--repo", clitest.Alice.Naddr("proj"), "--offline")
	if r.Code != cmdutil.ExitOK || !clitest.JsonEqual(m["maintainers"], m3["maintainers"]) {
		t.Fatalf("offline read differs (exit %d):\n%v\n%v", r.Code, m["maintainers"], m3["maintainers"])
	}
}

// Rule (two people may claim the same name): the human output shows both
// with their full npub, while everyone else gets a short one on a
// terminal; "(you)" marks the signer; rows fit $COLUMNS, broken between
// words. Golden files at 80 and 120 columns.
func TestRepoHumanNamesFitTheTerminal(t *testing.T) {
	t.Parallel()
	rl, client, _ := namesWorld(t)
	for _, cols := range []string{"80", "120"} {
		env := clitest.WithKey(clitest.TestEnv(t), clitest.Dave)
		env["COLUMNS"] = cols
		env["NO_COLOR"] = "1"
		inv := clitest.Invocation{Env: env, Seams: cmdutil.Seams{Http: client}, OutTTY: true}
		r := inv.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--timeout", "3s")
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d: %s", r.Code, r.Err)
		}
		out := strings.ReplaceAll(r.Out, rl.URL(), "ws://relay.test")
		for _, line := range strings.Split(out, "\n") {
			if w, max := len([]rune(line)), atoi(t, cols); w > max {
				t.Fatalf("%s columns: a %d-column line: %q", cols, w, line)
			}
		}
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, "alice <alice@example.com> ("+clitest.Alice.Npub()+")") || !strings.Contains(flat, "Alice ("+clitest.Bob.Npub()+")") {
			t.Fatalf("%s columns: two people named alice must both show their full npub:\n%s", cols, out)
		}
		if !strings.Contains(flat, clitest.ShortNpubForTest(clitest.Dave.Npub())+" (you)") {
			t.Fatalf("%s columns: dave (the viewer) is not short and marked (you):\n%s", cols, out)
		}
		checkGolden(t, filepath.Join("testdata", "repo_names_"+cols+".golden"), out)
	}
	// --full: whole npubs on a terminal too; a pipe always gets them whole.
	env := clitest.WithKey(clitest.TestEnv(t), clitest.Dave)
	env["NO_COLOR"] = "1"
	for _, inv := range []clitest.Invocation{{Env: env, Seams: cmdutil.Seams{Http: client}, OutTTY: true}, {Env: env, Seams: cmdutil.Seams{Http: client}}} {
		args := []string{"repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--timeout", "3s"}
		if inv.OutTTY {
			args = append(args, "--full")
		}
		r := inv.Roster(t, args...)
		flat := strings.Join(strings.Fields(r.Out), " ")
		if r.Code != cmdutil.ExitOK || !strings.Contains(flat, clitest.Dave.Npub()+" (you)") || strings.Contains(r.Out, "…") {
			t.Fatalf("tty %v: want full npubs:\n%s%s", inv.OutTTY, r.Out, r.Err)
		}
	}
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// checkGolden compares got with the file at path; ROSTER_UPDATE_GOLDEN=1
// rewrites it for a reviewer to read.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if os.Getenv("ROSTER_UPDATE_GOLDEN") == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (ROSTER_UPDATE_GOLDEN=1 writes it)", err)
	}
	if string(want) != got {
		t.Fatalf("%s differs:\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// Rule (a pubkey argument may be a NIP-05 name): it is looked up before
// anything else, the key it resolved to is shown in the preview and in
// nip05_lookups, and a name the domain does not list is exit 4 with the
// relays untouched.
func TestRepoEditAcceptsANIP05NameAndShowsTheKey(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	client, lookups := clitest.Nip05Server(t, map[string]string{"bob": clitest.Bob.Pk})
	w.Seams.Http = client

	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", "bob@example.com", "--dry-run")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s%s", r.Code, r.Out, r.Err)
	}
	if !strings.Contains(r.Out, "bob@example.com is "+clitest.Bob.Npub()+": its domain lists that key") ||
		!strings.Contains(r.Out, "bob@example.com ("+clitest.Bob.Npub()+") becomes an invited maintainer") {
		t.Fatalf("the preview does not show the looked-up key:\n%s", r.Out)
	}
	r = w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", "bob@example.com", "--dry-run", "--json")
	var out struct {
		Lookups []map[string]string `json:"nip05_lookups"`
		Preview struct {
			Simulation struct {
				NewlyInvited []string `json:"newly_invited"`
			} `json:"simulation"`
		} `json:"preview"`
	}
	if err := json.Unmarshal([]byte(r.Out), &out); err != nil || len(out.Lookups) != 1 ||
		out.Lookups[0]["name"] != "bob@example.com" || out.Lookups[0]["npub"] != clitest.Bob.Npub() ||
		len(out.Preview.Simulation.NewlyInvited) != 1 || out.Preview.Simulation.NewlyInvited[0] != clitest.Bob.Npub() {
		t.Fatalf("JSON (%v):\n%s", err, r.Out)
	}

	before := w.Relays[0].EventCount()
	r = w.Run(clitest.Alice, clitest.Alice, 1100, "repo", "edit", "--add-maintainer", "nobody@example.com")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "nobody@example.com") || !strings.Contains(r.Err, "nothing was published") {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if w.Relays[0].EventCount() != before {
		t.Fatal("a failed lookup published something")
	}
	if lookups.Load() != 3 {
		t.Fatalf("%d lookups, want 3", lookups.Load())
	}
}

// Rule (a repository you can share): --add-maintainer gives the
// repository's nostr:// URL with a relay hint and the invitee's accept
// command, and that command, pasted by the invitee in their own roster
// home with no other flag, accepts the invitation.
func TestRepoEditAddGivesAPasteReadyAcceptCommand(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	var out struct {
		Share *struct {
			URL    string `json:"url"`
			Accept string `json:"accept_command"`
		} `json:"share"`
	}
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &out) != nil || out.Share == nil {
		t.Fatalf("exit %d, no share:\n%s%s", r.Code, r.Out, r.Err)
	}
	hint := strings.TrimPrefix(w.Relays[0].URL(), "ws://")
	if !strings.HasPrefix(out.Share.URL, "nostr://"+clitest.Alice.Npub()+"/ws:%2F%2F"+hint+"/"+w.Id) {
		t.Fatalf("share URL %q lacks the relay hint %s", out.Share.URL, hint)
	}
	words := strings.Fields(out.Share.Accept)
	if len(words) != 5 || words[0] != "roster" || words[4] != out.Share.URL {
		t.Fatalf("accept command %q", out.Share.Accept)
	}
	// Bob pastes it: his own home, his key, no --relay.
	acc := clitest.Invocation{Env: clitest.WithKey(clitest.TestEnv(t), clitest.Bob), Dir: w.Dir, Now: time.Unix(2000, 0)}.Roster(t, append(words[1:], "--json")...)
	if acc.Code != cmdutil.ExitOK {
		t.Fatalf("the pasted accept failed: exit %d\n%s%s", acc.Code, acc.Out, acc.Err)
	}
	m, _ := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t), Now: time.Unix(2100, 0)}, "--repo", out.Share.URL)
	if clitest.MemberStatuses(t, m["maintainers"])[clitest.Bob.Npub()] != "confirmed" {
		t.Fatalf("bob is not confirmed after the pasted accept: %v", m["maintainers"])
	}
	// A moderator invitation's accept command accepts the moderator role.
	r = w.Run(clitest.Alice, clitest.Alice, 2500, "repo", "edit", "--add-moderator", clitest.Dave.Npub(), "--dry-run", "--json")
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &out) != nil || out.Share == nil ||
		out.Share.Accept != "roster repo accept --moderator --repo "+out.Share.URL {
		t.Fatalf("moderator share: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	// The human output says who to send it to.
	r = w.Run(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run")
	if !strings.Contains(r.Out, "send "+clitest.Carol.Npub()+" the repository and the command to accept:") || !strings.Contains(r.Out, "roster repo accept --repo nostr://") {
		t.Fatalf("no share in the human output:\n%s", r.Out)
	}
}

// Rule (a repository you can share): repo init prints, and --json
// carries, the nostr:// URL with the relay that returned the announcement
// as hint, and the accept command an invitee will run.
func TestRepoInitGivesTheShareURL(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = clitest.Alice.Sk
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(relays)...)...)
	var out struct {
		Share struct {
			URL    string `json:"url"`
			Accept string `json:"accept_command"`
		} `json:"share"`
	}
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &out) != nil {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	want := "nostr://" + clitest.Alice.Npub() + "/ws:%2F%2F" + strings.TrimPrefix(relays[0].URL(), "ws://") + "/widget"
	if out.Share.URL != want || out.Share.Accept != "roster repo accept --repo "+want {
		t.Fatalf("share %+v, want url %s", out.Share, want)
	}
}
