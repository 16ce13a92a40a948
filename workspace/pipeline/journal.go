// Keeping a workspace or project write's signed event in the journal of
// unfinished writes from before it is sent until the write is verified, and
// what resuming such a write shares.

package pipeline

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// Codes of the journal and of a resume.
const (
	// CodeJournal: the signed event could not be written to the journal
	// before sending (an unwritable data directory, a full journal);
	// nothing was published (exit 1).
	CodeJournal = track.CodeUnwritable
	// CodeJournalUnreadable: the journal could not be read before signing,
	// so roster cannot tell whether an earlier write of the coordinate is
	// unfinished; nothing was signed (exit 1).
	CodeJournalUnreadable = track.CodeUnreadable
	// CodeConcurrentChange: a resume's recheck found that the state the
	// write was built on changed since; nothing was sent (exit 3).
	CodeConcurrentChange = "concurrent-change"
	// CodePendingExpired: the event is older than the relays' acceptance
	// window; nothing was sent (exit 3).
	CodePendingExpired = "pending-expired"
)

// Kept is one signed event in the journal (journal/track's Write of one
// event; nil: no journal).
type Kept struct{ w *track.Write }

// Keep writes e (one event, its command, relays, fingerprint and
// verification) to j before the event is sent (track.Begin). A nil j
// keeps nothing. A journal that cannot take it stops the write before
// anything is sent.
func Keep(j *journal.Dir, e journal.Entry) (*Kept, error) {
	if j == nil {
		return nil, nil
	}
	w, err := track.Begin(j, []journal.Entry{e})
	if err != nil {
		return nil, &Error{Class: Failure, Code: CodeJournal, Err: err,
			Msg:  "cannot keep the signed event in the journal of unfinished writes before sending it, so nothing was published: " + err.Error(),
			Next: []suggest.Command{suggest.Roster("pending").Because("see the unfinished writes")}}
	}
	return &Kept{w: w}, nil
}

// ID is the write's id ("" for no journal).
func (k *Kept) ID() string {
	if k == nil {
		return ""
	}
	return k.w.ID
}

// Answered records rep in the journal when the relay accepted the event.
func (k *Kept) Answered(rep relaypool.PublishReport) {
	if k != nil && rep.OK {
		k.w.Acked(0, rep.URL)
	}
}

// End removes the entry once the write is verified (err nil) or when the
// relay cannot hold the event (it answered and refused it); otherwise the
// entry stays and err, a *Error, names it (details.journal) and offers
// `roster pending resume` and `discard`.
func (k *Kept) End(rep relaypool.PublishReport, err error) error {
	if k == nil || !k.w.End(err == nil, MayHold(rep)) {
		return err
	}
	if pe, ok := err.(*Error); ok {
		d := make(map[string]any, len(pe.Details)+1)
		for key, v := range pe.Details {
			d[key] = v
		}
		d["journal"] = k.w.ID
		pe.Details = d
		pe.Next = append(pe.Next, PendingCommands(k.w.ID)...)
	}
	return err
}

// Unfinished lists the journal's unfinished writes that touch the
// coordinate addr (track.Check): before a write signs, an error (a journal
// or entry that cannot be read) must stop it, as every pipeline's does.
func Unfinished(j *journal.Dir, addr string) ([]journal.Unfinished, error) {
	us, err := track.Check(j, nil, addr)
	if err == nil {
		return us, nil
	}
	e := &Error{Class: Failure, Code: CodeJournalUnreadable, Err: err, Msg: err.Error() + "; nothing was signed"}
	// `roster pending` lists the files that cannot be read; a journal
	// directory that cannot be read stops it the same way, so it is
	// offered only when the directory reads.
	var ue *journal.UnreadableError
	if !errors.As(err, &ue) || ue.Err == nil {
		e.Next = []suggest.Command{suggest.Roster("pending").Because("see the unfinished writes and the files that cannot be read")}
	}
	return us, e
}

// MayHold reports whether the relay may hold the event rep reports on: it
// accepted it, called it a duplicate, or was sent it and gave no answer (or
// its own "error:"/"timeout:", which may hide a commit).
func MayHold(rep relaypool.PublishReport) bool {
	if rep.OK {
		return true
	}
	prefix, _, _ := strings.Cut(rep.Message, ":")
	return rep.Sent && (!rep.Replied || prefix == "error" || prefix == "timeout") || rep.Replied && prefix == "duplicate"
}

// PendingCommands offer finishing or dropping an unfinished write.
func PendingCommands(write string) []suggest.Command {
	id := write
	if len(id) > 12 {
		id = id[:12]
	}
	return []suggest.Command{
		suggest.Roster("pending", "resume", id).Because("recheck and send the same signed event to the relay that lacks it"),
		suggest.Roster("pending", "discard", id).Because("forget the unfinished write (what relays hold stays there)"),
	}
}

// Held are the relays the write's entry recorded as accepting its event.
func Held(e journal.Entry) []string { return append([]string{}, e.Acked...) }

// heldWords says which relays hold the event, as a resume's refusal does.
func heldWords(evt *nostr.Event, holding []string) string {
	if len(holding) == 0 {
		return fmt.Sprintf("no relay is known to hold the event %s", evt.ID)
	}
	return fmt.Sprintf("the event %s is held by %s", evt.ID, strings.Join(holding, ", "))
}

// Changed refuses a resume whose recheck found the basis changed: nothing
// is sent; the message says what changed and who holds the event, and the
// commands rerun the intent (a fresh preview and a new event) or forget the
// write.
func Changed(e journal.Entry, holding []string, what string, show suggest.Command) *Error {
	return &Error{Class: Refused, Code: CodeConcurrentChange,
		Msg: fmt.Sprintf("%s since the unfinished write %s was signed, so roster sent nothing: resending it could apply it on a state it was not checked against. %s; rerun the command for a fresh preview",
			what, short(e.Write), heldWords(e.Event, holding)),
		Details: map[string]any{"write": e.Write, "holding": map[string][]string{e.Event.ID: nonNil(holding)}},
		Next:    resumeNext(e, show)}
}

// Expired refuses resending an event older than the acceptance window.
func Expired(e journal.Entry, holding []string, show suggest.Command) *Error {
	return &Error{Class: Refused, Code: CodePendingExpired,
		Msg: fmt.Sprintf("the event %s was signed at %s, more than %v ago, and relays refuse events that late; nothing was sent. %s; rerun the command for a fresh event",
			e.Event.ID, e.Event.CreatedAt.Time().UTC().Format("2006-01-02 15:04:05 UTC"), journal.AcceptanceWindow, heldWords(e.Event, holding)),
		Details: map[string]any{"write": e.Write, "holding": map[string][]string{e.Event.ID: nonNil(holding)}},
		Next:    resumeNext(e, show)}
}

// resumeNext: rerun the original command, look, or forget the write.
func resumeNext(e journal.Entry, show suggest.Command) []suggest.Command {
	var out []suggest.Command
	if len(e.Command) > 0 {
		out = append(out, suggest.Roster(e.Command...).Because("rerun the intent: a fresh preview and a new event"))
	}
	return append(out, show.Because("see what changed"),
		suggest.Roster("pending", "discard", short(e.Write)).Because("then forget the unfinished write"))
}

// Within reports whether evt may still be sent at now.
func Within(evt *nostr.Event, now time.Time) bool { return !journal.Expired(evt, now) }

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
