// The owner's own writes of a project: create (the first kind 30621),
// update (a newer kind 30621, every other tag kept) and delete (a NIP-09
// deletion of the identity). Each reads the relay's Project State first,
// refuses before signing what the relay would refuse, signs, submits and
// reads the Project State back.

package projects

import (
	"context"
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// Fields are the owner-controlled fields a create or update sets. A nil
// field is left as it is (update) or absent (create); an empty Home
// removes the home channel.
type Fields struct {
	Name        *string
	Description *string
	Home        *string
	// Repos adds and removes member repositories (`a` tags,
	// repositories.go).
	Repos RepositoryEdit
}

// Empty reports whether no field is set and no repository is edited.
func (f Fields) Empty() bool {
	return f.Name == nil && f.Description == nil && f.Home == nil && f.Repos.Empty()
}

// IdentityInput is one owner write of a project on the one relay that
// hosts its community.
type IdentityInput struct {
	Relays  pipeline.Relays
	Publish pipeline.Publish
	// Sign signs as Signer (a signer.Signer's SignEvent).
	Sign func(context.Context, *nostr.Event) error
	// Signer is the signer's pubkey; only the project owner may write its
	// identity (NIP-PC does not widen kind 30621's owner-only authority).
	Signer string
	Relay  string
	Coord  Coordinate
	Now    func() nostr.Timestamp
	// CheckRepos, when set, is asked before signing about the member
	// repositories an edit adds (Fields.Repos.Add): an error refuses the
	// write (a repository that does not resolve). nil checks nothing.
	CheckRepos func(context.Context, []Member) error
	// Journal keeps the signed event from before it is sent until the
	// read-back shows it (nil: none is kept); Rerun is the command that
	// made the write, as words after "roster", kept with it.
	Journal *journal.Dir
	Rerun   []string
}

// IdentityResult is a write the relay committed and the read-back shows.
type IdentityResult struct {
	// Before is the Project State the write was checked against (nil when
	// the relay had none: a first create).
	Before *State
	// After is the read-back.
	After ReadResult
	// Event is the published kind 30621 (create, update) or kind 5 (delete).
	Event *nostr.Event
}

// IdentityTags are the tags roster writes in a new identity, in this
// order: d, name, description, buzz-channel (docs/projects.md).
func IdentityTags(d string, f Fields) nostr.Tags {
	tags := nostr.Tags{{TagD, d}}
	if f.Name != nil && *f.Name != "" {
		tags = append(tags, nostr.Tag{TagName, *f.Name})
	}
	if f.Description != nil && *f.Description != "" {
		tags = append(tags, nostr.Tag{TagDescription, *f.Description})
	}
	if f.Home != nil && *f.Home != "" {
		tags = append(tags, nostr.Tag{TagHomeChannel, *f.Home})
	}
	return tags
}

// UpdateTags returns old with f applied: a set field replaces its tag in
// place (or is appended after the others when absent), an empty one removes
// it; every other tag, known or not, is kept byte for byte and in order.
func UpdateTags(old nostr.Tags, f Fields) nostr.Tags {
	set := []struct {
		name string
		v    *string
	}{{TagName, f.Name}, {TagDescription, f.Description}, {TagHomeChannel, f.Home}}
	out := nostr.Tags{}
	done := map[string]bool{}
	for _, t := range old {
		kept := true
		for _, s := range set {
			if s.v != nil && len(t) > 0 && t[0] == s.name {
				kept = false
				if !done[s.name] && *s.v != "" {
					out = append(out, nostr.Tag{s.name, *s.v})
				}
				done[s.name] = true
			}
		}
		if kept {
			out = append(out, append(nostr.Tag(nil), t...))
		}
	}
	for _, s := range set {
		if s.v != nil && !done[s.name] && *s.v != "" {
			out = append(out, nostr.Tag{s.name, *s.v})
		}
	}
	return out
}

// editRepos applies the repository edit to tags and asks CheckRepos about
// the repositories it adds, before anything is signed.
func (in IdentityInput) editRepos(ctx context.Context, tags nostr.Tags, e RepositoryEdit) (nostr.Tags, error) {
	if e.Empty() {
		return tags, nil
	}
	out, err := EditRepositories(tags, e)
	if err != nil {
		if pe, ok := err.(*pipeline.Error); ok {
			if pe.Details == nil {
				pe.Details = map[string]any{}
			}
			pe.Details["coordinate"] = in.Coord.String()
			pe.Next = []suggest.Command{showOn(in.Coord, in.Relay)}
		}
		return nil, err
	}
	if len(e.Add) > 0 && in.CheckRepos != nil {
		if err := in.CheckRepos(ctx, e.Add); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// notOwner refuses an identity write by anyone but the owner.
func (in IdentityInput) notOwner(verb string) error {
	if in.Signer == in.Coord.Owner {
		return nil
	}
	return &pipeline.Error{Class: pipeline.Refused, Code: "not-owner",
		Msg: fmt.Sprintf("refused before signing, nothing was published: only the project owner %s may %s %s (its kind 30621 identity is owner-signed); you are %s",
			graph.Npub(in.Coord.Owner), verb, in.Coord, graph.Npub(in.Signer)),
		Details: map[string]any{"coordinate": in.Coord.String(), "owner": in.Coord.Owner, "signer": in.Signer},
		Next:    []suggest.Command{showOn(in.Coord, in.Relay)}}
}

// Create publishes the first identity of a project (or recreates a deleted
// one). A live project at the coordinate is refused: update it instead.
func Create(ctx context.Context, in IdentityInput, f Fields) (*IdentityResult, error) {
	c, relay := in.Coord, in.Relay
	if err := in.notOwner("create"); err != nil {
		return nil, err
	}
	rd := Read(ctx, in.Relays, []string{relay}, c)
	if !rd.Complete {
		rr := rd.Relays[0]
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
			Msg:  fmt.Sprintf("%s did not answer for project %s (%s), so roster cannot tell whether it exists; nothing was published", relay, c, pipeline.Outcome(rr.Status, rr.Reason)),
			Next: []suggest.Command{showOn(c, relay)}}
	}
	if rr := rd.Relays[0]; rr.Projection != ProjectionValid && rr.Projection != ProjectionNone {
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "unreadable-state",
			Msg:     fmt.Sprintf("%s serves a Project State for %s that roster cannot use (%s: %s); nothing was published", relay, c, rr.Projection, rr.Error),
			Details: map[string]any{"coordinate": c.String(), "relays": rd.Relays}}
	}
	st := rd.Best
	at := in.Now()
	if st != nil && !st.Deleted {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "project-exists",
			Msg:     fmt.Sprintf("refused before signing, nothing was published: project %s already exists on %s (revision %d); change it with `project update`", c, relay, st.Revision),
			Details: map[string]any{"coordinate": c.String(), "revision": st.Revision},
			Next:    []suggest.Command{suggest.Roster("project", "update", c.String(), "--name", "<name>", "--relay", relay), showOn(c, relay)}}
	}
	if st != nil {
		// A recreation must be dated after the deletion that made the
		// tombstone (an address deletion covers versions up to its time).
		if del := fetchOne(ctx, in.Relays, relay, st.ChangeEvent, nostr.KindDeletion); del != nil && at <= del.CreatedAt {
			at = del.CreatedAt + 1
		}
	}
	tags, err := in.editRepos(ctx, IdentityTags(c.D, f), f.Repos)
	if err != nil {
		return nil, err
	}
	evt := &nostr.Event{Kind: KindIdentity, CreatedAt: at, Tags: tags}
	if _, err := ParseDocument(tagsOf(evt)); err != nil {
		return nil, &pipeline.Error{Class: pipeline.Usage, Code: "usage", Err: err, Msg: err.Error()}
	}
	return in.submit(ctx, st, evt, "the project identity", nil, func(after *State) bool {
		return !after.Deleted && after.IdentityEvent == evt.ID
	})
}

