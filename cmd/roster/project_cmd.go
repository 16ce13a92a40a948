package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/projects"
)

// projectBeforeSign, when set (tests only), runs after a change has been
// checked against the state it read and before it is signed: it lets a test
// line up two changes against one revision.
var projectBeforeSign func(attempt int)

func newProjectCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "project",
		Short: "Read relay-signed Project State (NIP-PC) and change a project's related channels",
		Long: `A project's identity (kind 30621) is signed by its owner; its effective state
(kind 30623) is signed by the relay that hosts its community, which also
applies related-channel changes (kind 47010). The project owner may always
change related channels; anyone else only as an active owner or admin of the
project's live home channel (a NIP-29 group on the same relay).`,
		Example: `  roster project show 30621:<owner-hex>:my-project --relay wss://relay.example
  roster project relate 30621:<owner-hex>:my-project 11111111-1111-4111-8111-111111111111 --relay wss://relay.example
  roster project unrelate 30621:<owner-hex>:my-project 11111111-1111-4111-8111-111111111111 --relay wss://relay.example --json`,
	}
	cmd.AddCommand(newProjectShowCmd(a), newProjectChangeCmd(a, true), newProjectChangeCmd(a, false))
	return cmd
}

func newProjectShowCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "show <naddr|coordinate>",
		Short: "Show a project's relay-signed state",
		Long: `Reads the kind 30623 Project State for one project from every relay and keeps
only projections signed by the relay's own NIP-11 "self" key, with the
requested coordinate in their "a" tag. The newest valid projection is shown;
its revision is the "rev" tag. Exit 4 when no relay has a valid projection.`,
		Example: `  roster project show 30621:<owner-hex>:my-project --relay wss://relay.example
  roster project show naddr1... --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, hints, err := projectParseArg(args[0])
			if err != nil {
				return err
			}
			relays := a.defaultRelays()
			if len(relays) == 0 {
				relays = hints
			}
			if len(relays) == 0 {
				return projectNoRelays(c)
			}
			var rd projectReadResult
			if a.opts.Offline {
				if rd, err = projectReadCached(a, relays, c); err != nil {
					return err
				}
			} else {
				pool := relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: a.projectLazyAuth})
				defer pool.Close()
				rd = projectRead(cmd.Context(), pool, relays, c)
				projectCachePut(a, rd)
			}
			if rd.best == nil {
				return projectNotFound(c, rd)
			}
			out := projectView(c, rd)
			if a.opts.JSON {
				return writeJSON(a, out)
			}
			projectRender(a, out)
			return nil
		},
	}
}

// projectParseArg accepts a coordinate 30621:<owner-hex>:<d> or an naddr of
// kind 30621 (whose relay hints are returned).
func projectParseArg(s string) (projects.Coordinate, []string, error) {
	if strings.HasPrefix(s, "naddr1") {
		prefix, v, err := nip19.Decode(s)
		ptr, ok := v.(nostr.EntityPointer)
		if err != nil || prefix != "naddr" || !ok {
			return projects.Coordinate{}, nil, usageErr("%q is not a valid naddr", s)
		}
		if ptr.Kind != projects.KindIdentity {
			return projects.Coordinate{}, nil, usageErr("naddr points at a kind %d event, not a kind 30621 project", ptr.Kind)
		}
		c := projects.Coordinate{Owner: ptr.PublicKey, D: ptr.Identifier}
		if err := c.Validate(); err != nil {
			return projects.Coordinate{}, nil, usageErr("%v", err)
		}
		return c, ptr.Relays, nil
	}
	c, err := projects.ParseCoordinate(s)
	if err != nil {
		return projects.Coordinate{}, nil, usageErr("%v (pass 30621:<64 lowercase hex owner>:<d> or an naddr)", err)
	}
	return c, nil, nil
}

// projectRelayRead is what one relay said about one project.
type projectRelayRead struct {
	URL    string `json:"url"`
	Status string `json:"status"` // relaypool status of the fetch
	Reason string `json:"reason,omitempty"`
	Self   string `json:"self,omitempty"`
	// Projection is "valid", "none", "invalid", "ambiguous" or "unknown-version".
	Projection string `json:"projection"`
	Revision   int64  `json:"revision,omitempty"`
	Error      string `json:"error,omitempty"`

	state *projects.State
	event *nostr.Event    // the verified projection, for the cache
	info  json.RawMessage // the relay's NIP-11 document, for the cache
}

// projectReadResult is every relay's answer and the newest valid projection.
type projectReadResult struct {
	relays   []projectRelayRead
	complete bool
	best     *projects.State
	bestURL  string
}

// projectRead fetches the projection from every relay (one REQ each, in
// parallel) and verifies each relay's answer against that relay's own `self`.
func projectRead(ctx context.Context, pool *relaypool.Pool, relays []string, c projects.Coordinate) projectReadResult {
	relays = relaypool.NormalizeRelays(relays)
	selves := make([]string, len(relays))
	docs := make([]json.RawMessage, len(relays))
	infoErr := make([]error, len(relays))
	projectEach(relays, func(i int, url string) {
		info, err := pool.RelayInfo(ctx, url)
		if err != nil {
			infoErr[i] = err
			return
		}
		selves[i], docs[i] = info.Self, info.Raw
	})
	res := pool.Fetch(ctx, relays, nostr.Filter{Kinds: []int{projects.KindState}, Tags: nostr.TagMap{"d": {c.Address()}}})
	out := projectReadResult{complete: res.Complete}
	var valid []projects.State
	for i, rep := range res.Relays {
		rr := projectRelayRead{URL: rep.URL, Status: rep.Status, Reason: rep.Reason, Self: selves[i], Projection: "none", info: docs[i]}
		var evs []*nostr.Event
		for _, e := range res.Events {
			if projectContains(res.Sources[e.ID], rep.URL) {
				evs = append(evs, e)
			}
		}
		if infoErr[i] != nil && len(evs) > 0 {
			rr.Projection, rr.Error = "invalid", fmt.Sprintf("the relay's NIP-11 document could not be read, so its signer is unknown: %v", infoErr[i])
		} else {
			projectJudge(&rr, evs, c)
		}
		if rr.state != nil {
			valid = append(valid, *rr.state)
		}
		out.relays = append(out.relays, rr)
	}
	projectPickBest(&out, valid)
	return out
}

// projectJudge verifies what one relay returned and records the verdict.
func projectJudge(rr *projectRelayRead, evs []*nostr.Event, c projects.Coordinate) {
	st, found, err := projects.FromRelay(evs, c, rr.Self)
	switch {
	case errors.Is(err, projects.ErrAmbiguous):
		rr.Projection, rr.Error = "ambiguous", err.Error()
	case errors.Is(err, projects.ErrUnknownVersion):
		rr.Projection, rr.Error = "unknown-version", err.Error()+": ignored; upgrade roster to read it"
	case err != nil:
		rr.Projection, rr.Error = "invalid", err.Error()
	case found:
		rr.Projection, rr.Revision, rr.state = "valid", st.Revision, &st
		for _, e := range evs {
			if e.ID == st.EventID {
				rr.event = e
			}
		}
	}
}

// projectPickBest selects the newest valid projection across relays.
func projectPickBest(out *projectReadResult, valid []projects.State) {
	if best, ok := projects.Newest(valid); ok {
		out.best = &best
		for _, rr := range out.relays {
			if rr.state != nil && rr.state.EventID == best.EventID {
				out.bestURL = rr.URL
				break
			}
		}
	}
}

// projectCacheKey names one relay's projection of one project in the cache:
// projections are per relay, because each relay signs its own community's state.
func projectCacheKey(relay string, c projects.Coordinate) string {
	return "nip-pc:" + relay + ":" + c.Address()
}

// projectCachePut keeps each relay's verified projection and NIP-11 document
// for --offline. The cache is an accelerator: failures cost a warning. An
// older projection never replaces a newer cached one.
func projectCachePut(a *app, rd projectReadResult) {
	if rd.best == nil && len(rd.relays) == 0 {
		return
	}
	home, err := a.home()
	if err != nil {
		return
	}
	store, err := cache.Open(home)
	if err != nil {
		fmt.Fprintf(a.io.Err, "roster: warning: %v; --offline will not see this read\n", err)
		return
	}
	defer store.Close()
	now := a.io.Now()
	for _, rr := range rd.relays {
		if rr.info != nil {
			_ = store.PutRelayInfo(rr.URL, rr.info, now)
		}
		if rr.event == nil {
			continue
		}
		key := projectCacheKey(rr.URL, rr.state.Coordinate)
		if old, err := store.Projection(key); err == nil && old != nil && !cache.Newer(rr.event, old) && old.ID != rr.event.ID {
			continue
		}
		if err := store.PutProjection(key, rr.event); err != nil {
			fmt.Fprintf(a.io.Err, "roster: warning: could not cache the projection from %s (%v)\n", rr.URL, err)
		}
	}
}

// projectReadCached answers --offline from the cache: each relay's cached
// projection, verified again against that relay's cached NIP-11 self.
func projectReadCached(a *app, relays []string, c projects.Coordinate) (projectReadResult, error) {
	home, err := a.home()
	if err != nil {
		return projectReadResult{}, usageErr("%v", err)
	}
	store, err := cache.Open(home)
	if err != nil {
		return projectReadResult{}, &exitError{Code: exitIncomplete, Kind: "offline-miss",
			Err: fmt.Errorf("--offline needs the local cache: %v", err), Commands: []string{"roster project show " + c.String()}}
	}
	defer store.Close()
	out := projectReadResult{complete: false}
	var valid []projects.State
	for _, url := range relaypool.NormalizeRelays(relays) {
		rr := projectRelayRead{URL: url, Status: "cache", Projection: "none"}
		info, ok, err := store.RelayInfo(url)
		if err == nil && ok {
			rr.Self = info.Self
		}
		evt, err := store.Projection(projectCacheKey(url, c))
		if err == nil && evt != nil {
			projectJudge(&rr, []*nostr.Event{evt}, c)
		}
		if rr.state != nil {
			valid = append(valid, *rr.state)
		}
		out.relays = append(out.relays, rr)
	}
	projectPickBest(&out, valid)
	if out.best == nil {
		return out, &exitError{Code: exitIncomplete, Kind: "offline-miss",
			Err:      fmt.Errorf("no cached state for project %s from %s; read it online once", c, strings.Join(relays, ", ")),
			Commands: []string{"roster project show " + c.String()}}
	}
	return out, nil
}

func projectEach(relays []string, fn func(i int, url string)) {
	done := make(chan struct{}, len(relays))
	for i, u := range relays {
		go func() { fn(i, u); done <- struct{}{} }()
	}
	for range relays {
		<-done
	}
}

func projectContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// projectJSON is `roster project show --json` (schema roster.project/v1).
type projectJSON struct {
	Schema          string             `json:"schema"`
	Coordinate      string             `json:"coordinate"`
	Owner           string             `json:"owner"`
	OwnerNpub       string             `json:"owner_npub"`
	D               string             `json:"d"`
	Address         string             `json:"address"`
	Naddr           string             `json:"naddr"`
	Revision        int64              `json:"revision"`
	Deleted         bool               `json:"deleted"`
	Name            string             `json:"name"`
	Description     string             `json:"description"`
	HomeChannel     *string            `json:"home_channel"`
	RelatedChannels []string           `json:"related_channels"`
	Visibility      string             `json:"visibility"`
	Members         []projects.Member  `json:"members"`
	UnknownTags     [][]string         `json:"unknown_tags"`
	ProjectTags     [][]string         `json:"project_tags"`
	Projection      projectEventJSON   `json:"projection"`
	Relays          []projectRelayRead `json:"relays"`
	Complete        bool               `json:"complete"`
}

type projectEventJSON struct {
	EventID       string `json:"event_id"`
	CreatedAt     int64  `json:"created_at"`
	Relay         string `json:"relay"`
	Signer        string `json:"signer"`
	IdentityEvent string `json:"identity_event"`
	ChangeEvent   string `json:"change_event"`
}

func projectView(c projects.Coordinate, rd projectReadResult) projectJSON {
	st := rd.best
	naddr, _ := nip19.EncodeEntity(c.Owner, projects.KindIdentity, c.D, nil)
	out := projectJSON{
		Schema: "roster.project/v1", Coordinate: c.String(), Owner: c.Owner, OwnerNpub: projectNpub(c.Owner),
		D: c.D, Address: c.Address(), Naddr: naddr, Revision: st.Revision, Deleted: st.Deleted,
		Name: st.Document.Name, Description: st.Document.Description, Visibility: st.Document.Visibility,
		RelatedChannels: orEmptySlice(st.Document.RelatedChannels), Members: st.Document.Members,
		UnknownTags: st.Document.Unknown, ProjectTags: st.ProjectTags,
		Projection: projectEventJSON{EventID: st.EventID, CreatedAt: int64(st.CreatedAt), Relay: rd.bestURL,
			Signer: st.Signer, IdentityEvent: st.IdentityEvent, ChangeEvent: st.ChangeEvent},
		Relays: rd.relays, Complete: rd.complete,
	}
	if st.Document.HomeChannel != "" {
		h := st.Document.HomeChannel
		out.HomeChannel = &h
	}
	if out.Members == nil {
		out.Members = []projects.Member{}
	}
	if out.UnknownTags == nil {
		out.UnknownTags = [][]string{}
	}
	if out.ProjectTags == nil {
		out.ProjectTags = [][]string{}
	}
	return out
}

func projectRender(a *app, p projectJSON) {
	w := a.io.Out
	title := p.Name
	if title == "" {
		title = p.D
	}
	fmt.Fprintf(w, "%s  (%s)\n", title, p.Coordinate)
	if p.Deleted {
		fmt.Fprintf(w, "  DELETED at revision %d; its owner can recreate it by publishing a new kind 30621 identity\n", p.Revision)
	} else {
		fmt.Fprintf(w, "  revision      %d\n", p.Revision)
		if p.Description != "" {
			fmt.Fprintf(w, "  description   %s\n", p.Description)
		}
		fmt.Fprintf(w, "  owner         %s\n", p.OwnerNpub)
		if p.HomeChannel != nil {
			fmt.Fprintf(w, "  home channel  %s\n", *p.HomeChannel)
		} else {
			fmt.Fprintf(w, "  home channel  none (only the owner may change related channels)\n")
		}
		fmt.Fprintf(w, "  related       %d channel(s)\n", len(p.RelatedChannels))
		for _, ch := range p.RelatedChannels {
			fmt.Fprintf(w, "    %s\n", ch)
		}
		if p.Visibility != "" {
			fmt.Fprintf(w, "  visibility    %s\n", p.Visibility)
		}
		for _, m := range p.Members {
			fmt.Fprintf(w, "  repository    %s\n", m.Address)
		}
	}
	fmt.Fprintf(w, "  signed by     %s (relay self) at %d, event %s\n", p.Projection.Signer, p.Projection.CreatedAt, p.Projection.EventID)
	for _, r := range p.Relays {
		line := fmt.Sprintf("  relay %s: %s, projection %s", r.URL, r.Status, r.Projection)
		if r.Error != "" {
			line += " (" + r.Error + ")"
		}
		fmt.Fprintln(w, line)
	}
}

func projectNpub(hex string) string {
	n, err := nip19.EncodePublicKey(hex)
	if err != nil {
		return hex
	}
	return n
}

func projectNoRelays(c projects.Coordinate) *exitError {
	return &exitError{Code: exitUsage, Kind: "no-relays",
		Err:      fmt.Errorf("no relay to ask for project %s: pass --relay or set ROSTER_RELAYS", c),
		Commands: []string{fmt.Sprintf("roster project show %s --relay wss://<relay>", c)}}
}

// projectNotFound is exit 4: no relay holds a valid projection.
func projectNotFound(c projects.Coordinate, rd projectReadResult) *exitError {
	var why []string
	for _, r := range rd.relays {
		switch {
		case r.Status != relaypool.StatusOK:
			why = append(why, fmt.Sprintf("%s %s %s", r.URL, r.Status, r.Reason))
		case r.Error != "":
			why = append(why, fmt.Sprintf("%s: %s", r.URL, r.Error))
		default:
			why = append(why, fmt.Sprintf("%s has no projection", r.URL))
		}
	}
	return &exitError{Code: exitIncomplete, Kind: "not-found",
		Err: fmt.Errorf("no relay-signed state for project %s (%s); the relay materializes it once the owner publishes the project's kind 30621 identity there",
			c, strings.Join(why, "; ")),
		Details:  map[string]any{"coordinate": c.String(), "address": c.Address(), "relays": rd.relays},
		Commands: []string{fmt.Sprintf("roster project show %s --relay wss://<relay hosting the project>", c)}}
}

// projectLazyAuth answers a relay's NIP-42 challenge on reads, opening the
// signer only when a relay asks.
func (a *app) projectLazyAuth(ctx context.Context, evt *nostr.Event) error {
	s, err := a.signer(ctx)
	if err != nil {
		return err
	}
	return s.SignEvent(ctx, evt)
}

func newProjectChangeCmd(a *app, relate bool) *cobra.Command {
	use, short, verb := "relate", "Relate channels to a project (kind 47010)", "relate"
	if !relate {
		use, short, verb = "unrelate", "Unrelate channels from a project (kind 47010)", "unrelate"
	}
	return &cobra.Command{
		Use:   use + " <coordinate|naddr> <channel-uuid>...",
		Short: short,
		Long: `Signs and submits one kind 47010 change against the project's current revision
