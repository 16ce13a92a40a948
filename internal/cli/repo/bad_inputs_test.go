package repo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// A malformed --repo is a usage error (exit 2, docs/exit-codes.md) whose
// commands show the two spellings that work; a bare npub/identifier gets its
// nostr:// form.
func TestMalformedRepoFlagNamesTheSpellingsThatWork(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	cases := map[string]string{
		"truncated naddr":         "naddr1qqqqq",
		"naddr of another kind":   "nevent1qqqqq",
		"npub without nostr://":   clitest.Alice.Npub() + "/proj",
		"nostr URL without id":    "nostr://" + clitest.Alice.Npub(),
		"nostr URL, bad owner":    "nostr://garbage/proj",
		"empty nostr URL":         "nostr://",
		"not a coordinate at all": "https://example.org/repo.git",
	}
	for name, repo := range cases {
		t.Run(name, func(t *testing.T) {
			r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: outside}.Roster(t, "repo", "--json", "--repo", repo, "--relay", "ws://127.0.0.1:1")
			if r.Code != cmdutil.ExitUsage {
				t.Fatalf("exit %d, want %d: %s %s", r.Code, cmdutil.ExitUsage, r.Out, r.Err)
			}
			e := clitest.ErrorBody(t, r)
			cmds := strings.Join(e.Commands, "\n")
			if !strings.Contains(cmds, "roster repo --repo nostr://<npub>/<identifier>") || !strings.Contains(cmds, "naddr1") {
				t.Fatalf("%s: commands do not show a working spelling: %+v", repo, e)
			}
		})
	}
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: outside}.Roster(t, "repo", "--repo", clitest.Alice.Npub()+"/proj", "--relay", "ws://127.0.0.1:1")
	if !strings.Contains(r.Err, "run: roster repo --repo nostr://"+clitest.Alice.Npub()+"/proj") {
		t.Fatalf("bare npub/identifier: no nostr:// suggestion:\n%s", r.Err)
	}
}

// Outside a checkout, the commands suggested after a failed read keep the
// --repo the user gave: without it each of them would fail with "not inside
// a Git checkout". Covers a refused connection and a relay that never
// answers (--timeout 1s), both exit 4.
func TestRelayFailureCommandsKeepTheRepoFlag(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	// A refused connection is port 1, where nothing listens: a stopped
	// relay's port can be taken by another test's relay at once.
	silent := devrelay.StartN(t, 1, devrelay.Options{})[0]
	silent.SetSilent(true)
	naddr := clitest.Alice.Naddr("proj")
	for name, c := range map[string]struct{ url, status string }{
		"connection refused": {clitest.DeadRelay, "failed"},
		"never answers":      {silent.URL(), "timeout"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: outside}.Roster(t, "repo", "--json", "--timeout", "1s", "--repo", naddr, "--relay", c.url)
			if r.Code != cmdutil.ExitIncomplete {
				t.Fatalf("exit %d, want %d: %s %s", r.Code, cmdutil.ExitIncomplete, r.Out, r.Err)
			}
			e := clitest.ErrorBody(t, r)
			if e.Code != "incomplete" || !strings.Contains(e.Message, c.url+": "+c.status) {
				t.Fatalf("error does not name %s as %s: %+v", c.url, c.status, e)
			}
			if len(e.Commands) == 0 {
				t.Fatalf("no commands: %+v", e)
			}
			for _, cmd := range e.Commands {
				if strings.HasPrefix(cmd, "roster ") && !strings.Contains(cmd, "--repo "+naddr) {
					t.Fatalf("suggested command %q drops --repo, so it fails outside a checkout", cmd)
				}
			}
		})
	}
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: outside}.Roster(t, "repo", "--repo", naddr)
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "run: roster repo --repo "+naddr+" --relay wss://<relay>") {
		t.Fatalf("no relays: exit %d:\n%s", r.Code, r.Err)
	}
}

