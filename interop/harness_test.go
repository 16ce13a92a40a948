package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// rosterBin is the roster binary built once for the whole package: the
// suite runs the command as users do, as a separate process.
var rosterBin string

// setupHelp is what to do when the JavaScript side cannot run.
const setupHelp = "run `npm ci` in interop/ (needs node >= 18 and npm; `make test` does it when interop/node_modules is missing); see docs/interop.md"

func TestMain(m *testing.M) {
	if err := checkNode(); err != nil {
		fmt.Fprintf(os.Stderr, "FAIL interop: %v\n%s\n", err, setupHelp)
		os.Exit(1)
	}
	tmp, err := os.MkdirTemp("", "roster-interop-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rosterBin = filepath.Join(tmp, "roster")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		gobin = p
	}
	build := exec.Command(gobin, "build", "-o", rosterBin, "../cmd/roster")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "FAIL interop: go build ./cmd/roster: %v\n", err)
		os.RemoveAll(tmp)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// checkNode fails unless node runs and every package the suite imports
// loads, including better-sqlite3's native binding.
func checkNode() error {
	if _, err := exec.LookPath("node"); err != nil {
		return errors.New("node is not on PATH")
	}
	probe := `await import('nostr-tools/pure'); await import('nostr-tools/relay'); await import('ws');
await import('@nostr-relay/core'); await import('@nostr-relay/validator');
const { EventRepositorySqlite } = await import('@nostr-relay/event-repository-sqlite');
const r = new EventRepositorySqlite(':memory:'); await r.init(); await r.destroy();`
	cmd := exec.Command("node", "--input-type=module", "-e", probe)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("interop/node_modules is missing or incomplete (%v):\n%s", err, strings.TrimSpace(lastLines(out.String(), 6)))
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// node runs `node tools.mjs op` with req as JSON on stdin and decodes the
// answer into resp; it fails the test when the operation fails.
func node(t testing.TB, op string, req, resp any) {
	t.Helper()
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "tools.mjs", op)
	cmd.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run()
	var failed struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(out.Bytes(), &failed)
	if runErr != nil || failed.Error != "" {
		t.Fatalf("node tools.mjs %s: %v %s\nstderr: %s", op, runErr, failed.Error, errb.String())
	}
	if resp != nil {
		if err := json.Unmarshal(out.Bytes(), resp); err != nil {
			t.Fatalf("node tools.mjs %s: answer is not JSON: %v\n%s", op, err, out.String())
		}
	}
}

// independentRelay starts `node relay.mjs` (@nostr-relay/core with its
// SQLite repository) on a free loopback port and returns its URL once it
// prints it. The relay stops when the test ends.
func independentRelay(t testing.TB) string {
	t.Helper()
	cmd := exec.Command("node", "relay.mjs", "0", filepath.Join(t.TempDir(), "events.sqlite"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb syncBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		stdin.Close() // relay.mjs exits when its stdin closes
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			urlc <- strings.TrimSpace(sc.Text())
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case u := <-urlc:
		if !strings.HasPrefix(u, "ws://127.0.0.1:") {
			t.Fatalf("relay.mjs printed %q, not its URL\nstderr: %s", u, errb.String())
		}
		return u
	case err := <-done:
		t.Fatalf("relay.mjs exited before listening: %v\nstderr: %s", err, errb.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("relay.mjs printed no URL within 60 s\nstderr: %s", errb.String())
	}
	return ""
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// setup is one arrangement of relays the read and write scenarios run on.
type setup struct {
	name   string
	relays func(t *testing.T) []string
	// cachesFilters: every relay may answer a REQ from a result cache,
	// up to a second old (@nostr-relay/core's filterResultCacheTtl).
	cachesFilters bool
}

var setups = []setup{
	{"devrelay", func(t *testing.T) []string { return []string{devrelay.StartN(t, 1, devrelay.Options{})[0].URL()} }, false},
	{"nostr-relay", func(t *testing.T) []string { return []string{independentRelay(t)} }, true},
	{"mixed", func(t *testing.T) []string {
		return []string{devrelay.StartN(t, 1, devrelay.Options{})[0].URL(), independentRelay(t)}
	}, false},
}

// person is a test identity with a fixed key.
type person struct {
	name   string
	sk, pk string
}

func newPerson(name string, b byte) person {
	sk := strings.Repeat(fmt.Sprintf("%02x", b), 32)
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		panic(err)
	}
	return person{name: name, sk: sk, pk: pk}
}

var (
	alice = newPerson("alice", 0x41)
	bob   = newPerson("bob", 0x42)
	carol = newPerson("carol", 0x43)
	dave  = newPerson("dave", 0x44)
)

var everyone = []person{alice, bob, carol, dave}

func (p person) npub() string {
	n, err := nip19.EncodePublicKey(p.pk)
	if err != nil {
		panic(err)
	}
	return n
}

func (p person) naddr(id string) string {
	return gitstate.EncodeNaddr(graph.NewCoordinate(p.pk, id), nil)
}

// result is one run of the roster binary.
type result struct {
	Args     []string
	Out, Err string
	Code     int
}

// run is one invocation of the built roster binary: the whole environment
// is given (nothing leaks in from the test process but PATH), and no OS
// keyring is reachable, so a login falls back to the ncryptsec file.
type run struct {
	Home  string // ROSTER_HOME
	Key   string // ROSTER_SECRET_KEY; "" = the logged-in account
	Dir   string // working directory
	Stdin string
}

func (r run) roster(t testing.TB, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, rosterBin, args...)
	cmd.Dir = r.Dir
	if cmd.Dir == "" {
		cmd.Dir = t.TempDir()
	}
	home := t.TempDir()
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home, // no user git config
		"GIT_CONFIG_NOSYSTEM=1",
		"ROSTER_HOME=" + r.Home,
		// No Secret Service: login stores an ncryptsec file.
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(home, "no-such-bus"),
	}
	if r.Key != "" {
		cmd.Env = append(cmd.Env, "ROSTER_SECRET_KEY="+r.Key)
	}
	cmd.Stdin = strings.NewReader(r.Stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("roster %v: %v", args, err)
	}
	return result{Args: args, Out: out.String(), Err: errb.String(), Code: code}
}

