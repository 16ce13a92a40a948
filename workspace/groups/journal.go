package groups

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// PipelineGroups is the journal pipeline of every NIP-29 event roster signs:
// the moderation events 9000-9009, the join and leave requests 9021/9022
// and the kind 10009 groups list a --save publishes.
const PipelineGroups = "nip-29"

// CodeJournal: the signed events could not be kept in the journal of
// unfinished writes before sending; nothing was sent.
const CodeJournal = "journal-unwritable"

// Address is the journal address of group id on relay: every write to the
// group names it, so the next command on the group is told of an
// unfinished one.
func Address(relay, id string) string { return "nip-29:" + nostr.NormalizeURL(relay) + "'" + id }

// ListAddress is the journal address of pubkey's kind 10009 groups list.
func ListAddress(pubkey string) string { return fmt.Sprintf("%d:%s:", KindGroupsList, pubkey) }

// Unfinished are the journal's writes about group id on any of relays
// (its moderation events, requests and the groups lists saved for it),
// with the relays the journal recorded as holding their events.
func Unfinished(j *journal.Dir, relays []string, id string) []journal.Unfinished {
	if j == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []journal.Unfinished
	for _, r := range relays {
		writes, err := j.Touching(Address(r, id), Address(r, id))
		if err != nil {
			return out
		}
		for _, w := range writes {
			if !seen[w.ID] {
				seen[w.ID] = true
				out = append(out, journal.Unfinished{Write: w, Holding: w.Holding(nil)})
			}
		}
	}
	return out
}

// fingerprint is what a write relied on, as the journal keeps it: the
// relay-signed state of the group (and of the parent), the event to
// delete, and the group's moderation events and requests the relay served
// (with the oldest one's created_at when the read was cut at maxRecent).
func fingerprint(h hostRead) map[string]string {
	fp := map[string]string{}
	if h.Group != nil {
		for _, s := range h.Group.Sources {
			fp["state:"+strconv.Itoa(s.Kind)] = s.EventID
		}
	}
	if h.Parent != nil {
		for _, s := range h.Parent.Sources {
			fp["parent:"+strconv.Itoa(s.Kind)] = s.EventID
		}
	}
	if h.Event != nil {
		fp["event:"+h.Event.ID] = h.Event.ID
	}
	var oldest nostr.Timestamp
	for i, e := range h.Mods {
		fp["mod:"+e.ID] = e.ID
		if i == 0 || e.CreatedAt < oldest {
			oldest = e.CreatedAt
		}
	}
	if len(h.Mods) >= maxRecent {
		fp["mod-since"] = strconv.FormatInt(int64(oldest), 10)
	}
	return fp
}

// entries are the journal entries of a write's signed events.
func entries(in ModerationInput, host hostRead, what string, events ...*nostr.Event) []journal.Entry {
	fp := fingerprint(host)
	var out []journal.Entry
	for _, e := range events {
		out = append(out, journal.Entry{Pipeline: PipelineGroups, Command: in.Command, Repo: Address(host.URL, in.ID), Address: Address(host.URL, in.ID),
			Relays: []string{host.URL}, Preview: fp, Verify: journal.Verification{What: what}, Event: e})
	}
	return out
}

// begin writes the entries to the journal before the first event is sent;
// a journal that cannot take them stops the write (nothing sent).
func begin(j *journal.Dir, es []journal.Entry, rerun suggest.Command) (string, error) {
	if j == nil || len(es) == 0 {
		return "", nil
	}
	if err := j.Begin(es); err != nil {
		return "", &pipeline.Error{Class: pipeline.Failure, Code: CodeJournal, Err: err,
			Next: []suggest.Command{suggest.Roster("pending").Because("see the unfinished writes"), rerun.Because("run it again once the journal can be written")},
			Msg:  "cannot keep the signed events in the journal of unfinished writes before sending them, so nothing was sent: " + err.Error()}
	}
	return es[0].Event.ID, nil
}

// beginModeration journals a moderation command's signed steps.
func beginModeration(in ModerationInput, host hostRead, steps []Step) (string, error) {
	var evs []*nostr.Event
	for _, s := range steps {
		evs = append(evs, s.Event)
	}
	return begin(in.Journal, entries(in, host, awaits(in.Action), evs...), suggest.Roster(in.Command...))
}

// awaits is the verification a moderation command's journal entry awaits.
func awaits(a Action) string {
	switch a {
	case ActCreate:
		return "the relay signs the new group's metadata (kind 39000) with every field asked"
	case ActEdit:
		return "the relay-signed metadata (kind 39000) has every field of the edit-metadata"
	case ActPutUser:
		return "the latest put-user or remove-user naming the person is the put-user"
	case ActRemoveUser:
		return "the latest put-user or remove-user naming the person is the remove-user"
	case ActInvite:
		return "the relay accepts the create-invite (NIP-29 keeps no signed record of codes)"
	case ActDeleteEvent:
		return "the relay no longer serves the deleted event"
	case ActDeleteGroup:
		return "the relay's metadata (kind 39000) no longer shows the group live"
	case actJoin:
		return "the relay's record makes you a member, or holds your join request for an admin"
	case actLeave:
		return "the relay's record no longer makes you a member"
	}
	return "the relay accepts every event"
}

// endModeration removes the write's entries once verified, or when no
// relay can hold its events or what is left was refused for good;
// otherwise the failure names the unfinished write and how to finish it.
func endModeration(j *journal.Dir, res *ModerationResult, err error) error {
	if j == nil || res.Journal == "" {
		return err
	}
	stored, refused := false, false
	for _, s := range res.Steps {
		stored = stored || s.Accepted || s.Unconfirmed
		refused = refused || s.Sent && !s.Accepted && !s.Retry
	}
	if err == nil || !stored || refused {
		_ = j.Finish(res.Journal)
		res.Journal = ""
		return err
	}
	return withPending(err, res.Journal)
}

// withPending adds an unfinished write's id and its resume and discard to a
// pipeline error.
func withPending(err error, write string) error {
	pe, ok := err.(*pipeline.Error)
	if !ok {
		return err
	}
	if pe.Details == nil {
		pe.Details = map[string]any{}
	}
	pe.Details["journal"] = write
	next := PendingCommands(write)
	if pe.Code == CodeCreatedPartly {
		pe.Next = append(next, pe.Next...)
	} else {
		pe.Next = append(pe.Next, next...)
	}
	return pe
}

// PendingCommands offer finishing or dropping an unfinished write.
func PendingCommands(write string) []suggest.Command {
	return []suggest.Command{
		suggest.Roster("pending", "resume", short(write)).Because("recheck and send the same signed events to the relay that lacks them"),
		suggest.Roster("pending", "discard", short(write)).Because("forget the unfinished write (what the relay holds stays there)"),
	}
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// describeKey says a fingerprint key in words.
func describeKey(k string) string {
	kind, rest, _ := strings.Cut(k, ":")
	switch kind {
	case "state":
		return "the group's relay-signed kind " + rest
	case "parent":
		return "the parent group's relay-signed kind " + rest
	case "event":
		return "the event to delete " + rest
	}
	return k
}
