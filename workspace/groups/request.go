package groups

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// User-sent group management kinds (nip-29.md "User-related group
// management events").
const (
	KindJoinRequest  = 9021
	KindLeaveRequest = 9022
)

// Outcomes of a join or leave request.
const (
	OutcomeJoined        = "joined"         // accepted, and the re-read makes you a member
	OutcomePending       = "pending"        // the relay took the request but has not admitted you (an admin decides)
	OutcomeAlreadyMember = "already-member" // a member before (nothing sent) or the relay said duplicate:
	OutcomeLeft          = "left"           // accepted, and the re-read no longer makes you a member
	OutcomeNotMember     = "not-a-member"   // not a member before a leave: nothing sent
)

// Pipeline error codes of join and leave (beside pipeline's OK-prefix codes).
const (
	CodeNotFound    = "not-found"       // no relay asked holds the group's signed state
	CodeIncomplete  = "incomplete"      // a relay asked did not answer
	CodeAmbiguous   = "ambiguous-group" // several relays host a group with this id (forks)
	CodeNotLive     = "group-not-live"  // the group is archived or deleted
	CodeStillMember = "still-member"    // a leave the relay accepted, but it still lists you
)

// RequestInput is one join (9021) or leave (9022) request.
type RequestInput struct {
	Relays  pipeline.Relays
	Publish pipeline.Publish
	Sign    func(context.Context, *nostr.Event) error
	Me      string
	// Ask are the relays to look for the group on; Host, when set, is the
	// relay the reference named, which hosts it.
	Ask  []string
	Host string
	ID   string
	// Code is a join's invite code (the `code` tag); Reason the content.
	Code   string
	Reason string
	Now    func() nostr.Timestamp
	// Journal keeps the signed request until it is verified (nil: none);
	// Command is the command that made it, as words after "roster".
	Journal *journal.Dir
	Command []string
}

// RequestResult is what a request did.
type RequestResult struct {
	Kind    int
	Relay   string
	Outcome string
	// Sent: a request was signed and sent; Accepted and Message are the
	// relay's OK answer to it.
	Sent     bool
	Event    *nostr.Event
	Accepted bool
	Message  string
	Before   Membership
	After    Membership
	// Read is the relay's state after the request (before it, when nothing
	// was sent).
	Read RelayRead
	// Note says where the relay's own records disagree with its answer: a
	// join answered duplicate: is a member (nip-29.md), but the re-read
	// found no 39002 listing them, or a latest 9001 removing them, or did
	// not complete. A 39002 may be partial, so this is never read as
	// non-membership.
	Note string
	// Journal is the request's write id while it is unfinished.
	Journal string
}

// Join sends a kind 9021 join request to the relay hosting the group,
// unless the relay's record already makes me a member, and re-reads my
// membership (nip-29.md "Adding yourself to a group"): the relay may admit
// me at once (a 9000), queue the request for an admin, or refuse it.
func Join(ctx context.Context, in RequestInput) (RequestResult, error) {
	return request(ctx, in, KindJoinRequest)
}

// Leave sends a kind 9022 leave request, unless the relay's record already
// says I am not a member; the relay answers it with a 9001 removing me.
func Leave(ctx context.Context, in RequestInput) (RequestResult, error) {
	return request(ctx, in, KindLeaveRequest)
}

