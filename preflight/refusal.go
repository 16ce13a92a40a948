package preflight

import (
	"strings"

	"github.com/nbd-wtf/go-nostr/nip19"
)

// Refusal is a safety check's answer: nothing may be published. Code is a
// stable machine string, Message the spec's explanation in substance, Details
// the people, coordinates and refs for --json, Commands what to run next.
type Refusal struct {
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Details  map[string]any `json:"details"`
	Commands []string       `json:"commands"`
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

func (r *Refusal) run(cmds ...string) *Refusal {
	r.Commands = append(r.Commands, cmds...)
	return r
}

// npub renders a 64-hex pubkey for people; anything else is shown as given.
func npub(hex string) string {
	if n, err := nip19.EncodePublicKey(hex); err == nil {
		return n
	}
	return hex
}

func npubs(hexes []string) []string {
	out := make([]string, len(hexes))
	for i, h := range hexes {
		out[i] = npub(h)
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