// Update publishes a newer identity: the current one with f applied, every
// other tag kept, created_at after the current one's.
func Update(ctx context.Context, in IdentityInput, f Fields) (*IdentityResult, error) {
	if err := in.notOwner("update"); err != nil {
		return nil, err
	}
	st, ident, err := in.currentIdentity(ctx, "update")
	if err != nil {
		return nil, err
	}
	at := in.Now()
	if at <= ident.CreatedAt {
		at = ident.CreatedAt + 1
	}
	tags, err := in.editRepos(ctx, UpdateTags(ident.Tags, f), f.Repos)
	if err != nil {
		return nil, err
	}
	evt := &nostr.Event{Kind: KindIdentity, CreatedAt: at, Tags: tags, Content: ident.Content}
	if _, err := ParseDocument(tagsOf(evt)); err != nil {
		return nil, &pipeline.Error{Class: pipeline.Usage, Code: "usage", Err: err, Msg: err.Error()}
	}
	unchanged := func(ctx context.Context) error { return in.identityUnchanged(ctx, ident) }
	return in.submit(ctx, st, evt, "the project identity", unchanged, func(after *State) bool {
		return !after.Deleted && after.IdentityEvent == evt.ID
	})
}

// identityUnchanged reads the owner's latest identity again right before
// an update built on ident is sent: a newer one published meanwhile (the
// owner's other device, while this one was signed) would be replaced
// unseen and its edit lost. Another latest identity, or none served,
// stops the update with nothing sent.
func (in IdentityInput) identityUnchanged(ctx context.Context, ident *nostr.Event) error {
	c, relay := in.Coord, in.Relay
	details := map[string]any{"coordinate": c.String(), "relay": relay, "built_on": ident.ID}
	latest, complete := latestIdentity(ctx, in.Relays, relay, c, ident.ID)
	if latest == nil || !complete {
		// A read the relay did not finish compared nothing: the update
		// is not sent on it.
		return &pipeline.Error{Class: pipeline.Incomplete, Code: "identity-missing", Details: details, Next: []suggest.Command{showOn(c, relay)},
			Msg: fmt.Sprintf("%s did not answer for the project identity when it was read again right before the update was sent, so the update was not sent; nothing was published", relay)}
	}
	if latest.ID == ident.ID {
		return nil
	}
	details["latest"] = latest.ID
	next := []suggest.Command{showOn(c, relay)}
	if len(in.Rerun) > 0 {
		next = append(next, suggest.Roster(in.Rerun...).Because("update the identity as it is now"))
	}
	return &pipeline.Error{Class: pipeline.Refused, Code: pipeline.CodeConcurrentChange, Details: details, Next: next,
		Msg: fmt.Sprintf("the project identity changed while the update was signed (%s serves %s; the update was built on %s), so it was not sent; nothing was published: rerun to update the identity as it is now",
			relay, latest.ID, ident.ID)}
}

