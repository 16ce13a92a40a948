package clitest

import (
	"encoding/json"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// PendingResumeJSON is roster.pending-resume/v1.
type PendingResumeJSON struct {
	Schema   string                       `json:"schema"`
	Sent     map[string][]json.RawMessage `json:"sent"`
	Verified bool                         `json:"verified"`
}

// HasSection reports whether the relay's projection holds section id.
func (w *SwWorld) HasSection(id string) bool {
	for _, s := range w.Stored().Sections {
		if s.ID == id {
			return true
		}
	}
	return false
}

// AsIn runs roster as sk in home against the project world's relay.
func (w *PcWorld) AsIn(home, sk string, args ...string) Result {
	w.T.Helper()
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": home}
	return Invocation{Env: env, Seams: cmdutil.Seams{ProjectBeforeSign: w.BeforeSign}}.Roster(w.T, append(args, "--relay", w.Relay.URL(), "--timeout", "5s")...)
}