func request(ctx context.Context, in RequestInput, kind int) (RequestResult, error) {
	verb := map[int]string{KindJoinRequest: "join", KindLeaveRequest: "leave"}[kind]
	what := fmt.Sprintf("the %s request (kind %d) for group %s", verb, kind, in.ID)
	ask := in.Ask
	if in.Host != "" {
		ask = []string{in.Host}
	}
	// The membership, and the group's moderation events the journal's
	// recheck compares, in one read.
	reads, complete := readHost(ctx, in.Relays, ask, in.ID, readSpec{target: in.Me, mods: true})
	rrs := make([]RelayRead, len(reads))
	for i, r := range reads {
		rrs[i] = r.RelayRead
		rrs[i].Me = r.Target
	}
	host, err := hostOf(ReadResult{Relays: rrs, Complete: complete}, in.ID, verb, in.Command)
	if err != nil {
		return RequestResult{}, err
	}
	var hr hostRead
	for _, r := range reads {
		if r.URL == host.URL {
			hr = r
		}
	}
	res := RequestResult{Kind: kind, Relay: host.URL, Before: *host.Me, After: *host.Me, Read: host}
	show := suggest.Roster("group", "show", host.URL+"'"+in.ID, "--me")
	if !host.Live {
		return res, &pipeline.Error{Class: pipeline.Refused, Code: CodeNotLive, Details: map[string]any{"relay": host.URL, "id": in.ID},
			Msg: fmt.Sprintf("group %s on %s is archived or deleted, so roster sends no %s request", in.ID, host.URL, verb)}
	}
	if kind == KindJoinRequest && host.Me.Member {
		res.Outcome = OutcomeAlreadyMember
		return res, nil
	}
	if kind == KindLeaveRequest && !host.Me.Member {
		res.Outcome = OutcomeNotMember
		return res, nil
	}
	evt := &nostr.Event{Kind: kind, CreatedAt: in.Now(), Content: in.Reason, Tags: nostr.Tags{{"h", in.ID}}}
	if kind == KindJoinRequest && in.Code != "" {
		evt.Tags = append(evt.Tags, nostr.Tag{"code", in.Code})
	}
	if err := in.Sign(ctx, evt); err != nil {
		return res, pipeline.Signed(err)
	}
	act := map[int]Action{KindJoinRequest: actJoin, KindLeaveRequest: actLeave}[kind]
	mi := ModerationInput{ID: in.ID, Command: in.Command, Journal: in.Journal}
	kept, err := track.Begin(in.Journal, entries(mi, hr, awaits(act), evt))
	if err != nil {
		return res, journalErr(err, suggest.Roster(in.Command...))
	}
	write := kept.ID
	rep := in.Publish(ctx, host.URL, evt)
	if rep.OK && write != "" {
		_ = in.Journal.Acked(write, 0, host.URL)
	}
	res.Sent, res.Event, res.Accepted, res.Message = true, evt, rep.OK, rep.Message
	res, err = answer(ctx, in, kind, res, rep, show, what)
	// The journal entry ends when the relay's answer is final: accepted and
	// re-read, or refused. A request that may be stored and was not read
	// back stays, for roster pending resume.
	var pe *pipeline.Error
	if write != "" {
		if errors.As(err, &pe) && pe.Class == pipeline.Unverified && (rep.OK || !rep.Replied) {
			res.Journal = write
			return res, withPending(err, write)
		}
		_ = in.Journal.Finish(write)
	}
	return res, err
}

// answer reads the relay's OK to a request and re-reads the membership.
func answer(ctx context.Context, in RequestInput, kind int, res RequestResult, rep relaypool.PublishReport, show suggest.Command, what string) (RequestResult, error) {
	host := res.Read
	evt := res.Event
	details := map[string]any{"relay": host.URL, "id": in.ID, "event_id": evt.ID}
	if !rep.OK {
		prefix, _, _ := strings.Cut(rep.Message, ":")
		switch {
		case kind == KindJoinRequest && prefix == "duplicate":
			res.Outcome = OutcomeAlreadyMember
		case rep.Replied && strings.Contains(strings.ToLower(rep.Message), "pending"):
			// NIP-29: the rejection "SHOULD explain ... if the request is
			// pending review"; there is no machine prefix for it.
			res.Outcome = OutcomePending
		default:
			return res, pipeline.Rejection(rep, host.URL, what, details, []suggest.Command{show})
		}
	}
	after := ReadMember(ctx, in.Relays, []string{host.URL}, in.ID, in.Me)
	if res.Outcome == OutcomeAlreadyMember {
		// NIP-29: duplicate: means already a member; the records are notes.
		res.Note = duplicateNote(host.URL, after)
		if after.Complete && len(after.Relays) == 1 && after.Relays[0].Me != nil {
			res.Read, res.After = after.Relays[0], *after.Relays[0].Me
		}
		return res, nil
	}
	if !after.Complete || len(after.Relays) != 1 || after.Relays[0].Me == nil {
		return res, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified", Details: details, Next: []suggest.Command{show},
			Msg: fmt.Sprintf("%s answered %s, but re-reading your membership there did not complete", host.URL, what)}
	}
	res.Read, res.After = after.Relays[0], *after.Relays[0].Me
	if res.Outcome != "" {
		return res, nil
	}
	switch {
	case kind == KindJoinRequest && res.After.Member:
		res.Outcome = OutcomeJoined
	case kind == KindJoinRequest:
		res.Outcome = OutcomePending
	case !res.After.Member:
		res.Outcome = OutcomeLeft
	default:
		return res, &pipeline.Error{Class: pipeline.Unverified, Code: CodeStillMember, Details: details, Next: []suggest.Command{show},
			Msg: fmt.Sprintf("%s accepted %s but still makes you a member (%s %s); it should have removed you with a kind 9001", host.URL, what, res.After.Basis, res.After.EventID)}
	}
	return res, nil
}