// A corrupt cache never stops a network read (a warning names the way out)
// and makes --offline fail with exit 1, `roster cache clear` and the error
// code `roster cache info` uses (docs/cache.md: cache-corrupt, with the path).
func TestRepoWithCorruptCache(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	env := clitest.TestEnv(t)
	if err := os.WriteFile(filepath.Join(env["ROSTER_HOME"], "cache.db"), []byte(strings.Repeat("not a bolt file ", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	r := clitest.Invocation{Env: env}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "roster cache clear") || !strings.Contains(r.Out, "complete         yes") {
		t.Fatalf("network read with a corrupt cache: exit %d\nstdout %s\nstderr %s", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "repo", "--json", "--offline", "--repo", clitest.Alice.Naddr("proj"))
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitFailure || e.Code != "cache-corrupt" || e.Details["path"] != filepath.Join(env["ROSTER_HOME"], "cache.db") || len(e.Commands) == 0 || e.Commands[0] != "roster cache clear" {
		t.Fatalf("--offline with a corrupt cache: exit %d %+v", r.Code, e)
	}
}

// A cache whose meta pages are fine but whose freelist is damaged makes
// bbolt panic after it has locked the file. A read opens the cache more
// than once; each open must report the damage again, at once, never wait
// out the lock timeout and call the file "locked by another roster process".
func TestRepoWithADamagedCacheIsNeverReportedLocked(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	env := clitest.TestEnv(t)
	c, err := cache.Open(env["ROSTER_HOME"])
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if err := c.Put(clitest.CacheTestEvent(t, 1, int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	raw, err := os.ReadFile(cache.Path(env["ROSTER_HOME"]))
	if err != nil {
		t.Fatal(err)
	}
	for i := 2 * 4096; i < len(raw); i++ {
		raw[i] = 0xAB
	}
	if err := os.WriteFile(cache.Path(env["ROSTER_HOME"]), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := clitest.Invocation{Env: env}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	took := time.Since(start)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "roster cache clear") || strings.Contains(r.Err, "locked") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.Code, r.Out, r.Err)
	}
	if took >= cache.DefaultOpenTimeout {
		t.Fatalf("the read took %v: an open waited for a lock a failed open kept", took)
	}
}

// A health check on partial evidence suggests retries that ask the same
// relays: without the user's --relay flags the retry would have none.
func TestIncompleteHealthRetryKeepsTheRelayFlags(t *testing.T) {
	t.Parallel()
	up := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, up.URL(), clitest.LeadShaped(t, "proj")...)
	naddr := clitest.Alice.Naddr("proj")
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "health", "--json", "--timeout", "2s", "--repo", naddr,
		"--relay", up.URL(), "--relay", clitest.DeadRelay)
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	e := clitest.ErrorBody(t, r)
	want := "--repo " + naddr + " --relay " + up.URL() + " --relay " + clitest.DeadRelay
	for _, cmd := range e.Commands {
		if !strings.Contains(cmd, want) {
			t.Fatalf("retry %q does not ask the same relays (%q)", cmd, want)
		}
	}
}

// Several coordinates at one resolution step: roster never guesses (exit 2)
// and offers one ready command per candidate.
func TestAmbiguousCheckoutOffersOneCommandPerCandidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", dir},
		{"-C", dir, "remote", "add", "a", "nostr://" + clitest.Alice.Npub() + "/proj"},
		{"-C", dir, "remote", "add", "b", "nostr://" + clitest.Bob.Npub() + "/proj"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: dir}.Roster(t, "repo", "--json", "--relay", "ws://127.0.0.1:1")
	e := clitest.ErrorBody(t, r)
	cmds := strings.Join(e.Commands, "\n")
	if r.Code != cmdutil.ExitUsage || e.Code != "ambiguous-coordinate" ||
		!strings.Contains(cmds, "roster repo --repo nostr://"+clitest.Alice.Npub()+"/proj") ||
		!strings.Contains(cmds, "roster repo --repo nostr://"+clitest.Bob.Npub()+"/proj") ||
		!strings.Contains(cmds, "git config nostr.repo "+clitest.Alice.Naddr("proj")) {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	if c, ok := e.Details["candidates"].([]any); !ok || len(c) != 2 {
		t.Fatalf("details.candidates: %v", e.Details)
	}
}

// A scheme-less relay hint means wss:// (NIP-34 nostr:// URLs); a local
// relay speaks plain ws://. roster says so and offers the ws:// retry.
func TestWssHintToAPlainRelayOffersWs(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	hostport := strings.TrimPrefix(relays[0].URL(), "ws://")
	repo := "nostr://" + clitest.Alice.Npub() + "/" + hostport + "/proj"
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "--json", "--timeout", "3s", "--repo", repo)
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(e.Message, "it speaks plain ws://, not wss://") || len(e.Commands) == 0 ||
		!strings.HasPrefix(e.Commands[0], "roster repo --repo "+repo+" --relay ws://"+hostport+"  #") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	// The offered command works.
	if r := (clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}).Roster(t, "repo", "--repo", repo, "--relay", "ws://"+hostport); r.Code != cmdutil.ExitOK {
		t.Fatalf("the offered retry fails: exit %d %s", r.Code, r.Err)
	}
}

// A bad `nostr.repo` in the checkout's config: the commands fix the config,
// rather than only show it.
func TestBadNostrRepoConfigNamesTheFix(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", dir}, {"-C", dir, "config", "nostr.repo", "naddr1bad"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: dir}.Roster(t, "repo", "--relay", "ws://127.0.0.1:1")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "run: git config nostr.repo <naddr>") || !strings.Contains(r.Err, "run: git config --unset nostr.repo") {
		t.Fatalf("exit %d:\n%s", r.Code, r.Err)
	}
}

// --offline with an empty cache (a first run): exit 4, "not-found", and the
// command to fetch it from the relays the user named.
func TestOfflineWithEmptyCacheSaysToFetchFirst(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "--json", "--offline", "--repo", clitest.Alice.Naddr("proj"), "--relay", "ws://127.0.0.1:1")
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Code != "not-found" || e.Details["offline"] != true || len(e.Commands) != 1 ||
		!strings.HasPrefix(e.Commands[0], "roster repo --repo nostr://"+clitest.Alice.Npub()+"/proj --relay ws://127.0.0.1:1  # without --offline") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
}