on exactly one relay (the community that hosts it). Before signing, roster
re-checks what the relay will: the project is live, the channels are not the
home channel, are not already related (relate) or are related (unrelate), at
most 64 related channels remain, and you are the owner or an active owner or
admin of the project's live home channel. A refusal exits 3 and publishes
nothing. If another change commits first (a "conflict:" reply), roster
re-reads the state, re-checks and retries once.`,
		Example: fmt.Sprintf(`  roster project %[1]s 30621:<owner-hex>:my-project 11111111-1111-4111-8111-111111111111 --relay wss://relay.example
  roster project %[1]s naddr1... <uuid> <uuid> --relay wss://relay.example --json`, verb),
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, err := projectParseArg(args[0])
			if err != nil {
				return err
			}
			var chans []string
			for _, s := range args[1:] {
				u, err := projects.NormalizeUUID(s)
				if err != nil {
					return usageErr("%v", err)
				}
				chans = append(chans, u)
			}
			var patch projects.Patch
			if relate {
				patch, err = projects.NewPatch(chans, nil)
			} else {
				patch, err = projects.NewPatch(nil, chans)
			}
			if err != nil {
				return usageErr("%v", err)
			}
			relays := relaypool.NormalizeRelays(a.defaultRelays())
			if len(relays) != 1 {
				return &exitError{Code: exitUsage, Kind: "one-relay",
					Err:      fmt.Errorf("a project change is committed by the one relay that hosts the project's community; pass exactly one --relay (got %d)", len(relays)),
					Commands: []string{fmt.Sprintf("roster project %s %s %s --relay wss://<relay hosting the project>", verb, c, strings.Join(chans, " "))}}
			}
			if a.opts.Offline {
				return usageErr("a project change needs the relay; drop --offline")
			}
			s, err := a.signer(cmd.Context())
			if err != nil {
				return err
			}
			return projectChange(cmd.Context(), a, s, relays[0], c, patch, verb)
		},
	}
}

