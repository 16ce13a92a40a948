package gitstate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// Fixed test identities: pubkeys derived from small secret keys.
var (
	alicePK = mustPub("0000000000000000000000000000000000000000000000000000000000000001")
	bobPK   = mustPub("0000000000000000000000000000000000000000000000000000000000000002")
	carolPK = mustPub("0000000000000000000000000000000000000000000000000000000000000003")
)

func mustPub(sk string) string {
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		panic(err)
	}
	return pk
}

func coord(pk, id string) graph.Coordinate { return graph.NewCoordinate(pk, id) }

// testRepo is a real Git repository in a temporary directory, driven by the
// git binary with global and system config shut out.
type testRepo struct {
	t   testing.TB
	dir string
}

func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests need the git binary: %v", err)
	}
	r := &testRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func (r *testRepo) write(name, content string) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, name), []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *testRepo) open() *Checkout {
	r.t.Helper()
	c, err := Open(r.dir)
	if err != nil {
		r.t.Fatalf("Open(%s): %v", r.dir, err)
	}
	return c
}

func (r *testRepo) resolve(flag string) (Selection, error) {
	r.t.Helper()
	return r.open().ResolveCoordinate(flag)
}

func npub(pk string) string { return graph.Npub(pk) }

func nurl(pk, id string, relays ...string) string {
	return NostrURL(coord(pk, id), relays)
}