// Delete publishes a NIP-09 deletion of the current identity, by address
// and by id; the relay turns it into a tombstone at the next revision. It
// deletes no member repository and no channel.
func Delete(ctx context.Context, in IdentityInput) (*IdentityResult, error) {
	if err := in.notOwner("delete"); err != nil {
		return nil, err
	}
	st, ident, err := in.currentIdentity(ctx, "delete")
	if err != nil {
		return nil, err
	}
	at := in.Now()
	if at < ident.CreatedAt {
		at = ident.CreatedAt
	}
	evt := &nostr.Event{Kind: nostr.KindDeletion, CreatedAt: at, Tags: nostr.Tags{
		{"a", in.Coord.String()}, {"e", ident.ID}, {"k", fmt.Sprint(KindIdentity)},
	}, Content: "project deleted"}
	return in.submit(ctx, st, evt, "the deletion", nil, func(after *State) bool { return after.Deleted })
}

// currentIdentity reads the live Project State and the owner's latest
// identity, from the same relay: the one the state names (its `identity`
// e tag) or a newer one of the owner at the same address that the state
// does not show yet, whichever is newer. A write is built on it, never on
// the state's project_tags, which carry the related channels others added.
func (in IdentityInput) currentIdentity(ctx context.Context, verb string) (*State, *nostr.Event, error) {
	c, relay := in.Coord, in.Relay
	rd, err := Current(ctx, in.Relays, relay, c)
	if err != nil {
		return nil, nil, err
	}
	st := rd.Best
	if st.Deleted {
		return nil, nil, &pipeline.Error{Class: pipeline.Refused, Code: "project-deleted",
			Msg:     fmt.Sprintf("refused before signing, nothing was published: project %s is deleted (revision %d); `project create` recreates it", c, st.Revision),
			Details: map[string]any{"coordinate": c.String(), "revision": st.Revision},
			Next:    []suggest.Command{suggest.Roster("project", "create", c.D, "--name", "<name>", "--relay", relay)}}
	}
	ident, _ := latestIdentity(ctx, in.Relays, relay, c, st.IdentityEvent)
	if ident == nil {
		return nil, nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "identity-missing",
			Msg:     fmt.Sprintf("%s's Project State names identity %s, but the relay does not serve that owner-signed event, so roster cannot %s what it does not see; nothing was published", relay, st.IdentityEvent, verb),
			Details: map[string]any{"coordinate": c.String(), "identity_event": st.IdentityEvent},
			Next:    []suggest.Command{showOn(c, relay)}}
	}
	if _, err := ParseIdentity(ident); err != nil {
		return nil, nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "identity-missing", Err: err,
			Msg: fmt.Sprintf("%s serves identity %s but it does not verify (%v); nothing was published", relay, ident.ID, err)}
	}
	return st, ident, nil
}

