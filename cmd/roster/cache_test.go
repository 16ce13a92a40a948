package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"

	bolt "go.etcd.io/bbolt"
)

type cacheInfoOut struct {
	Schema        string         `json:"schema"`
	Exists        bool           `json:"exists"`
	Path          string         `json:"path"`
	SizeBytes     int64          `json:"size_bytes"`
	SchemaVersion int            `json:"schema_version"`
	Events        int            `json:"events"`
	Kinds         map[string]int `json:"kinds"`
	Addresses     int            `json:"addresses"`
	Deletions     int            `json:"deletions"`
	Relays        []string       `json:"relays"`
	Projections   int            `json:"projections"`
	MaxSizeBytes  int64          `json:"max_size_bytes"`
	MaxEventBytes int            `json:"max_event_bytes"`
	Evicted       uint64         `json:"evicted"`
	Skipped       uint64         `json:"skipped_oversized"`
}

func decodeCacheInfo(t *testing.T, r clitest.Result) cacheInfoOut {
	t.Helper()
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\nout %s\nerr %s", r.Code, r.Out, r.Err)
	}
	var out cacheInfoOut
	if err := json.Unmarshal([]byte(r.Out), &out); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	return out
}

func TestCacheInfoJSONCountsWhatTheCacheHolds(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c, err := cache.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	ann := clitest.CacheTestEvent(t, 30617, 100, nostr.Tag{"d", "r"})
	st := clitest.CacheTestEvent(t, 30618, 100, nostr.Tag{"d", "r"})
	del := clitest.CacheTestEvent(t, 5, 200, nostr.Tag{"e", st.ID})
	if err := c.Put(ann, st, del); err != nil {
		t.Fatal(err)
	}
	if err := c.PutRelayInfo("ws://127.0.0.1:7777", []byte(`{"name":"dev"}`), time.Unix(1700000000, 0)); err != nil {
		t.Fatal(err)
	}
	c.Close()

	out := decodeCacheInfo(t, clitest.Invocation{Env: map[string]string{"ROSTER_HOME": home}}.Roster(t, "cache", "info", "--json"))
	if out.Schema != "roster.cache-info/v2" || !out.Exists || out.Path != cache.Path(home) || out.SchemaVersion != cache.SchemaVersion ||
		out.Events != 3 || out.Kinds["30617"] != 1 || out.Kinds["30618"] != 1 || out.Kinds["5"] != 1 || out.Deletions != 1 ||
		out.Addresses != 2 || len(out.Relays) != 1 || out.Relays[0] != "ws://127.0.0.1:7777" || out.SizeBytes <= 0 {
		t.Fatalf("info %+v", out)
	}

	// --home beats ROSTER_HOME; the human form names the file and counts.
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "--home", home, "cache", "info")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, cache.Path(home)) || !strings.Contains(r.Out, "events:      3") || !strings.Contains(r.Out, "kind 30617") {
		t.Fatalf("exit %d out %q err %q", r.Code, r.Out, r.Err)
	}
}

// Rule (the cache is bounded): `cache info` shows the cap next to the
// size, how many events were evicted to stay under it and how many were
// skipped for being over the event size limit.
func TestCacheInfoShowsTheCapEvictionsAndSkippedOversized(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c, err := cache.OpenWith(home, cache.Options{MaxBytes: cache.MinMaxBytes}) // small enough to evict
	if err != nil {
		t.Fatal(err)
	}
	var flood []*nostr.Event
	for i := 0; i < 10; i++ {
		evt := &nostr.Event{Kind: 30617, CreatedAt: 100, Content: strings.Repeat("x", 200<<10), Tags: nostr.Tags{{"d", fmt.Sprintf("r%d", i)}}}
		if err := evt.Sign("0000000000000000000000000000000000000000000000000000000000000007"); err != nil {
			t.Fatal(err)
		}
		flood = append(flood, evt)
	}
	huge := clitest.CacheTestEvent(t, 1, 100, nostr.Tag{"alt", strings.Repeat("y", cache.MaxEventBytes)})
	if err := c.Put(append(flood, huge)...); err != nil {
		t.Fatal(err)
	}
	want, err := c.Info()
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if want.Evicted == 0 || want.SkippedOversized != 1 {
		t.Fatalf("setup: %+v", want)
	}
	env := map[string]string{"ROSTER_HOME": home}
	out := decodeCacheInfo(t, clitest.Invocation{Env: env}.Roster(t, "cache", "info", "--json"))
	if out.Schema != "roster.cache-info/v2" || out.MaxSizeBytes != cache.DefaultMaxBytes || out.MaxEventBytes != cache.MaxEventBytes ||
		out.Evicted != want.Evicted || out.Skipped != 1 || out.Events != want.Events || out.Events == 0 || out.SizeBytes > cache.MinMaxBytes {
		t.Fatalf("info %+v, want evicted %d, skipped 1, %d events", out, want.Evicted, want.Events)
	}
	r := clitest.Invocation{Env: env}.Roster(t, "cache", "info")
	for _, line := range []string{
		fmt.Sprintf("(cap %d)", cache.DefaultMaxBytes),
		fmt.Sprintf("evicted:     %d (least recently read", want.Evicted),
		fmt.Sprintf("oversized:   1 skipped (events over %d bytes", cache.MaxEventBytes),
	} {
		if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, line) {
			t.Fatalf("human output lacks %q: exit %d\n%s%s", line, r.Code, r.Out, r.Err)
		}
	}
}

