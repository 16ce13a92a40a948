// The write pipeline shared by every workspace command after import: read
// the current projection, refuse by role, build, sign, submit, read back.

package sections

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// Write is one workspace command after import.
type Write struct {
	Verb   string // as the user typed it ("move", "section add")
	Action Action
	// Build makes the command's body from the current workspace.
	Build func(context.Context, *Session, *Current) (Body, error)
	// Applied reports whether the read-back shows the command (nil: any
	// newer revision does).
	Applied func(*Current) bool
}

// WriteResult is a command the relay applied and the read-back shows.
type WriteResult struct {
	Event   *nostr.Event
	Command *Command
	Before  *Current
	After   *Current
}

// Write reads and verifies the current projection (never a stale one),
// refuses by role before building anything, builds and validates the
// command, signs, submits, reads back and checks. Refusals and failures are
// *pipeline.Error, signer failures *pipeline.SignerError.
func (s *Session) Write(ctx context.Context, wr Write) (*WriteResult, error) {
	cur, err := s.Load(ctx)
	if err != nil {
		return nil, err
	}
	if err := cur.Sync.WriteBasis(); err != nil {
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "stale", Err: err, Msg: err.Error(),
			Details: map[string]any{"relay": s.Relay, "cached_revision": cur.W.Revision},
			Next:    []suggest.Command{s.show()}}
	}
	// A reader whose role the relay does not publish may still be a mover
	// or manager: the relay decides. Owner-only actions are refused anyway.
	unknown := cur.Role == RoleReader && (wr.Action == ActionMove || wr.Action == ActionManage)
	if !unknown && !Allowed(cur.Role, wr.Action) {
		return nil, s.RoleRefusal(cur.Role, wr.Action, wr.Verb)
	}
	body, err := wr.Build(ctx, s, cur)
	if err != nil {
		// A section, channel or reader that does not fit the workspace:
		// `show` (for this owner, on this relay) lists what does.
		list := s.show().Because("its sections, channels and readers")
		var re *RuleError
		if errors.As(err, &re) {
			return nil, &pipeline.Error{Class: pipeline.Refused, Code: "invalid-command", Err: err, Msg: fmt.Sprintf("%s; nothing was signed", re.Msg),
				Details: map[string]any{"rule": re.Rule}, Next: []suggest.Command{list}}
		}
		return nil, &pipeline.Error{Class: pipeline.Usage, Code: "usage", Err: err, Msg: err.Error(), Next: []suggest.Command{list}}
	}
	return s.submit(ctx, wr, cur, body)
}

// RoleRefusal is the refusal of a command the signer's role does not
// allow, raised before anything is built or signed.
func (s *Session) RoleRefusal(role Role, action Action, verb string) *pipeline.Error {
	var may []string
	for _, r := range []Role{RoleOwner, RoleManager, RoleMover, RoleViewer} {
		if Allowed(r, action) {
			may = append(may, string(r))
		}
	}
	who := "you hold no grant in this workspace"
	if role == RoleReader {
		who = "you are a reader of this workspace (the relay does not say with which role)"
	} else if role != "" {
		who = "you are a " + string(role) + " of this workspace"
	}
	e := &pipeline.Error{Class: pipeline.Refused, Code: "role-refused",
		Msg: fmt.Sprintf("%s; `workspace %s` needs one of: %s. Nothing was signed", who, verb, strings.Join(may, ", ")),
		Details: map[string]any{"owner": s.ownerNpub(), "you": graph.Npub(s.Me), "role": string(role),
			"action": string(action), "allowed_roles": may}}
	if action == ActionMove || action == ActionManage || action == ActionRead {
		need := RoleMover
		if action == ActionManage {
			need = RoleManager
		}
		// The owner's command, run in their own home: it names whose it
		// is and carries none of the refused person's own settings.
		e.Next = []suggest.Command{suggest.Roster("workspace", "grant", graph.Npub(s.Me), "--role", string(need), "--relay", s.Relay).
			ByPerson(graph.Npub(s.Owner)).Because("ask the owner to run it")}
	}
	return e
}

// submit signs body, publishes it to the workspace relay and reads back the
// projection until it shows the change.
func (s *Session) submit(ctx context.Context, wr Write, cur *Current, body Body) (*WriteResult, error) {
	evt, cmd, err := s.SignCommand(ctx, s.Owner, body)
	if err != nil {
		return nil, err
	}
	// Kept in the journal before the relay is sent it: a lost answer is
	// resumed with this exact event (NIP-SW's exact retry).
	kept, err := pipeline.Keep(s.Journal, s.journalEntry(wr.Verb, cur.W.Revision, evt, cmd))
	if err != nil {
		return nil, err
	}
	rep := s.Publish(ctx, s.Relay, evt)
	kept.Answered(rep)
	res, err := s.confirm(ctx, wr, cur, evt, cmd, rep)
	return res, kept.End(rep, err)
}

// confirm classifies the relay's answer and reads the projection back
// until it shows the command.
func (s *Session) confirm(ctx context.Context, wr Write, cur *Current, evt *nostr.Event, cmd *Command, rep relaypool.PublishReport) (*WriteResult, error) {
	details := map[string]any{"relay": s.Relay, "event_id": evt.ID, "action_id": cmd.ActionID}
	show := []suggest.Command{s.show()}
	if e := pipeline.Rejection(rep, s.Relay, "the "+wr.Verb+" command", details, show); e != nil {
		return nil, e
	}
	after, err := s.Load(ctx)
	if err != nil || after.Sync.Stale || after.W.Revision <= cur.W.Revision || (wr.Applied != nil && !wr.Applied(after)) {
		return nil, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified", Details: details, Next: show,
			Msg: fmt.Sprintf("%s accepted the %s command (event %s) but its projection does not show it yet", s.Relay, wr.Verb, evt.ID)}
	}
	return &WriteResult{Event: evt, Command: cmd, Before: cur, After: after}, nil
}

// SignCommand builds the command event for body, signs it as author and
// parses it back (for its action id and hash).
func (s *Session) SignCommand(ctx context.Context, author string, body Body) (*nostr.Event, *Command, error) {
	evt, err := CommandEvent(author, body, s.Now())
	if err != nil {
		return nil, nil, &pipeline.Error{Class: pipeline.Refused, Code: "invalid-command", Err: err, Msg: fmt.Sprintf("%v; nothing was signed", err)}
	}
	if err := s.Signer.SignEvent(ctx, evt); err != nil {
		return nil, nil, pipeline.Signed(err)
	}
	cmd, err := ParseCommand(evt)
	if err != nil {
		return nil, nil, fmt.Errorf("roster built a command it cannot parse back: %w", err)
	}
	return evt, cmd, nil
}
