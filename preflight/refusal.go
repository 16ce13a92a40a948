package preflight

import (
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// Refusal is a safety check's answer: nothing may be published. Code is a
// stable machine string, Message the spec's explanation in substance, Details
// the people, coordinates and refs for --json, Commands what to run next.
type Refusal struct {
	Code     string            `json:"code"`
	Message  string            `json:"message"`
	Details  map[string]any    `json:"details"`
	Commands []suggest.Command `json:"commands"`
	// Usage marks a refusal caused by contradictory flags (exit 2, not 3).
	Usage bool `json:"-"`
}

func (r *Refusal) Error() string { return r.Message }

func refuse(code string, lines ...string) *Refusal {
	return &Refusal{Code: code, Message: strings.Join(lines, "\n"), Details: map[string]any{}}
}

func (r *Refusal) with(key string, v any) *Refusal {
	r.Details[key] = v
	return r
}

func (r *Refusal) run(cmds ...suggest.Command) *Refusal {
	r.Commands = append(r.Commands, cmds...)
	return r
}

// npub and npubs are graph's npub encoding (graph.Npub, graph.Npubs) under
// the short names preflight's messages use.
var (
	npub  = graph.Npub
	npubs = graph.Npubs
)

// commandLines are the commands as people read them in a message.
func commandLines(cs []suggest.Command) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Line()
	}
	return out
}

func indent(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "  " + l
	}
	return out
}