// duplicateNote is what to say about a join the relay answered
// duplicate: when its own records do not show the membership ("" when they
// do).
func duplicateNote(relay string, after ReadResult) string {
	if !after.Complete || len(after.Relays) != 1 || after.Relays[0].Me == nil {
		return fmt.Sprintf("%s answered duplicate: (you are already a member), but re-reading your membership there did not complete", relay)
	}
	me := after.Relays[0].Me
	switch {
	case me.Member:
		return ""
	case me.Basis == "remove-user":
		return fmt.Sprintf("%s answered duplicate: (you are already a member), but the latest kind 9001 naming you there (%s) removes you; the relay's answer stands, its records disagree with it", relay, me.EventID)
	}
	return fmt.Sprintf("%s answered duplicate: (you are already a member), but its signed member list (kind 39002) does not list you and no kind 9000 names you; a 39002 may be partial, so the relay's answer stands", relay)
}

// hostOf picks the one relay that hosts the group among those read: a
// request goes to the relay that enforces the group's rules, and the same
// id on two relays is two groups (a fork).
//
// command is the command as typed, after "roster" (nil: `group <verb>
// <id>`): the commands it suggests are that command, every argument and
// flag kept, naming the group as each hosting relay has it, and the retry
// gives slow relays a longer --timeout only when one timed out.
func hostOf(rd ReadResult, id, verb string, command []string) (RelayRead, error) {
	var found []RelayRead
	var failed []string
	var statuses []string
	for _, r := range rd.Relays {
		if r.Found {
			found = append(found, r)
		} else if r.Status != "ok" {
			failed = append(failed, r.URL+" ("+pipeline.Outcome(r.Status, r.Reason)+")")
			statuses = append(statuses, r.Status)
		}
	}
	// again is the command naming the group as group.
	again := func(group string) suggest.Command {
		if len(command) < 3 || command[0] != "group" {
			return suggest.Roster("group", verb, group)
		}
		words := slices.Clone(command)
		words[2] = group
		return suggest.Roster(words...)
	}
	details := map[string]any{"id": id, "relays": rd.Relays}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		var next []suggest.Command
		var urls []string
		for _, r := range found {
			urls = append(urls, r.URL)
			next = append(next, again(r.URL+"'"+id).Because("the group as "+r.URL+" hosts it"))
		}
		return RelayRead{}, &pipeline.Error{Class: pipeline.Usage, Code: CodeAmbiguous, Details: details, Next: next,
			Msg: fmt.Sprintf("group %s is hosted by %d relays (%s), each a group of its own; name one as <relay>'%s", id, len(found), strings.Join(urls, ", "), id)}
	case len(failed) > 0:
		return RelayRead{}, &pipeline.Error{Class: pipeline.Incomplete, Code: CodeIncomplete, Details: details,
			Next: []suggest.Command{retryLater(again(id), statuses)},
			Msg:  fmt.Sprintf("no relay that answered hosts group %s, and %s did not answer; nothing was sent", id, strings.Join(failed, ", "))}
	}
	return RelayRead{}, &pipeline.Error{Class: pipeline.Incomplete, Code: CodeNotFound, Details: details,
		Next: []suggest.Command{suggest.Roster("group", "list").Because("the groups each relay hosts")},
		Msg:  fmt.Sprintf("no relay asked holds relay-signed state for group %s; nothing was sent", id)}
}
