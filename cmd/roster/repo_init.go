package main

import (
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"

	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/nbd-wtf/go-nostr"
	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

type repoInitOptions struct {
	identifier, name, description string
	clone, web                    []string
	setOrigin                     bool
}

func newRepoInitCmd(a *app) *cobra.Command {
	var o repoInitOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Announce this checkout as a repository on Nostr (kind 30617)",
		Long: `init signs a kind 30617 announcement of the current checkout with your key
and publishes it to the chosen relays (--relay, else ROSTER_RELAYS, else
config.yaml's relays): d (from
--identifier or the directory name), r <root-commit> euc, name, description,
clone, web, relays and alt, in the order ngit writes them. A fresh one-person
repository carries no M/m/o role tags and no maintainers tag: its author is the
implicit sole maintainer.

It first fetches your existing announcement of the same identifier from every
relay (all must answer, else exit 4). If one exists with a different root
commit, fork links or maintainers, init refuses (exit 3): changing an
announcement is 'roster repo edit'. An announcement that agrees on those is
refreshed, keeping every tag init does not write.

After publishing it reads the event back from every relay and reports each;
exit 6 when any relay does not return it. It then sets git config nostr.repo
to the repository's naddr and, with --set-origin, points origin at its
nostr:// URL.`,
		Example: `  roster repo init --relay wss://relay.example --description "What it does"
  roster repo init --identifier my-repo --name "My Project" --clone https://git.example/my-repo.git --set-origin
  ROSTER_RELAYS=wss://a.example,wss://b.example roster repo init --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runRepoInit(cmd.Context(), a, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.identifier, "identifier", "", "repository identifier (d tag); default: the directory name")
	f.StringVar(&o.name, "name", "", "human-readable name; default: the directory name")
	f.StringVar(&o.description, "description", "", "one-line description")
	f.StringArrayVar(&o.clone, "clone", nil, "clone URL (repeatable); default: origin's URL when it is not nostr://")
	f.StringArrayVar(&o.web, "web", nil, "web page URL (repeatable)")
	f.BoolVar(&o.setOrigin, "set-origin", false, "also point the origin remote at the repository's nostr:// URL")
	return cmd
}

// repoInitSchema is the JSON of `roster repo init`. v2 names a relay's
// answer as every publishing command does (relaypool.Delivered: "ok", not
// v1's "accepted"); docs/json.md.
const repoInitSchema = "roster.repo-init/v2"

// repoInitResult is roster.repo-init/v2.
type repoInitResult struct {
	Schema     string                `json:"schema"`
	Coordinate repoInitCoord         `json:"coordinate"`
	Published  []string              `json:"published"`
	Replaces   *string               `json:"replaces"`
	Event      *nostr.Event          `json:"event"`
	Relays     []relaypool.Delivered `json:"relays"`
	Verified   bool                  `json:"verified"`
	GitConfig  repoInitConfig        `json:"git_config"`
	Backend    string                `json:"signer_backend"`
	// Error is set when the result is not a success (exit 6): what was
	// published is still reported.
	Error *jsonErrorBody `json:"error,omitempty"`
}

// jsonErrorBody is the docs/json.md error object {code, message, details,
// commands}; a struct, not a map, so the fields print in that order.
type jsonErrorBody struct {
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Details  map[string]any `json:"details"`
	Commands []string       `json:"commands"`
}

type repoInitCoord struct {
	Kind       int    `json:"kind"`
	Pubkey     string `json:"pubkey"`
	Npub       string `json:"npub"`
	Identifier string `json:"identifier"`
	Naddr      string `json:"naddr"`
}

type repoInitConfig struct {
	NostrRepo *string `json:"nostr.repo"`
	Origin    *string `json:"origin"`
}

func runRepoInit(ctx context.Context, a *app, o repoInitOptions) error {
	if a.opts.Offline {
		return usageErr("repo init publishes to relays; it cannot run with --offline")
	}
	co, err := gitstate.Open(a.io.Dir)
	if err != nil {
		return &exitError{Code: exitUsage, Kind: "not-a-checkout", Err: err}
	}
	root, err := co.RootCommit()
	if errors.Is(err, gitstate.ErrNoCommits) {
		return &exitError{Code: exitUsage, Kind: "no-commits",
			Err:      errors.New("the checkout has no commits yet: the announcement names the root commit, so commit first"),
			Commands: []suggest.Command{suggest.Git("commit", "--allow-empty", "-m", "initial commit"), suggest.Roster("repo", "init")}}
	}
	if err != nil {
		return err
	}
	dirName := filepath.Base(co.Dir())
	id := o.identifier
	if id == "" {
		id = identifierFromDir(dirName)
	}
	if err := validIdentifier(id); err != nil {
		return usageErr("%v", err)
	}
	name := o.name
	if name == "" {
		name = dirName
	}
	relays := relaypool.NormalizeRelays(a.defaultRelays())
	if len(relays) == 0 {
		return &exitError{Code: exitUsage, Kind: "no-relays",
			Err:      errors.New("no relays to announce to: pass --relay wss://... (repeatable), set ROSTER_RELAYS, or list relays in config.yaml in the roster home"),
			Commands: []suggest.Command{suggest.Roster("repo", "init", "--relay", "wss://relay.example")}}
	}
	clone := o.clone
	if clone == nil {
		clone = co.OriginCloneURLs()
	}

	s, err := a.signer(ctx)
	if err != nil {
		return err
	}
	pk, err := s.PublicKey(ctx)
	if err != nil {
		return signerError(err)
	}
	coord := graph.NewCoordinate(pk, id)
	pool := relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: s.SignEvent})
	defer pool.Close()

	// Fetch our own announcement of this identifier from every relay first:
	// init must not silently replace one (that is repo edit's job).
	existing := pool.Fetch(ctx, relays, nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{pk}, Tags: nostr.TagMap{"d": []string{id}}})
	if !existing.Complete {
		return &exitError{Code: exitIncomplete, Kind: "incomplete",
			Err: fmt.Errorf("cannot tell whether you already announced %q, since not every relay answered; nothing was published:\n  %s",
				id, strings.Join(unanswered(existing), "\n  ")),
			Details:  map[string]any{"relays": existing.Relays},
			Commands: []suggest.Command{suggest.Roster("repo", "init").With("--timeout", "30s"), suggest.Roster("repo", "init").With("--relay", "<a relay that answers>")}}
	}
	var prev *nostr.Event
	for _, e := range existing.Events {
		if e.Tags.GetD() == id {
			prev = e
			break
		}
	}
	tags := announcementTags(id, root, name, o.description, clone, o.web, relays)
	created := nostr.Timestamp(a.io.Now().Unix())
	res := repoInitResult{Schema: repoInitSchema, Backend: s.Backend(), Published: []string{}}
	if prev != nil {
		if why := identityDifference(prev, pk, root); why != "" {
			return &exitError{Code: exitRefused, Kind: "announcement-exists",
				Err: fmt.Errorf("you already announced %q (event %s) and it differs in identity: %s; nothing was published. "+
					"Change an existing announcement with roster repo edit, or announce under another --identifier", id, prev.ID, why),
				Details:  map[string]any{"identifier": id, "event_id": prev.ID},
				Commands: []suggest.Command{suggest.Roster("repo", "edit", "--help").Because("changes an announced repository"), suggest.Roster("repo", "init", "--identifier", id+"-2")}}
		}
		tags = append(tags, carriedTags(prev)...)
		if created <= prev.CreatedAt {
			created = prev.CreatedAt + 1 // a replacement must be newer to replace
		}
		res.Replaces = &prev.ID
	}
	evt := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: created, Tags: tags, Content: ""}
	if err := s.SignEvent(ctx, evt); err != nil {
		return signerError(err)
	}
	res.Event = evt
	heldSomewhere := publishAndReadBack(ctx, pool, relays, evt, &res)

	naddr := gitstate.EncodeNaddr(coord, relays)
	res.Coordinate = repoInitCoord{Kind: coord.Kind, Pubkey: pk, Npub: graph.Npub(pk), Identifier: id, Naddr: naddr}
	if heldSomewhere {
		// Point the checkout at the coordinate once any relay holds it.
		if err := co.SetNostrRepo(naddr); err != nil {
			return err
		}
		res.GitConfig.NostrRepo = &naddr
		if o.setOrigin {
			u := gitstate.NostrURL(coord, relays)
			if err := co.SetOrigin(u); err != nil {
				return err
			}
			res.GitConfig.Origin = &u
		}
	}
	return reportRepoInit(a, res, relays)
}

// publishAndReadBack publishes evt to every relay and reads it back from
// each, recording every relay's answer in res (Relays, Published, Verified:
// every relay returned it). It reports whether any relay returned it.
func publishAndReadBack(ctx context.Context, pool *relaypool.Pool, relays []string, evt *nostr.Event, res *repoInitResult) bool {
	d := pool.Deliver(ctx, relays, evt, relaypool.DeliverOptions{})
	res.Relays = d.Relays
	if d.Accepted > 0 {
		res.Published = []string{evt.ID}
	}
	res.Verified = len(d.Relays) > 0
	held := false
	for _, r := range d.Relays {
		res.Verified = res.Verified && r.ReadBack
		held = held || r.ReadBack
	}
	return held
}

// reportRepoInit prints the result. A publish some relay did not return is
// exit 6; with --json its error rides along inside the result.
func reportRepoInit(a *app, res repoInitResult, relays []string) error {
	if !res.Verified {
		ee := &exitError{Code: exitUnverified, Kind: "unverified",
			Err:     fmt.Errorf("published %s, but %s did not return it on read-back", res.Event.ID, strings.Join(notReadBack(res.Relays), ", ")),
			Details: map[string]any{"published": res.Published, "relays": res.Relays},
			Commands: []suggest.Command{suggest.Roster("repo", "init").With(relayWords(notReadBack(res.Relays))...),
				suggest.Roster("repo").With(relayWords(relays)...)}}
		if a.opts.JSON {
			// The result is the useful part; the error rides along in it.
			res.Error = &jsonErrorBody{Code: ee.Kind, Message: ee.Err.Error(), Details: ee.Details, Commands: a.render(ee.Commands)}
			if err := writeJSON(a, res); err != nil {
				return err
			}
			ee.Printed = true
			return ee
		}
		renderRepoInit(a, res)
		return ee
	}
	if a.opts.JSON {
		return writeJSON(a, res)
	}
	renderRepoInit(a, res)
	return nil
}

// identifierFromDir turns a directory name into an identifier the way ngit
// suggests one: lowercase, whitespace as "-".
func identifierFromDir(dir string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(dir), unicode.IsSpace), "-")
}

func validIdentifier(id string) error {
	if id == "" || id == "." || id == "/" {
		return errors.New("the repository identifier is empty: pass --identifier")
	}
	for _, r := range id {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '/' {
			return fmt.Errorf("identifier %q may not contain whitespace, control characters or '/'", id)
		}
	}
	return nil
}

// unanswered lists the relays that did not answer, one relayFailure each.
func unanswered(res *relaypool.FetchResult) []string {
	var out []string
	for _, r := range res.Relays {
		if r.Status != relaypool.StatusOK {
			out = append(out, relayFailure(r.URL, r.Status, r.Reason))
		}
	}
	return out
}

func notReadBack(rs []relaypool.Delivered) []string {
	var out []string
	for _, r := range rs {
		if !r.ReadBack {
			out = append(out, r.URL)
		}
	}
	return out
}

// relayWords are `--relay <url>` for each relay.
func relayWords(relays []string) []string {
	out := make([]string, 0, 2*len(relays))
	for _, r := range relays {
		out = append(out, "--relay", r)
	}
	return out
}

func renderRepoInit(a *app, res repoInitResult) {
	w := a.io.Out
	verb := "Announced"
	if res.Replaces != nil {
		verb = "Re-announced"
	}
	fmt.Fprintf(w, "%s %s as %s (event %s, signed via %s)\n", verb, termtext.Line(res.Coordinate.Identifier), res.Coordinate.Npub, res.Event.ID, res.Backend)
	for _, r := range res.Relays {
		status := "accepted, read back"
		switch {
		case !r.OK:
			status = "refused: " + termtext.Line(r.Message)
		case !r.ReadBack:
			status = "accepted, NOT returned on read-back"
		}
		fmt.Fprintf(w, "  %-40s %s\n", termtext.Line(r.URL), status)
	}
	if res.GitConfig.NostrRepo != nil {
		fmt.Fprintf(w, "git config nostr.repo = %s\n", termtext.Line(*res.GitConfig.NostrRepo))
	}
	if res.GitConfig.Origin != nil {
		fmt.Fprintf(w, "git remote origin     = %s\n", termtext.Line(*res.GitConfig.Origin))
	}
}
