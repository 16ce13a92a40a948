package cmdutil

import (
	"fmt"

	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// Exit codes, as docs/exit-codes.md documents them.
const (
	ExitOK         = 0
	ExitFailure    = 1 // unexpected failure
	ExitUsage      = 2 // bad flag, argument, npub or coordinate; no signer
	ExitRefused    = 3 // refused by a safety check; nothing was published
	ExitIncomplete = 4 // not enough evidence; nothing was published
	ExitUnhealthy  = 5 // repo health found errors; repo check-event: not authorized
	ExitUnverified = 6 // published, but read-back did not complete
)

// ExitError carries an exit code and, for --json, a machine-readable body.
type ExitError struct {
	Code int
	// Kind is the stable machine code of the error ("usage", "no-signer", ...).
	Kind string
	Err  error
	// Commands are what the user can run next, rendered with the user's
	// selectors when printed.
	Commands []suggest.Command
	// Details are structured facts for --json (people, coordinates, refs).
	Details map[string]any
	// Printed is true when the command already rendered this error itself.
	Printed bool
	// Terminal, when set, is Err's message as a terminal shows it: the same
	// text with every relay-, event- or bunker-supplied part escaped to one
	// line (termtext.Line), so that its only line breaks are roster's own.
	// JSON always carries Err's message raw. Set it together with Err, never
	// after Err changes. See humanMessage.
	Terminal string
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

func UsageErr(format string, a ...any) *ExitError {
	return &ExitError{Code: ExitUsage, Kind: "usage", Err: fmt.Errorf(format, a...)}
}

// OneLine marks e's message as one line by construction, as roster writes
// it: a line break in it can only have come from the relay, event or bunker
// text it quotes, so the terminal gets the whole message escaped to one line.
func (e *ExitError) OneLine() *ExitError {
	if e.Err == nil {
		return e
	}
	e.Terminal = termtext.Line(e.Err.Error())
	return e
}

// HumanMessage is e's message for stderr. JSON carries the message raw
// (encoding/json escapes control characters), but a terminal acts on them,
// and a relay's reason quoted in a message could otherwise forge a line of
// roster's output ("lead npub1... (explicit)"). Messages are strings built
// once for both outputs, so the terminal form is chosen here:
//   - Terminal when the builder set it: a message that spans lines and
//     quotes remote text (a list of relays that did not answer, each with
//     its reason) builds it with each quoted part escaped to one line, and
//     a one-line message sets it with oneLine;
//   - otherwise the message through termtext.Block, which keeps roster's
//     line breaks and tabs (refusals, ambiguity lists) and escapes every
//     other control character (CR, ESC sequences), bidi control and invalid
//     byte, whoever wrote them.
//
// Block runs over Terminal too, so no message reaches the terminal without
// that floor.
func HumanMessage(e *ExitError) string {
	if e.Terminal != "" {
		return termtext.Block(e.Terminal)
	}
	return termtext.Block(e.Err.Error())
}
