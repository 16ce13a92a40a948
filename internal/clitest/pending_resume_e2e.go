package clitest

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// PendingJSON is roster.pending/v1.
type PendingJSON struct {
	Schema string `json:"schema"`
	Writes []struct {
		ID      string   `json:"id"`
		Command []string `json:"command"`
		Events  []struct {
			ID      string   `json:"id"`
			Holding []string `json:"holding"`
			Lacking []string `json:"lacking"`
		} `json:"events"`
	} `json:"writes"`
	Checked bool `json:"checked"`
}

// AliceAnnouncementOf matches Alice's announcements of id.
func AliceAnnouncementOf(id string) func(*nostr.Event) bool {
	return func(e *nostr.Event) bool {
		return e.Kind == graph.KindAnnouncement && e.PubKey == Alice.Pk && e.Tags.GetD() == id
	}
}

// JournalFiles are the journal's entry files in home.
func JournalFiles(t *testing.T, home string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(home, "journal", "*.json"))
	return files
}

// ListPending runs `roster pending --json` in w's home.
func (w *MutWorld) ListPending(now int64) PendingJSON {
	w.T.Helper()
	r := w.PendingCmd(now, "pending", "--json")
	if r.Code != cmdutil.ExitOK {
		w.T.Fatalf("roster pending: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	var p PendingJSON
	if err := json.Unmarshal([]byte(r.Out), &p); err != nil || p.Schema != "roster.pending/v1" {
		w.T.Fatalf("roster pending: %v\n%s", err, r.Out)
	}
	return p
}

// PendingCmd runs a `roster pending` command as Alice in w's home.
func (w *MutWorld) PendingCmd(now int64, args ...string) Result {
	w.T.Helper()
	full := append([]string{"--home", w.Home["ROSTER_HOME"]}, args...)
	if !slices.Contains(args, "discard") {
		full = append([]string{"--timeout", "5s"}, full...)
	}
	return Invocation{Env: WithKey(w.Home, Alice), Dir: w.Dir, Now: time.Unix(now, 0)}.Roster(w.T, full...)
}

// Stores reports whether r stores the event id.
func Stores(r *devrelay.Relay, id string) bool {
	return len(r.Stored(nostr.Filter{IDs: []string{id}})) == 1
}
