package main

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// onTerminal runs args as p in the state scene on a terminal of cols
// columns and fails unless roster exits 0; it returns stdout.
func (s *stateScene) onTerminal(p person, now int64, cols string, args ...string) string {
	s.w.t.Helper()
	full := append([]string{"--repo", alice.naddr(s.w.id), "--timeout", "5s", "--home", s.w.home["ROSTER_HOME"]}, relayArgs(s.w.relays)...)
	env := withKey(s.w.home, p)
	env["COLUMNS"], env["NO_COLOR"] = cols, "1"
	r := invocation{Env: env, Dir: s.w.dir, Now: time.Unix(now, 0), OutTTY: true}.roster(s.w.t, append(full, args...)...)
	if r.Code != cmdutil.ExitOK {
		s.w.t.Fatalf("roster %v as %s: exit %d\n%s%s", args, p.name, r.Code, r.Out, r.Err)
	}
	return r.Out
}

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
			s := newStateScene(t)
			c := tc.cols
			check := func(what, out string) {
				t.Helper()
				checkShortPreview(t, what, out, tc.width, tc.maxLines)
			}
			check("add --dry-run", s.onTerminal(alice, 1000, c, "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run"))
			add := s.onTerminal(alice, 1010, c, "repo", "edit", "--add-maintainer", bob.npub())
			check("add", add)
			if words := strings.Join(strings.Fields(add), " "); !strings.Contains(words, "published: announcement ") || !strings.Contains(words, "nothing changed since the preview") {
				t.Errorf("add: want the published event labelled and the recheck said:\n%s", add)
			}
			check("accept --dry-run", s.onTerminal(bob, 1020, c, "repo", "accept", "--dry-run"))
			check("accept", s.onTerminal(bob, 1030, c, "repo", "accept"))
			s.w.ok(alice, alice, 1040, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
			check("leave --dry-run", s.onTerminal(bob, 1050, c, "repo", "leave", "--dry-run"))
			check("metadata edit --dry-run", s.onTerminal(alice, 1060, c, "repo", "edit", "--description", "Makes widgets", "--dry-run"))
			check("metadata edit", s.onTerminal(alice, 1070, c, "repo", "edit", "--description", "Makes widgets"))

			s.clone.commit("more work")
			s.clone.git("push", "-q", s.cloneURL, "main")
			check("state publish --dry-run", s.onTerminal(alice, 1080, c, "repo", "state", "publish", "--dry-run"))
			pub := s.onTerminal(alice, 1090, c, "repo", "state", "publish")
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
	s := newStateScene(t)
	short := s.onTerminal(alice, 1000, "80", "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run")
	long := s.onTerminal(alice, 1000, "80", "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run", "--verbose")
	for _, want := range []string{"evidence:", "relays asked: 1", "every state candidate", "role-scoped results", "your announcement:", `tag ["m",`, bob.pk} {
		if !strings.Contains(long, want) {
			t.Errorf("--verbose lacks %q:\n%s", want, long)
		}
		if strings.Contains(short, want) {
			t.Errorf("without --verbose: %q:\n%s", want, short)
		}
	}
	pub := s.onTerminal(alice, 1100, "80", "repo", "edit", "--add-maintainer", bob.npub(), "--verbose")
	if !strings.Contains(pub, "relay "+s.w.relays[0].URL()+": ok=true read_back=true") {
		t.Errorf("--verbose lacks what the relay said:\n%s", pub)
	}
}