// latestIdentity asks relay, in one request, for the identity id and for
// the owner's kind 30621 at c's address, and returns the newest that is
// owner-signed, verifies and names c (nil when none does), and whether the
// relay answered the request to its end.
func latestIdentity(ctx context.Context, r pipeline.Relays, relay string, c Coordinate, id string) (*nostr.Event, bool) {
	filters := []nostr.Filter{{Kinds: []int{KindIdentity}, Authors: []string{c.Owner}, Tags: nostr.TagMap{"d": {c.D}}}}
	if id != "" {
		filters = append(filters, nostr.Filter{IDs: []string{id}, Kinds: []int{KindIdentity}})
	}
	var best *nostr.Event
	res := r.Fetch(ctx, []string{relay}, filters...)
	for _, e := range res.Events {
		if e.Kind != KindIdentity || e.PubKey != c.Owner {
			continue
		}
		ident, err := ParseIdentity(e)
		if err != nil || ident.Coordinate != c {
			continue
		}
		if best == nil || e.CreatedAt > best.CreatedAt || e.CreatedAt == best.CreatedAt && e.ID < best.ID {
			best = e
		}
	}
	return best, res.Complete
}

// fetchOne asks relay for the event id of kind; nil when it is not served
// (or does not verify).
func fetchOne(ctx context.Context, r pipeline.Relays, relay, id string, kind int) *nostr.Event {
	if id == "" {
		return nil
	}
	res := r.Fetch(ctx, []string{relay}, nostr.Filter{IDs: []string{id}, Kinds: []int{kind}})
	for _, e := range res.Events {
		if e.ID == id && e.Kind == kind && verifyEvent(e) == nil {
			return e
		}
	}
	return nil
}

// submit signs evt as the owner, publishes it and reads the Project State
// back until applied shows it at a newer revision. unchanged, when set,
// runs right before the send; its error is nothing sent.
func (in IdentityInput) submit(ctx context.Context, before *State, evt *nostr.Event, what string, unchanged func(context.Context) error, applied func(*State) bool) (*IdentityResult, error) {
	c, relay := in.Coord, in.Relay
	if err := in.Sign(ctx, evt); err != nil {
		return nil, pipeline.Signed(err)
	}
	if evt.PubKey != c.Owner {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "not-owner",
			Msg: fmt.Sprintf("the signer signed as %s, not the project owner %s; nothing was published", graph.Npub(evt.PubKey), graph.Npub(c.Owner))}
	}
	kept, err := pipeline.Keep(in.Journal, journalEntry(c, relay, in.Rerun, before, evt, what))
	if err != nil {
		return nil, err
	}
	if unchanged != nil {
		if err := unchanged(ctx); err != nil {
			return nil, kept.End(relaypool.PublishReport{}, err)
		}
	}
	rep := in.Publish(ctx, relay, evt)
	kept.Answered(rep)
	res, err := in.confirm(ctx, before, evt, what, applied, rep)
	return res, kept.End(rep, err)
}

// confirm classifies the relay's answer and reads the Project State back
// until applied shows the write at a newer revision.
func (in IdentityInput) confirm(ctx context.Context, before *State, evt *nostr.Event, what string, applied func(*State) bool, rep relaypool.PublishReport) (*IdentityResult, error) {
	c, relay := in.Coord, in.Relay
	details := map[string]any{"coordinate": c.String(), "relay": relay, "event_id": evt.ID}
	show := []suggest.Command{showOn(c, relay)}
	if e := pipeline.Rejection(rep, relay, what, details, show); e != nil {
		return nil, e
	}
	after, err := Current(ctx, in.Relays, relay, c)
	var rev int64
	if before != nil {
		rev = before.Revision
	}
	if err != nil || after.Best.Revision <= rev || !applied(after.Best) {
		return nil, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified", Details: details, Next: show,
			Msg: fmt.Sprintf("%s accepted %s (event %s) but its Project State does not show it yet", relay, what, evt.ID)}
	}
	return &IdentityResult{Before: before, After: after, Event: evt}, nil
}
