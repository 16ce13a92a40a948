package repo_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
)

// sampleReport is a lead-shaped repository selected through a co-maintainer,
// with an invitation, a moderator, a pending acknowledgement and a failed relay.
func sampleReport() *report.Repo {
	lead := "npub1bob"
	rec := "nostr://npub1bob/my-repo"
	follow := "roster repo follow-lead"
	cmd := "roster repo edit --fix-maintainers"
	author := "npub1alice"
	return &report.Repo{
		Schema:             report.RepoSchema,
		Coordinate:         report.Coordinate{Kind: 30617, Pubkey: "aa", Npub: "npub1alice", Identifier: "my-repo", Naddr: "naddr1x"},
		SelectedMaintainer: "npub1alice",
		People: report.People{
			LeadMaintainer: &lead,
			LeadSource:     "explicit",
			LeadPath:       []string{"npub1alice", "npub1bob"},
			Maintainers: []report.Member{
				{Npub: "npub1bob", Pubkey: "bb", Status: "confirmed"},
				{Npub: "npub1alice", Pubkey: "aa", Status: "confirmed"},
				{Npub: "npub1carol", Pubkey: "cc", Status: "invited"},
			},
			Moderators: []report.Member{{Npub: "npub1dave", Pubkey: "dd", Status: "confirmed"}},
		},
		PendingHistoryAcknowledgements: []report.PendingAck{{Npub: "npub1erin", Transition: "start", Time: 1700000000, Command: "roster repo edit --acknowledge-maintainer-change npub1erin", Author: "npub1bob"}},
		Health:                         []report.Finding{{Severity: "error", Code: "maintainers-projection-mismatch", Author: &author, Message: "inconsistent maintainers tag", Command: &cmd}},
		RecommendedCoordinate:          &rec,
		FollowLeadCommand:              &follow,
		Lifecycle:                      report.Lifecycle{Status: "active"},
		State:                          &report.State{EventID: "ee", Author: "npub1bob", Head: "refs/heads/main", Refs: map[string]string{"refs/heads/main": "0123"}},
		Relays: []report.Relay{
			{URL: "ws://one", Status: "ok", Events: 4},
			{URL: "ws://two", Status: "failed", Events: 0, Reason: "connection refused"},
		},
		Complete: false,
		Meta:     report.Metadata{Name: "My Project", Description: "What it does", Clone: []string{"https://git.example/my-repo.git"}},
	}
}

// docs/json.md: the keys, in this order, are the roster.repo/v2 contract.
func TestRepoJSONKeysFollowDesignOrder(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := cmdutil.EncodeJSON(&buf, sampleReport()); err != nil {
		t.Fatal(err)
	}
	want := []string{"schema", "coordinate", "selected_maintainer", "lead_maintainer", "lead_source", "lead_path",
		"maintainers", "moderators", "pending_history_acknowledgements", "health", "recommended_coordinate",
		"follow_lead_command", "lifecycle", "state", "relays", "complete"}
	got := topLevelKeys(t, buf.Bytes())
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("keys\n got %v\nwant %v", got, want)
	}
	if !strings.Contains(buf.String(), `"kind": 30617,
    "pubkey": "aa",
    "npub": "npub1alice",
    "identifier": "my-repo",
    "naddr": "naddr1x"`) {
		t.Fatalf("coordinate keys out of order:\n%s", buf.String())
	}
}

// docs/json.md shows null for an absent lead, recommended coordinate and
// follow-lead command; lists are [] rather than null.
func TestRepoJSONNullsAndEmptyArrays(t *testing.T) {
	t.Parallel()
	rep := &report.Repo{Schema: report.RepoSchema,
		People:                         report.People{LeadSource: "none", LeadPath: []string{}, Maintainers: []report.Member{}, Moderators: []report.Member{}},
		PendingHistoryAcknowledgements: []report.PendingAck{}, Health: []report.Finding{},
		Relays: []report.Relay{}, Lifecycle: report.Lifecycle{Status: "active"}}
	var buf bytes.Buffer
	if err := cmdutil.EncodeJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"lead_maintainer", "recommended_coordinate", "follow_lead_command", "state"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, ok)
		}
	}
	for _, k := range []string{"lead_path", "maintainers", "moderators", "pending_history_acknowledgements", "health", "relays"} {
		if _, ok := m[k].([]any); !ok {
			t.Errorf("%s = %#v, want []", k, m[k])
		}
	}
}

