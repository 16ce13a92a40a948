package preflight

import (
	"github.com/roster-cli/roster/failure"
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
	// Text is Message as parts: the people it names are values
	// (suggest.Who), which the human renderer names. It is used only while
	// it says exactly Message (MessageText).
	Text suggest.Block `json:"-"`
}

func (r *Refusal) Error() string { return r.Message }

// Class is how the refusal ends the command, as every pipeline failure's
// class does: usage for contradictory flags, refused otherwise.
func (r *Refusal) Class() failure.Class {
	if r.Usage {
		return failure.Usage
	}
	return failure.Refused
}

// MessageText is the message as parts: Text when it still says Message,
// else Message as plain text.
func (r *Refusal) MessageText() suggest.Block {
	if r.Text != nil && r.Text.String() == r.Message {
		return r.Text
	}
	return suggest.Text(r.Message)
}

// refuse is a refusal whose message is lines, each a string or a
// suggest.Block (say), joined by newlines.
func refuse(code string, lines ...any) *Refusal {
	r := &Refusal{Code: code, Details: map[string]any{}}
	r.Text = lineBlock(lines...)
	r.Message = r.Text.String()
	return r
}

// lineBlock joins lines (strings or blocks) with newlines.
func lineBlock(lines ...any) suggest.Block {
	bs := make([]suggest.Block, 0, len(lines))
	for _, l := range lines {
		switch v := l.(type) {
		case suggest.Block:
			bs = append(bs, v)
		case string:
			bs = append(bs, suggest.Block{suggest.Say(v)})
		default:
			panic("preflight: a message line is a string or a suggest.Block")
		}
	}
	return suggest.Join(bs, "\n")
}

// addLines appends lines (strings or blocks) to the refusal's message.
func (r *Refusal) addLines(lines ...any) *Refusal {
	if r.Message == "" {
		r.Text = lineBlock(lines...)
	} else {
		r.Text = suggest.Join([]suggest.Block{r.MessageText(), lineBlock(lines...)}, "\n")
	}
	r.Message = r.Text.String()
	return r
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
	say   = suggest.Sayf
)

// who is the person pubkey (64-hex), as a value a message names them by.
func who(pubkey string) suggest.Person { return suggest.Person(graph.Npub(pubkey)) }

// people are the persons pubkeys, sep between them.
func people(pubkeys []string, sep string) suggest.Block {
	return suggest.People(graph.Npubs(pubkeys), sep)
}

// commandLines are the commands as people read them in a message: each a
// command part, so its "# run by" names the person.
func commandLines(cs []suggest.Command) []any {
	out := make([]any, len(cs))
	for i, c := range cs {
		c.Comment, c.RunBy = "", nil
		out[i] = suggest.Block{suggest.Run(c.Pin())}
	}
	return out
}

// indent indents each line (a string or a suggest.Block) by two spaces.
func indent[L any](lines []L) []any {
	out := make([]any, len(lines))
	for i, l := range lines {
		switch v := any(l).(type) {
		case suggest.Block:
			out[i] = append(suggest.Block{suggest.Say("  ")}, v...)
		default:
			out[i] = "  " + v.(string)
		}
	}
	return out
}

// indentPeople are the persons pubkeys, one line each, indented.
func indentPeople(pubkeys []string) []any {
	out := make([]any, len(pubkeys))
	for i, pk := range pubkeys {
		out[i] = suggest.Block{suggest.Say("  "), suggest.Who(npub(pk))}
	}
	return out
}

// cmdLine is a command as one indented message line.
func cmdLine(c suggest.Command) suggest.Block {
	return suggest.Block{suggest.Say("  "), suggest.Run(c.Pin())}
}