// projectChangeJSON is the result of relate/unrelate (schema roster.project.change/v1).
type projectChangeJSON struct {
	Schema           string   `json:"schema"`
	Coordinate       string   `json:"coordinate"`
	Relay            string   `json:"relay"`
	Actor            string   `json:"actor"`
	ActorNpub        string   `json:"actor_npub"`
	Add              []string `json:"add"`
	Remove           []string `json:"remove"`
	ExpectedRevision int64    `json:"expected_revision"`
	Revision         int64    `json:"revision"`
	RelatedChannels  []string `json:"related_channels"`
	Published        []string `json:"published"`
	Retried          bool     `json:"retried"`
}

// projectChange reads, checks, signs, submits and reads back one change,
// retrying once on a conflict.
func projectChange(ctx context.Context, a *app, s signer.Signer, relay string, c projects.Coordinate, patch projects.Patch, verb string) error {
	actor, err := s.PublicKey(ctx)
	if err != nil {
		return signerError(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: s.SignEvent})
	defer pool.Close()
	out := projectChangeJSON{Schema: "roster.project.change/v1", Coordinate: c.String(), Relay: relay, Actor: actor, ActorNpub: projectNpub(actor),
		Add: patch.Add, Remove: patch.Remove, Published: []string{}}
	for attempt := 0; attempt < 2; attempt++ {
		rd, err := projectCurrent(ctx, pool, relay, c)
		if err != nil {
			return err
		}
		st := rd.best
		if err := projectCheck(ctx, pool, relay, rd.relays[0].Self, actor, st, patch); err != nil {
			return err
		}
		if projectBeforeSign != nil {
			projectBeforeSign(attempt)
		}
		evt, err := projects.BuildChange(c, st.Revision, patch, nostr.Timestamp(a.io.Now().Unix()))
		if err != nil {
			return err
		}
		if err := s.SignEvent(ctx, evt); err != nil {
			return signerError(err)
		}
		rep := pool.Publish(ctx, []string{relay}, evt)[0]
		out.ExpectedRevision = st.Revision
		out.Retried = attempt > 0
		if !rep.OK && strings.HasPrefix(rep.Message, "conflict:") {
			if attempt == 0 {
				continue // another change committed first: re-read, re-check, retry once
			}
			return &exitError{Code: exitRefused, Kind: "conflict",
				Err:      fmt.Errorf("the project changed again while roster retried, so nothing was committed: %s", rep.Message),
				Details:  map[string]any{"coordinate": c.String(), "relay": relay, "expected_revision": st.Revision},
				Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
		}
		if !rep.OK && rep.Message != "" && !strings.HasPrefix(rep.Message, "timeout:") && !strings.HasPrefix(rep.Message, "error: ") {
			return &exitError{Code: exitRefused, Kind: "relay-rejected",
				Err:      fmt.Errorf("%s refused the change, nothing was committed: %s", relay, rep.Message),
				Details:  map[string]any{"coordinate": c.String(), "relay": relay, "event_id": evt.ID},
				Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
		}
		if !rep.OK {
			return &exitError{Code: exitUnverified, Kind: "unconfirmed",
				Err:      fmt.Errorf("%s did not confirm the change (%s); check whether the revision advanced past %d", relay, rep.Message, st.Revision),
				Details:  map[string]any{"coordinate": c.String(), "relay": relay, "event_id": evt.ID},
				Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
		}
		out.Published = append(out.Published, evt.ID)
		rdAfter, err := projectCurrent(ctx, pool, relay, c)
		after := rdAfter.best
		if err != nil || after.Revision <= st.Revision || !projectApplied(after.Document, patch) {
			return &exitError{Code: exitUnverified, Kind: "unverified",
				Err:      fmt.Errorf("%s accepted the change (event %s) but its Project State does not show it yet", relay, evt.ID),
				Details:  map[string]any{"coordinate": c.String(), "relay": relay, "event_id": evt.ID},
				Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
		}
		projectCachePut(a, rdAfter)
		out.Revision = after.Revision
		out.RelatedChannels = orEmptySlice(after.Document.RelatedChannels)
		if a.opts.JSON {
			return writeJSON(a, out)
		}
		fmt.Fprintf(a.io.Out, "%sd %d channel(s) for %s: revision %d -> %d", verb, len(patch.Add)+len(patch.Remove), c, st.Revision, after.Revision)
		if out.Retried {
			fmt.Fprint(a.io.Out, " (retried once after a concurrent change)")
		}
		fmt.Fprintf(a.io.Out, "\n  related channels: %s\n", strings.Join(out.RelatedChannels, ", "))
		return nil
	}
	return errors.New("unreachable")
}

// projectCurrent reads the relay's current projection, requiring a complete
// answer and a valid projection.
func projectCurrent(ctx context.Context, pool *relaypool.Pool, relay string, c projects.Coordinate) (projectReadResult, error) {
	rd := projectRead(ctx, pool, []string{relay}, c)
	if !rd.complete {
		r := rd.relays[0]
		return rd, &exitError{Code: exitIncomplete, Kind: "incomplete",
			Err:      fmt.Errorf("%s did not answer for project %s (%s %s); nothing was published", relay, c, r.Status, r.Reason),
			Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
	}
	if rd.best == nil {
		return rd, projectNotFound(c, rd)
	}
	return rd, nil
}

// projectCheck refuses, before signing, what the relay would refuse: an
// invalid patch for the current state, or an actor without authority. The
// home channel's roles come from the same relay's signed NIP-29 state.
func projectCheck(ctx context.Context, pool *relaypool.Pool, relay, self, actor string, st *projects.State, patch projects.Patch) error {
	c := st.Coordinate
	if err := patch.Check(st.Deleted, st.Document); err != nil {
		var r *projects.Refusal
		errors.As(err, &r)
		cmds := []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}
		return &exitError{Code: exitRefused, Kind: r.Code, Err: fmt.Errorf("refused before signing, nothing was published: %v", err),
			Details: map[string]any{"coordinate": c.String(), "revision": st.Revision, "related_channels": orEmptySlice(st.Document.RelatedChannels)}, Commands: cmds}
	}
	home := st.Document.HomeChannel
	var standing projects.ChannelStanding
	var g groups.State
	if actor != c.Owner && home != "" {
		res := pool.Fetch(ctx, []string{relay}, nostr.Filter{Kinds: groups.StateKinds, Tags: nostr.TagMap{"d": {home}}})
		if !res.Complete {
			return &exitError{Code: exitIncomplete, Kind: "incomplete",
				Err: fmt.Errorf("%s did not answer for home channel %s, so roster cannot check your role; nothing was published", relay, home)}
		}
		g = groups.Build(home, self, res.Events)
		standing = projects.ChannelStanding{Live: g.Live(), Roles: g.RolesOf(actor)}
	}
	if err := projects.Authorize(actor, c.Owner, home, standing); err != nil {
		why := fmt.Sprintf("you are not an active owner or admin of its home channel %s", home)
		switch {
		case home == "":
			why = "it has no home channel, so only its owner may"
		case !standing.Live:
			why = fmt.Sprintf("its home channel %s is missing, archived or deleted on %s, so only its owner may", home, relay)
		}
		may := projectWhoMay(c.Owner, home, g)
		cmds := []string{fmt.Sprintf("ask the project owner %s to run this change", projectNpub(c.Owner))}
		if home != "" {
			cmds = append(cmds, fmt.Sprintf("roster group show %s --relay %s", home, relay))
		}
		return &exitError{Code: exitRefused, Kind: "not-authorized",
			Err: fmt.Errorf("refused before signing, nothing was published: %s may not change the related channels of %s: %s. Who may: %s",
				projectNpub(actor), c, why, strings.Join(may, "; ")),
			Details:  map[string]any{"coordinate": c.String(), "actor": actor, "owner": c.Owner, "home_channel": home, "may_change": may},
			Commands: cmds}
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "<home-channel>"
	}
	return s
}

// projectWhoMay lists who may change the project: its owner, and each active
// owner or admin of its live home channel.
func projectWhoMay(owner, home string, g groups.State) []string {
	roles := map[string][]string{owner: {"project owner"}}
	order := []string{owner}
	if g.Live() {
		for _, ad := range g.Admins {
			for _, r := range ad.Roles {
				if r != projects.RoleOwner && r != projects.RoleAdmin {
					continue
				}
				if _, ok := roles[ad.Pubkey]; !ok {
					order = append(order, ad.Pubkey)
				}
				roles[ad.Pubkey] = append(roles[ad.Pubkey], fmt.Sprintf("%s of home channel %s", r, home))
			}
		}
	}
	out := make([]string, len(order))
	for i, pk := range order {
		out[i] = fmt.Sprintf("%s (%s)", projectNpub(pk), strings.Join(roles[pk], ", "))
	}
	return out
}

// projectApplied reports whether doc shows the whole patch.
func projectApplied(doc projects.Document, p projects.Patch) bool {
	for _, ch := range p.Add {
		if !doc.Related(ch) {
			return false
		}
	}
	for _, ch := range p.Remove {
		if doc.Related(ch) {
			return false
		}
	}
	return true
}