// The spec's messages contain "<" and ">"; encoding/json would escape them.
func TestRepoJSONDoesNotEscapeAngleBrackets(t *testing.T) {
	t.Parallel()
	rep := sampleReport()
	rep.Health[0].Message = "missing active roles: <bob>"
	var buf bytes.Buffer
	if err := cmdutil.EncodeJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "<bob>") {
		t.Fatalf("angle brackets escaped: %s", buf.String())
	}
}

// maintainers.md "Inspecting a repository": output answers four questions
// before exposing wire details.
func TestHumanOutputAnswersFourQuestionsFirst(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	repo.RenderRepoHuman(&buf, sampleReport(), termui.Styles{})
	out := buf.String()
	order := []string{
		"selected         my-repo by npub1alice", // 1. selected coordinate
		"lead             npub1bob  (explicit)",  // 2. lead and source
		"npub1carol  invited",                    // 3. confirmed, invited
		"moderators       npub1dave  confirmed",  //    moderators
		"npub1bob records it with: roster repo edit --acknowledge-maintainer-change npub1erin", // 4. pending acknowledgements
		"the lead coordinate is nostr://npub1bob/my-repo",                                      //    coordinate to follow
		"name             My Project",                                                          // then metadata
		"state            HEAD refs/heads/main, 1 refs, by npub1bob",                           // and state
	}
	last := -1
	for _, s := range order {
		i := strings.Index(out, s)
		if i < 0 {
			t.Fatalf("output lacks %q:\n%s", s, out)
		}
		if i < last {
			t.Fatalf("%q appears out of order:\n%s", s, out)
		}
		last = i
	}
}

// docs/exit-codes.md: a partial read says it is partial and names the relays
// that failed.
func TestHumanOutputNamesFailedRelays(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	repo.RenderRepoHuman(&buf, sampleReport(), termui.Styles{})
	out := buf.String()
	if !strings.Contains(out, "ws://two  failed, 0 event(s): connection refused") ||
		!strings.Contains(out, "no: partial answer, ws://two did not answer") {
		t.Fatalf("failed relay not named:\n%s", out)
	}
}

// Rule (human output): styled with ANSI colours, plain when not a TTY or with NO_COLOR.
func TestHumanOutputPlainWithoutColorStyledWithColor(t *testing.T) {
	t.Parallel()
	var plain, styled bytes.Buffer
	repo.RenderRepoHuman(&plain, sampleReport(), termui.NewStyles(&plain, false))
	repo.RenderRepoHuman(&styled, sampleReport(), termui.NewStyles(&styled, true))
	if strings.Contains(plain.String(), "\x1b[") {
		t.Fatalf("plain output has ANSI escapes:\n%q", plain.String())
	}
	if !strings.Contains(styled.String(), "\x1b[") {
		t.Fatalf("styled output has no ANSI escapes:\n%q", styled.String())
	}
}

func TestColorOnlyOnTTYWithoutNoColor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tty     bool
		noColor string
		want    bool
	}{{true, "", true}, {false, "", false}, {true, "1", false}}
	for _, c := range cases {
		s := &cmdutil.IoStreams{OutTTY: c.tty, Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return c.noColor
			}
			return ""
		}}
		if got := s.Color(); got != c.want {
			t.Errorf("tty=%v NO_COLOR=%q: color()=%v, want %v", c.tty, c.noColor, got, c.want)
		}
	}
}

// topLevelKeys returns an object's keys in the order they appear.
func topLevelKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %v %v", tok, err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// maintainers.md "Lead resolution has seven results": each has its own words
// in the human output, saying explicit, inferred or unresolved.
func TestLeadSourceTextCoversAllSevenResults(t *testing.T) {
	t.Parallel()
	want := map[graph.LeadSource]string{
		graph.LeadImplicitSole:   "implicit",
		graph.LeadExplicit:       "explicit",
		graph.LeadLegacyInferred: "legacy-inferred",
		graph.LeadExplicitNone:   "deliberately leadless",
		graph.LeadNone:           "unresolved",
		graph.LeadPending:        "unresolved",
		graph.LeadConflict:       "unresolved",
	}
	for src, word := range want {
		got := repo.LeadSourceText(string(src))
		if got == string(src) && src != graph.LeadExplicit || !strings.Contains(got, word) {
			t.Errorf("%s -> %q, want words containing %q", src, got, word)
		}
	}
}
