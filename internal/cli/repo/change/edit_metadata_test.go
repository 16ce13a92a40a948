package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule: repo edit --name/--description/--web/--clone/--relays/--hashtag
// replaces those fields of the runner's own announcement, published,
// read back and verified like a membership change, and every other tag
// keeps its bytes and place (roles, the projection, unknown tags).
func TestRepoEditMetadataReplacesOnlyTheNamedFields(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	before := w.Latest(clitest.Alice)
	m := w.Ok(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--description", "Makes widgets", "--web", "https://w.example",
		"--hashtag", "go", "--hashtag", "nostr", "--relays", "wss://relay.example")
	if m["action"] != "edit-metadata" || m["verified"] != true {
		t.Fatalf("result %v", m)
	}
	// The fields were absent: each goes where ngit's order puts it, after
	// the name (w.latest leaves out d and name) and before the role tags,
	// which ngit keeps as unknown tags after its own.
	want := `[["description","Makes widgets"],["web","https://w.example"],["relays","wss://relay.example"],["t","go"],["t","nostr"],` +
		strings.TrimPrefix(before, "[")
	if got := w.Latest(clitest.Alice); got != want {
		t.Fatalf("published tags\n got: %s\nwant: %s", got, want)
	}

	// The membership is unchanged, and bob still reads alice as lead.
	r := w.Run(clitest.Bob, clitest.Alice, 3100, "repo", "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `"lead_maintainer": "`+clitest.Alice.Npub()+`"`) {
		t.Fatalf("repo after the edit: exit %d out %s", r.Code, r.Out)
	}

	// --dry-run previews and publishes nothing; the human preview names
	// each field with before and after.
	n := w.StoredCount()
	r = w.Run(clitest.Alice, clitest.Alice, 3200, "repo", "edit", "--name", "Widget", "--dry-run")
	if r.Code != cmdutil.ExitOK || w.StoredCount() != n || !strings.Contains(r.Out, "metadata of your announcement:") ||
		!strings.Contains(r.Out, `name        ["name", "Test my-repo"] -> ["name", "Widget"]`) {
		t.Fatalf("dry run: exit %d out %s err %s", r.Code, r.Out, r.Err)
	}

	// The current values are no change: nothing is published (exit 0, as
	// for a membership change that is already expressed).
	n = w.StoredCount()
	m = w.Ok(clitest.Alice, clitest.Alice, 3300, "repo", "edit", "--description", "Makes widgets")
	if len(m["published"].([]any)) != 0 || w.StoredCount() != n || !strings.Contains(strings.Join(clitest.ToStrings(m["guidance"]), " "), "nothing to change") {
		t.Fatalf("same value: %v", m)
	}

	// roster repo shows the shared fields of the confirmed component's
	// newest announcement (bob's edit, now) and the clone servers of
	// every confirmed maintainer, each their own.
	w.Ok(clitest.Alice, clitest.Alice, 3400, "repo", "edit", "--clone", "https://alice.example/x.git")
	w.Ok(clitest.Bob, clitest.Alice, 3401, "repo", "edit", "--description", "Bob's words", "--clone", "https://bob.example/x.git")
	r = w.Run(clitest.Alice, clitest.Alice, 3500, "repo")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "Bob's words") || strings.Contains(r.Out, "Makes widgets") ||
		!strings.Contains(r.Out, "https://alice.example/x.git") || !strings.Contains(r.Out, "https://bob.example/x.git") {
		t.Fatalf("repo: exit %d out %s", r.Code, r.Out)
	}
}

// Rule: metadata is changed alone: with a membership change, a governance
// choice or --force it is exit 2 and nothing is published; bad values
// (a relay that is not ws/wss, a hashtag with a space, an empty name) are
// exit 2; someone with no announcement of their own has nothing to edit.
func TestRepoEditMetadataIsNeverCombinedWithAMembershipChange(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	for _, args := range [][]string{
		{"--name", "X", "--add-maintainer", clitest.Carol.Npub()},
		{"--name", "X", "--add-moderator", clitest.Carol.Npub()},
		{"--description", "d", "--lead-maintainer", clitest.Alice.Npub()},
		{"--web", "https://x.example", "--fix-maintainers"},
		{"--hashtag", "go", "--no-lead-maintainer"},
		{"--relays", "ftp://x.example"},
		{"--hashtag", "two words"},
		{"--name", ""},
	} {
		m := w.Refused(clitest.Alice, clitest.Alice, 3000, cmdutil.ExitUsage, "usage", append([]string{"repo", "edit"}, args...)...)
		if args[0] == "--name" && len(args) > 2 && !strings.Contains(m["error"].(map[string]any)["message"].(string), "without a membership change") {
			t.Errorf("%v: %v", args, m)
		}
	}
	w.Refused(clitest.Carol, clitest.Alice, 3000, cmdutil.ExitRefused, "no-announcement", "repo", "edit", "--description", "mine")
}

// The metadata flags never complete file names; --relays completes the
// configured relays.
func TestRepoEditMetadataFlagsCompleteNoFileNames(t *testing.T) {
	t.Parallel()
	env := clitest.HomeEnv(t)
	env["ROSTER_RELAYS"] = "wss://a.example"
	for _, flag := range []string{"--name", "--description", "--web", "--clone", "--hashtag"} {
		if got, d := clitest.Completions(t, clitest.Invocation{Env: env}, "repo", "edit", flag, ""); len(got) != 0 || d != clitest.NoFileComp {
			t.Errorf("%s: %v %s", flag, got, d)
		}
	}
	if got, d := clitest.Completions(t, clitest.Invocation{Env: env}, "repo", "edit", "--relays", ""); strings.Join(got, ",") != "wss://a.example" || d != clitest.NoFileComp {
		t.Errorf("--relays: %v %s", got, d)
	}
}

// `repo edit` with nothing to change names every kind of change it takes,
// the metadata flags included.
func TestRepoEditWithoutAChangeNamesTheMetadataFlags(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "edit", "--repo", clitest.Alice.Naddr("proj"), "--relay", "ws://127.0.0.1:1")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--add-maintainer") || !strings.Contains(r.Err, "--name, --description, --web, --clone, --relays, --hashtag") {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
}
