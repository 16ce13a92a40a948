// Telling "no relay has it" apart from "a relay did not answer" on the
// relay-authoritative reads (project show, group show, workspace).

package cmdutil

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
)

// RelayOutcome renders a relay's fetch status with its reason, never
// stuttering ("failed failed to ...").
func RelayOutcome(status, reason string) string { return pipeline.Outcome(status, reason) }

// RelayFailure is the one line every command prints for a relay that did
// not answer: "<url>: <outcome>", so a refused, closed or timed-out relay
// reads the same in repo, repo init, project, group and workspace errors.
// It is raw (the JSON message carries the relay's reason exactly); an error
// that lists such lines escapes each with termtext.Line in its Terminal
// form, since the reason is the relay's text and may hold line breaks.
func RelayFailure(url, status, reason string) string {
	return url + ": " + RelayOutcome(status, reason)
}

// RelayOutageErr is exit 4 "incomplete": what a read found nothing on is not
// "not found" while a relay asked did not answer, since that relay may hold
// it. what names the thing read ("project 30621:..."); failed lists each
// silent relay with its outcome; cmds retry it, keeping the user's --relay
// flags.
func RelayOutageErr(what string, answered int, failed []string, cmds []suggest.Command, details map[string]any) *ExitError {
	msg := "no relay answered, so nothing is known about %s:\n  %s"
	if answered > 0 {
		msg = "not every relay answered, so %s may exist on one that did not; nothing is known for sure:\n  %s"
	}
	return &ExitError{Code: ExitIncomplete, Kind: "incomplete",
		Err:      fmt.Errorf(msg, what, strings.Join(failed, "\n  ")),
		Terminal: fmt.Sprintf(msg, termtext.Line(what), strings.Join(termtext.Lines(failed), "\n  ")),
		Details:  details,
		Commands: cmds}
}

// ProjectRelayFailures lists the relays of a read that did not answer.
func ProjectRelayFailures(rd projects.ReadResult) (answered int, failed []string) {
	answered, silent := rd.Failures()
	for _, r := range silent {
		failed = append(failed, RelayFailure(r.URL, r.Status, r.Reason))
	}
	return answered, failed
}
