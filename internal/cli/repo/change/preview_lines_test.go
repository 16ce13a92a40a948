package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"
)

// pasteLine: a command to paste stays whole however wide it is.
func pasteLine(line string) bool {
	l := strings.TrimSpace(line)
	for _, p := range []string{"roster ", "git clone ", "cd "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// checkShortPreview is the rule for a write's human output on a terminal:
// at most max lines; no line wider than cols unless it is one token (an
// naddr, a URL) or a command to paste; the evidence in one line, and no
// empty "not checked" label.
func checkShortPreview(t *testing.T, what, out string, cols, max int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > max {
		t.Errorf("%s at %d columns: %d lines, want at most %d:\n%s", what, cols, len(lines), max, out)
	}
	evidence := 0
	for _, l := range lines {
		if n := len([]rune(l)); n > cols && len(strings.Fields(l)) > 1 && !pasteLine(l) {
			t.Errorf("%s: a %d-column line at %d columns: %q\n%s", what, n, cols, l, out)
		}
		if strings.HasPrefix(l, "checked: ") {
			evidence++
		}
		if strings.TrimSpace(l) == "not checked:" || strings.Contains(l, "not checked yet:") {
			t.Errorf("%s: an empty not-checked label:\n%s", what, out)
		}
		for _, jargon := range []string{"relays asked:", "role-scoped results", "deletion request(s)", "read_back="} {
			if strings.Contains(l, jargon) {
				t.Errorf("%s: %q without --verbose:\n%s", what, jargon, out)
			}
		}
	}
	if evidence != 1 {
		t.Errorf("%s: %d lines of evidence (checked: ...), want one:\n%s", what, evidence, out)
	}
}

// Rule (a write's preview says the consequence in people's words, one line
// of evidence and what was not checked only when something was not; every
// row wraps at $COLUMNS): each write kind, previewed and published, fits
// twelve lines at 80 columns for a one-person change; at 60 columns every
// row still fits (wrapping adds a few lines).
func TestWritePreviewIsShortAndFitsTheTerminal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cols     string
		width    int
		maxLines int
	}{{"80", 80, 12}, {"60", 60, 16}} {
		t.Run(tc.cols, func(t *testing.T) {
			t.Parallel()
			s := clitest.NewStateScene(t)
			c := tc.cols
			check := func(what, out string) {
				t.Helper()
				checkShortPreview(t, what, out, tc.width, tc.maxLines)
			}
			check("add --dry-run", s.OnTerminal(clitest.Alice, 1000, c, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run"))
			add := s.OnTerminal(clitest.Alice, 1010, c, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
			check("add", add)
			if words := strings.Join(strings.Fields(add), " "); !strings.Contains(words, "published: announcement ") || !strings.Contains(words, "nothing changed since the preview") {
				t.Errorf("add: want the published event labelled and the recheck said:\n%s", add)
			}
			check("accept --dry-run", s.OnTerminal(clitest.Bob, 1020, c, "repo", "accept", "--dry-run"))
			check("accept", s.OnTerminal(clitest.Bob, 1030, c, "repo", "accept"))
			s.W.Ok(clitest.Alice, clitest.Alice, 1040, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
			check("leave --dry-run", s.OnTerminal(clitest.Bob, 1050, c, "repo", "leave", "--dry-run"))
			check("metadata edit --dry-run", s.OnTerminal(clitest.Alice, 1060, c, "repo", "edit", "--description", "Makes widgets", "--dry-run"))
			check("metadata edit", s.OnTerminal(clitest.Alice, 1070, c, "repo", "edit", "--description", "Makes widgets"))

			s.Clone.Commit("more work")
			s.Clone.Git("push", "-q", s.CloneURL, "main")
			check("state publish --dry-run", s.OnTerminal(clitest.Alice, 1080, c, "repo", "state", "publish", "--dry-run"))
			pub := s.OnTerminal(clitest.Alice, 1090, c, "repo", "state", "publish")
			check("state publish", pub)
			if !strings.Contains(pub, "published: state ") {
				t.Errorf("state publish: want the published event labelled:\n%s", pub)
			}
		})
	}
}

// Rule (the full evidence is --verbose): a preview with --verbose names
// the relays asked, the state candidates and the role-scoped results, and
// what each relay said after publishing; without it none of that.
func TestWritePreviewVerboseGivesTheFullEvidence(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	short := s.OnTerminal(clitest.Alice, 1000, "80", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run")
	long := s.OnTerminal(clitest.Alice, 1000, "80", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run", "--verbose")
	for _, want := range []string{"evidence:", "relays asked: 1", "every state candidate", "role-scoped results", "your announcement:", `tag ["m",`, clitest.Bob.Pk} {
		if !strings.Contains(long, want) {
			t.Errorf("--verbose lacks %q:\n%s", want, long)
		}
		if strings.Contains(short, want) {
			t.Errorf("without --verbose: %q:\n%s", want, short)
		}
	}
	pub := s.OnTerminal(clitest.Alice, 1100, "80", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--verbose")
	if !strings.Contains(pub, "relay "+s.W.Relays[0].URL()+": ok=true read_back=true") {
		t.Errorf("--verbose lacks what the relay said:\n%s", pub)
	}
}