// ok runs roster and fails the test unless it exits 0; with --json among
// args it decodes stdout.
func (r run) ok(t testing.TB, args ...string) (result, map[string]any) {
	t.Helper()
	res := r.roster(t, args...)
	if res.Code != 0 {
		t.Fatalf("roster %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), res.Code, res.Out, res.Err)
	}
	var m map[string]any
	for _, a := range args {
		if a == "--json" {
			if err := json.Unmarshal([]byte(res.Out), &m); err != nil {
				t.Fatalf("roster %s: stdout is not JSON: %v\n%s", strings.Join(args, " "), err, res.Out)
			}
		}
	}
	return res, m
}

func relayFlags(urls []string) []string {
	var out []string
	for _, u := range urls {
		out = append(out, "--relay", u)
	}
	return out
}

// gitCheckout is a fresh repository with one commit, made with git.
func gitCheckout(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "my-repo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=Interop", "-c", "user.email=interop@example.invalid", "commit", "-q", "--allow-empty", "-m", "first"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// statuses maps a person's name to their status in a roster.repo/v2
// maintainers (or moderators) array.
func statuses(t testing.TB, v any) map[string]string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("not an array: %#v", v)
	}
	out := map[string]string{}
	for _, x := range list {
		m := x.(map[string]any)
		name := m["npub"].(string)
		for _, p := range everyone {
			if p.npub() == name {
				name = p.name
			}
		}
		out[name] = m["status"].(string)
	}
	return out
}

// nameOf is the person whose npub s is, or s.
func nameOf(s any) string {
	for _, p := range everyone {
		if p.npub() == s {
			return p.name
		}
	}
	return fmt.Sprint(s)
}

// event is an event as nostr-tools hands it over.
type event struct {
	ID        string     `json:"id"`
	PubKey    string     `json:"pubkey"`
	CreatedAt int64      `json:"created_at"`
	Kind      int        `json:"kind"`
	Tags      [][]string `json:"tags"`
	Content   string     `json:"content"`
	Sig       string     `json:"sig"`
}

func (e event) nostr() *nostr.Event {
	tags := make(nostr.Tags, len(e.Tags))
	for i, t := range e.Tags {
		tags[i] = nostr.Tag(t)
	}
	return &nostr.Event{ID: e.ID, PubKey: e.PubKey, CreatedAt: nostr.Timestamp(e.CreatedAt), Kind: e.Kind, Tags: tags, Content: e.Content, Sig: e.Sig}
}

// check is nostr-tools' verdict on one event (tools.mjs check()).
type check struct {
	ID       string   `json:"id"`
	Kind     int      `json:"kind"`
	PubKey   string   `json:"pubkey"`
	Problems []string `json:"problems"`
	Relays   []string `json:"relays"`
}

type fetched struct {
	Events []event `json:"events"`
	Checks []check `json:"checks"`
}

// fetchChecked fetches with nostr-tools from every relay and fails the
// test for every event nostr-tools or the tag grammar rejects.
func fetchChecked(t testing.TB, relays []string, authSK string, filters ...nostr.Filter) fetched {
	t.Helper()
	var f fetched
	node(t, "fetch", map[string]any{"relays": relays, "filters": filters, "auth_sk": authSK}, &f)
	for _, c := range f.Checks {
		for _, p := range c.Problems {
			t.Errorf("kind %d %s by %s: %s", c.Kind, c.ID, nameOf(npubOf(c.PubKey)), p)
		}
	}
	return f
}

func npubOf(pk string) string {
	n, _ := nip19.EncodePublicKey(pk)
	return n
}
