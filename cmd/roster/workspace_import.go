package main

import (
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/workspace/sections"
)

func nostrNow(a *app) nostr.Timestamp { return nostr.Timestamp(a.io.Now().Unix()) }

// wsImportJSON is `workspace import --json` (schema roster.workspace.import/v1).
type wsImportJSON struct {
	Schema        string `json:"schema"`
	SourceEventID string `json:"source_event_id"`
	SourceHash    string `json:"source_hash"`
	EventID       string `json:"event_id"`
	ActionID      string `json:"action_id"`
	CommandHash   string `json:"command_hash"`
	// Switched is true once the migration marker read back matches: from now
	// on the relay's projection is the authority and the legacy blob is a
	// read-only rollback artifact that roster never writes.
	Switched  bool   `json:"switched"`
	Workspace wsJSON `json:"workspace"`
}

func newWorkspaceImportCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "import",
		Short: "Migrate your legacy channel-sections blob into a relay workspace (kind 9050)",
		Long: `Owner only, once. Reads your newest valid kind 30078 d=channel-sections event,
decrypts it, canonicalizes and hashes it, creates a fresh workspace key and
your key envelope, encrypts every label and icon, and submits a revision-zero
import. roster switches to the relay's workspace only after reading back the
matching migration marker; it never writes the legacy blob.`,
		Example: `  roster workspace import --relay wss://relay.example
  roster workspace import --relay wss://relay.example --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if a.opts.Offline {
				return usageErr("`workspace import` submits a command to the relay; drop --offline")
			}
			ws, err := a.openWorkspace(ctx, "", "roster workspace import")
			if err != nil {
				return err
			}
			defer ws.close()
			// The workspace must be at revision zero with no marker.
			res, err := ws.sync(ctx)
			var ee *exitError
			switch {
			case err == nil && res.Stale:
				return &exitError{Code: exitIncomplete, Kind: "stale", Err: fmt.Errorf("%w; cannot tell whether the workspace is already imported", sections.ErrStaleBasis)}
			case err == nil:
				return &exitError{Code: exitRefused, Kind: "already-imported",
					Err:      fmt.Errorf("your workspace on %s is already imported (revision %d); the legacy blob is now read-only and is never written again", ws.community, res.Verified.Projection.Revision),
					Details:  map[string]any{"migration": res.Verified.Projection.Migration},
					Commands: []string{"roster workspace show --relay " + ws.relay}}
			case errors.As(err, &ee) && ee.Kind == "no-projection":
				// revision zero: go on
			default:
				return err
			}
			f := nostr.Filter{Kinds: []int{sections.KindLegacy}, Authors: []string{ws.me}, Tags: nostr.TagMap{"d": {sections.LegacyD}}}
			fr := ws.pool.Fetch(ctx, []string{ws.relay}, f)
			if !fr.Complete {
				return &exitError{Code: exitIncomplete, Kind: "incomplete",
					Err:      fmt.Errorf("%s did not answer for your legacy channel-sections event (%s); nothing was published", ws.relay, relayOutcome(fr.Relays[0].Status, fr.Relays[0].Reason)),
					Details:  map[string]any{"relay": ws.relay, "status": fr.Relays[0].Status, "reason": fr.Relays[0].Reason},
					Commands: []string{"roster workspace import --relay " + shellQuote(ws.relay) + " --timeout 30s   # retry once the relay is back"}}
			}
			src, err := sections.NewestLegacy(ctx, ws.s, ws.me, fr.Events)
			if err != nil {
				return &exitError{Code: exitIncomplete, Kind: "no-legacy", Err: fmt.Errorf("%v; nothing to import", err)}
			}
			body, _, err := sections.ImportBody(ctx, ws.s, ws.community, ws.me, src)
			if err != nil {
				return &exitError{Code: exitRefused, Kind: "invalid-command", Err: fmt.Errorf("legacy blob cannot be imported: %v; nothing was signed", err)}
			}
			evt, parsed, err := ws.signCommand(ctx, ws.me, body)
			if err != nil {
				return err
			}
			rep := ws.pool.Publish(ctx, []string{ws.relay}, evt)[0]
			if !rep.OK {
				return &exitError{Code: exitRefused, Kind: "relay-rejected",
					Err: fmt.Errorf("%s refused the import, nothing changed: %s", ws.relay, rep.Message), Details: map[string]any{"event_id": evt.ID}}
			}
			cur, err := ws.load(ctx)
			if err != nil || cur.sync.Stale || !sections.MarkerMatches(cur.sync.Verified.Projection, src) {
				return &exitError{Code: exitUnverified, Kind: "unverified",
					Err:      fmt.Errorf("%s accepted the import (event %s) but the matching migration marker did not read back; roster has not switched", ws.relay, evt.ID),
					Commands: []string{"roster workspace show --relay " + ws.relay}}
			}
			out := wsImportJSON{Schema: "roster.workspace.import/v1", SourceEventID: src.Event.ID, SourceHash: src.Hash,
				EventID: evt.ID, ActionID: parsed.ActionID, CommandHash: parsed.Hash, Switched: true, Workspace: ws.view(cur)}
			if a.opts.JSON {
				return writeJSON(a, out)
			}
			fmt.Fprintf(a.io.Out, "imported legacy channel-sections event %s (hash %s); migration marker verified, the relay workspace is now authoritative\n", src.Event.ID, src.Hash)
			renderWorkspace(a, out.Workspace)
			return nil
		},
	}
}