func TestCacheInfoDoesNotCreateAMissingCache(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "fresh")
	out := decodeCacheInfo(t, clitest.Invocation{Env: map[string]string{"ROSTER_HOME": home}}.Roster(t, "cache", "info", "--json"))
	if out.Exists || out.Path != cache.Path(home) || out.Events != 0 || out.MaxSizeBytes != cache.DefaultMaxBytes || out.MaxEventBytes != cache.MaxEventBytes {
		t.Fatalf("info %+v", out)
	}
	if _, err := os.Stat(cache.Path(home)); !os.IsNotExist(err) {
		t.Fatalf("cache info created %s: %v", cache.Path(home), err)
	}
}

// "A corrupt or newer-schema file gives a clear message and a way out, never a panic."
func TestCacheInfoOnCorruptFileNamesTheWayOut(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.WriteFile(cache.Path(home), []byte(strings.Repeat("garbage", 3000)), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ROSTER_HOME": home}
	r := clitest.Invocation{Env: env}.Roster(t, "cache", "info", "--json")
	if r.Code != cmdutil.ExitFailure {
		t.Fatalf("exit %d out %s", r.Code, r.Out)
	}
	var body struct {
		Error struct {
			Code     string         `json:"code"`
			Message  string         `json:"message"`
			Commands []string       `json:"commands"`
			Details  map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Out), &body); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	if body.Error.Code != "cache-corrupt" || len(body.Error.Commands) != 1 || body.Error.Commands[0] != "roster cache clear" ||
		!strings.Contains(body.Error.Message, cache.Path(home)) || body.Error.Details["path"] != cache.Path(home) {
		t.Fatalf("error %+v", body.Error)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "cache", "info")
	if r.Code != cmdutil.ExitFailure || !strings.Contains(r.Err, cache.Path(home)) || !strings.Contains(r.Err, "run: roster cache clear") {
		t.Fatalf("human: exit %d err %q", r.Code, r.Err)
	}
	// The way out works.
	if r := (clitest.Invocation{Env: env}).Roster(t, "cache", "clear"); r.Code != cmdutil.ExitOK {
		t.Fatalf("clear: exit %d err %q", r.Code, r.Err)
	}
	decodeCacheInfo(t, clitest.Invocation{Env: env}.Roster(t, "cache", "info", "--json"))
}

func TestCacheInfoOnNewerSchemaNamesTheWayOut(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c, err := cache.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	db, err := bolt.Open(cache.Path(home), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("99")) })
	db.Close()
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": home}}.Roster(t, "cache", "info")
	if r.Code != cmdutil.ExitFailure || !strings.Contains(r.Err, "schema version 99") || !strings.Contains(r.Err, "roster cache clear") || !strings.Contains(r.Err, "--home") {
		t.Fatalf("exit %d err %q", r.Code, r.Err)
	}
}

func TestCacheClearRemovesTheFile(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c, err := cache.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	env := map[string]string{"ROSTER_HOME": home}
	r := clitest.Invocation{Env: env}.Roster(t, "cache", "clear", "--json")
	var out struct {
		Schema  string `json:"schema"`
		Path    string `json:"path"`
		Removed bool   `json:"removed"`
	}
	if err := json.Unmarshal([]byte(r.Out), &out); err != nil || r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d out %q: %v", r.Code, r.Out, err)
	}
	if out.Schema != "roster.cache-clear/v1" || out.Path != cache.Path(home) || !out.Removed {
		t.Fatalf("clear %+v", out)
	}
	if _, err := os.Stat(cache.Path(home)); !os.IsNotExist(err) {
		t.Fatalf("file still there: %v", err)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "cache", "clear", "--json")
	if err := json.Unmarshal([]byte(r.Out), &out); err != nil || r.Code != cmdutil.ExitOK || out.Removed {
		t.Fatalf("second clear: exit %d out %q", r.Code, r.Out)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "cache", "clear")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "nothing to remove") {
		t.Fatalf("human clear: exit %d out %q", r.Code, r.Out)
	}
}

// Rule (cache location: a bbolt file under ROSTER_HOME, default the XDG
// cache directory).
// Without --home and ROSTER_HOME, a read stores its cache in
// $XDG_CACHE_HOME/roster, else $HOME/.cache/roster (the XDG default), and
// `roster cache info` names that file.
func TestCacheDefaultsToTheXDGCacheDirectory(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	xdg, home := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CACHE_HOME": xdg, "HOME": home}, filepath.Join(xdg, "roster")},
		{map[string]string{"HOME": home}, filepath.Join(home, ".cache", "roster")},
	} {
		if _, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: c.env}, "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL()); r.Code != cmdutil.ExitOK {
			t.Fatalf("read with %v: exit %d: %s", c.env, r.Code, r.Err)
		}
		if _, err := os.Stat(cache.Path(c.want)); err != nil {
			t.Fatalf("with %v the read left no cache at %s: %v", c.env, cache.Path(c.want), err)
		}
		out := decodeCacheInfo(t, clitest.Invocation{Env: c.env}.Roster(t, "cache", "info", "--json"))
		if !out.Exists || out.Path != cache.Path(c.want) || out.Kinds["30617"] == 0 {
			t.Fatalf("with %v cache info %+v, want the read's events in %s", c.env, out, cache.Path(c.want))
		}
	}
}
