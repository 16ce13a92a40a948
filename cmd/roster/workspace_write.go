// The write pipeline shared by every workspace command after import: read
// the current projection, refuse by role, build, sign, submit, read back.

package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/sections"
)

// roleRefusal is the exit-3 refusal of a command the signer's role does not
// allow, raised before anything is built or signed.
func roleRefusal(ws *wsSession, role sections.Role, action sections.Action, verb string) *exitError {
	var may []string
	for _, r := range []sections.Role{sections.RoleOwner, sections.RoleManager, sections.RoleMover, sections.RoleViewer} {
		if sections.Allowed(r, action) {
			may = append(may, string(r))
		}
	}
	who := "you hold no grant in this workspace"
	if role == sections.RoleReader {
		who = "you are a reader of this workspace (the relay does not say with which role)"
	} else if role != "" {
		who = "you are a " + string(role) + " of this workspace"
	}
	ee := &exitError{Code: exitRefused, Kind: "role-refused",
		Err: fmt.Errorf("%s; `workspace %s` needs one of: %s. Nothing was signed", who, verb, strings.Join(may, ", ")),
		Details: map[string]any{"owner": graph.Npub(ws.owner), "you": graph.Npub(ws.me), "role": string(role),
			"action": string(action), "allowed_roles": may}}
	if action == sections.ActionMove || action == sections.ActionManage || action == sections.ActionRead {
		need := sections.RoleMover
		if action == sections.ActionManage {
			need = sections.RoleManager
		}
		ee.Commands = []string{fmt.Sprintf("roster workspace grant %s --role %s --relay %s   # for the owner %s to run",
			graph.Npub(ws.me), need, ws.relay, graph.Npub(ws.owner))}
	}
	return ee
}

// wsChangeJSON is a write's result (schema roster.workspace.change/v1).
type wsChangeJSON struct {
	Schema         string `json:"schema"`
	Command        string `json:"command"`
	Kind           int    `json:"kind"`
	EventID        string `json:"event_id"`
	ActionID       string `json:"action_id"`
	CommandHash    string `json:"command_hash"`
	RevisionBefore int64  `json:"revision_before"`
	Revision       int64  `json:"revision"`
	Workspace      wsJSON `json:"workspace"`
}

// workspaceWrite is every command after import: read and verify the current
// projection (never a stale one), refuse by role before building anything,
// build and validate the command, sign, submit, read back and check.
func (a *app) workspaceWrite(ctx context.Context, ownerFlag, verb string, action sections.Action,
	build func(context.Context, *wsSession, *wsCurrent) (sections.Body, error), applied func(*wsCurrent) bool) error {
	if a.opts.Offline {
		return usageErr("`workspace %s` submits a command to the relay; drop --offline", verb)
	}
	ws, err := a.openWorkspace(ctx, ownerFlag, "roster workspace "+verb)
	if err != nil {
		return err
	}
	defer ws.close()
	cur, err := ws.load(ctx)
	if err != nil {
		return err
	}
	if err := cur.sync.WriteBasis(); err != nil {
		return &exitError{Code: exitIncomplete, Kind: "stale", Err: err,
			Details:  map[string]any{"relay": ws.relay, "cached_revision": cur.w.Revision},
			Commands: []string{"roster workspace show --owner " + graph.Npub(ws.owner) + " --relay " + ws.relay}}
	}
	// A reader whose role the relay does not publish may still be a mover
	// or manager: the relay decides. Owner-only actions are refused anyway.
	unknown := cur.role == sections.RoleReader && (action == sections.ActionMove || action == sections.ActionManage)
	if !unknown && !sections.Allowed(cur.role, action) {
		return roleRefusal(ws, cur.role, action, verb)
	}
	body, err := build(ctx, ws, cur)
	if err != nil {
		// A section, channel or reader that does not fit the workspace:
		// `show` (for this owner, on this relay) lists what does.
		show := []string{"roster workspace show --owner " + graph.Npub(ws.owner) + " --relay " + shellQuote(ws.relay) + "   # its sections, channels and readers"}
		var re *sections.RuleError
		if errors.As(err, &re) {
			return &exitError{Code: exitRefused, Kind: "invalid-command", Err: fmt.Errorf("%v; nothing was signed", err),
				Details: map[string]any{"rule": re.Rule}, Commands: show}
		}
		ue := usageErr("%v", err)
		ue.Commands = show
		return ue
	}
	return ws.submit(ctx, verb, cur, body, applied)
}

// submit signs body, publishes it to the workspace relay and reads back the
// projection until it shows the change.
func (ws *wsSession) submit(ctx context.Context, verb string, cur *wsCurrent, body sections.Body, applied func(*wsCurrent) bool) error {
	a := ws.a
	evt, cmd, err := ws.signCommand(ctx, ws.owner, body)
	if err != nil {
		return err
	}
	rep := ws.pool.Publish(ctx, []string{ws.relay}, evt)[0]
	details := map[string]any{"relay": ws.relay, "event_id": evt.ID, "action_id": cmd.ActionID}
	show := "roster workspace show --owner " + graph.Npub(ws.owner) + " --relay " + ws.relay
	if !rep.OK {
		for _, p := range []string{"restricted:", "invalid:", "auth-required:", "blocked:", "duplicate:"} {
			if strings.HasPrefix(rep.Message, p) {
				return &exitError{Code: exitRefused, Kind: "relay-rejected", Details: details, Commands: []string{show},
					Err: fmt.Errorf("%s refused the %s command, nothing changed: %s", ws.relay, verb, rep.Message)}
			}
		}
		return &exitError{Code: exitUnverified, Kind: "unconfirmed", Details: details, Commands: []string{show},
			Err: fmt.Errorf("%s did not confirm the %s command (%s); check whether the revision advanced past %d", ws.relay, verb, rep.Message, cur.w.Revision)}
	}
	after, err := ws.load(ctx)
	if err != nil || after.sync.Stale || after.w.Revision <= cur.w.Revision || (applied != nil && !applied(after)) {
		return &exitError{Code: exitUnverified, Kind: "unverified", Details: details, Commands: []string{show},
			Err: fmt.Errorf("%s accepted the %s command (event %s) but its projection does not show it yet", ws.relay, verb, evt.ID)}
	}
	out := wsChangeJSON{Schema: "roster.workspace.change/v1", Command: verb, Kind: evt.Kind, EventID: evt.ID,
		ActionID: cmd.ActionID, CommandHash: cmd.Hash, RevisionBefore: cur.w.Revision, Revision: after.w.Revision, Workspace: ws.view(after)}
	if a.opts.JSON {
		return writeJSON(a, out)
	}
	fmt.Fprintf(a.io.Out, "workspace %s: revision %d -> %d (event %s)\n", verb, cur.w.Revision, after.w.Revision, evt.ID)
	renderWorkspace(a, out.Workspace)
	return nil
}

// signCommand builds the command event for body, signs it as author and
// parses it back (for its action id and hash).
func (ws *wsSession) signCommand(ctx context.Context, author string, body sections.Body) (*nostr.Event, *sections.Command, error) {
	evt, err := sections.CommandEvent(author, body, nostrNow(ws.a))
	if err != nil {
		return nil, nil, &exitError{Code: exitRefused, Kind: "invalid-command", Err: fmt.Errorf("%v; nothing was signed", err)}
	}
	if err := ws.s.SignEvent(ctx, evt); err != nil {
		return nil, nil, signerError(err)
	}
	cmd, err := sections.ParseCommand(evt)
	if err != nil {
		return nil, nil, fmt.Errorf("roster built a command it cannot parse back: %w", err)
	}
	return evt, cmd, nil
}
