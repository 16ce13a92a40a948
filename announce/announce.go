// Package announce is the first write: announce a Git checkout as a
// repository on Nostr (kind 30617, `roster repo init`). It fetches the
// author's existing announcement of the identifier from every relay, refuses
// to replace one that differs in identity, signs init's tags (keeping every
// tag of an agreeing announcement it does not write), publishes, reads back
// from every relay and, once any relay holds it, points the checkout at the
// coordinate. The checkout, signer, relays and clock are passed in; nothing
// here renders.
package announce

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/suggest"
)

// Request is what the user asked for. Empty Identifier and Name default to
// the checkout directory's name; nil Clone to origin's non-nostr:// URLs.
type Request struct {
	Identifier, Name, Description string
	Clone, Web                    []string
	// SetOrigin also points origin at the repository's nostr:// URL.
	SetOrigin bool
	// DryRun reads and builds the announcement and stops before signing:
	// Result.Event is the unsigned event that would be published.
	DryRun bool
}

// Pipeline is what an announcement needs from the outside world.
type Pipeline struct {
	Checkout *gitstate.Checkout
	// Signer opens the signer, once the request is known to be valid (so a
	// bad identifier or a missing relay is reported before any prompt).
	Signer func(context.Context) (signer.Signer, error)
	// Relays are where to announce, normalized.
	Relays []string
	Pool   *relaypool.Pool
	Now    func() time.Time
	// Journal keeps the signed announcement from before the first relay is
	// sent it until every relay returns it (nil: none). Notice, when set,
	// is told the journal's unfinished writes of the coordinate before
	// anything is signed.
	Journal *journal.Dir
	Notice  func([]journal.Unfinished)
}

// Result is what was announced.
type Result struct {
	Coordinate graph.Coordinate
	// Naddr is the coordinate with the relays as hints.
	Naddr string
	Event *nostr.Event
	// Replaces is the id of the refreshed earlier announcement, if any.
	Replaces *string
	Delivery *relaypool.Delivery
	// Verified: every relay returned the event on read-back.
	Verified bool
	// Unchanged: the announcement already had exactly these tags, so
	// nothing was published (Event is that announcement).
	Unchanged bool
	// NostrRepo and Origin are what the checkout's configuration was set to
	// (nil when unchanged: nothing is pointed at a coordinate no relay holds).
	NostrRepo, Origin *string
	// DryRun: nothing was signed or published; Event is the unsigned
	// announcement that would be (its id and signature empty).
	DryRun bool
	// Unfinished are the journal's unfinished writes of the coordinate;
	// Journal the id of this announcement's own unfinished write ("" once
	// every relay returned it, or when no relay can hold it).
	Unfinished []journal.Unfinished
	Journal    string
}

// Error kinds: the stable codes of what stopped an announcement.
const (
	KindNoCommits  = "no-commits" // usage: the checkout has no root commit
	KindUsage      = "usage"      // usage: a bad identifier
	KindNoRelays   = "no-relays"  // usage: nowhere to announce
	KindIncomplete = "incomplete" // a relay did not answer the existing-announcement check
	KindExists     = "announcement-exists"
	KindLocalClone = "local-clone-url" // usage: origin is a local path nobody else can clone from
	// KindConcurrentChange: the author's announcement of the identifier
	// changed while init signed its own; nothing was sent (exit 3).
	KindConcurrentChange = "concurrent-change"
	// KindJournalUnreadable: the journal of unfinished writes cannot be
	// read (nothing was signed); KindJournal: the signed announcement could
	// not be kept in it (nothing was published).
	KindJournalUnreadable = track.CodeUnreadable
	KindJournal           = track.CodeUnwritable
)

// Error is what stopped an announcement before anything was published:
// the one failure type (failure.Failure: class, code, message, details,
// the commands to run next) with the existing-announcement check.
type Error struct {
	failure.Failure
	// Fetch is the existing-announcement check (KindIncomplete).
	Fetch *relaypool.FetchResult
}

// fail is the Error of class with code and msg; next are the commands to
// run next.
func fail(class failure.Class, code, msg string, next ...suggest.Command) *Error {
	return &Error{Failure: failure.Failure{Class: class, Code: code, Msg: msg, Next: next}}
}

// SignerError is the signer failing to give its key or a signature.
type SignerError = failure.SignerError

// Run announces the checkout.
func (p Pipeline) Run(ctx context.Context, req Request) (*Result, error) {
	co := p.Checkout
	root, err := co.RootCommit()
	if errors.Is(err, gitstate.ErrNoCommits) {
		return nil, fail(failure.Usage, KindNoCommits, "the checkout has no commits yet: the announcement names the root commit, so commit first",
			suggest.Git("commit", "--allow-empty", "-m", "initial commit"), suggest.Roster("repo", "init"))
	}
	if err != nil {
		return nil, err
	}
	dirName := filepath.Base(co.Dir())
	id := req.Identifier
	if id == "" {
		id = IdentifierFromDir(dirName)
	}
	if err := ValidIdentifier(id); err != nil {
		return nil, fail(failure.Usage, KindUsage, err.Error())
	}
	name := req.Name
	if name == "" {
		name = dirName
	}
	if len(p.Relays) == 0 {
		return nil, fail(failure.Usage, KindNoRelays, "no relays to announce to: pass --relay wss://... (repeatable), set ROSTER_RELAYS, or list relays in config.yaml (~/.config/roster, or --home)",
			suggest.Roster("repo", "init", "--relay", "wss://<relay>"))
	}
	clone, explicit := req.Clone, req.Clone != nil
	if !explicit {
		clone = co.OriginCloneURLs()
	}
	clone, err = CloneURLsToWrite(clone, explicit)
	if err != nil {
		e := fail(failure.Usage, KindUsage, err.Error(), suggest.Roster("repo", "init", "--clone", "https://<git server>/<repo>.git"))
		if le := (*LocalCloneError)(nil); errors.As(err, &le) {
			e.Code = KindLocalClone
			e.Details = map[string]any{"url": le.URL}
		}
		return nil, e
	}
	s, err := p.Signer(ctx)
	if err != nil {
		return nil, &SignerError{Err: err}
	}
	pk, err := s.PublicKey(ctx)
	if err != nil {
		return nil, &SignerError{Err: err}
	}
	coord := graph.NewCoordinate(pk, id)

	// Fetch our own announcement of this identifier from every relay first:
	// init must not silently replace one (that is repo edit's job).
	existing, prev := p.ownAnnouncement(ctx, pk, id)
	if !existing.Complete {
		e := fail(failure.Incomplete, KindIncomplete, fmt.Sprintf("cannot tell whether you already announced %q, since not every relay answered; nothing was published", id), retryInit(existing)...)
		e.Details, e.Fetch = map[string]any{"relays": existing.Relays}, existing
		return nil, e
	}
	tags := announcementTags(id, root, name, req.Description, clone, req.Web, p.Relays)
	created := nostr.Timestamp(p.Now().Unix())
	res := &Result{Coordinate: coord, DryRun: req.DryRun}
	// An unfinished write of this coordinate is said before anything is
	// signed; a journal that cannot be read stops init (it fails closed).
	us, err := track.Check(p.Journal, existing.Sources, coord.ATag(), coord.ATag())
	if err != nil {
		e := fail(failure.Unexpected, KindJournalUnreadable, "cannot tell whether an earlier write of this repository did not finish, so nothing was signed: "+err.Error(),
			suggest.Roster("pending").Because("list the unfinished writes and the journal files that cannot be read"), req.command(id))
		e.Err = err
		return nil, e
	}
	res.Unfinished = us
	if len(us) > 0 && p.Notice != nil {
		p.Notice(us)
	}
	if prev != nil {
		if why := identityDifference(prev, pk, root); why != "" {
			e := fail(failure.Refused, KindExists, fmt.Sprintf("you already announced %q (event %s) and it differs in identity: %s; nothing was published. "+
				"Change an existing announcement with roster repo edit, or announce under another --identifier", id, prev.ID, why),
				editInstead(req, gitstate.EncodeNaddr(coord, p.Relays)), suggest.Roster("repo", "init", "--identifier", id+"-2"))
			e.Details = map[string]any{"identifier": id, "event_id": prev.ID}
			return nil, e
		}
		// The carried tags (a sole-author maintainers tag, hashtags,
		// upstreams, unknown tags) take their places in ngit's order.
		tags = graph.InNgitTagOrder(append(tags, carriedTags(prev)...))
		if created <= prev.CreatedAt {
			created = prev.CreatedAt + 1 // a replacement must be newer to replace
		}
		res.Replaces = &prev.ID
		if sameTagSet(tags, prev.Tags) && prev.Content == "" && heldByAll(existing.Sources[prev.ID], p.Relays) {
			// No change, no event: the announcement already says this, on
			// every relay (one that lacks it still gets it).
			res.Replaces, res.Event, res.Unchanged, res.Verified = nil, prev, true, true
			res.Delivery = &relaypool.Delivery{}
			res.Naddr = gitstate.EncodeNaddr(coord, p.Relays)
			if req.DryRun {
				return res, nil
			}
			return res, p.pointCheckout(res, coord, req.SetOrigin)
		}
	}
	evt := &nostr.Event{Kind: graph.KindAnnouncement, PubKey: pk, CreatedAt: created, Tags: tags, Content: ""}
	res.Naddr = gitstate.EncodeNaddr(coord, p.Relays)
	if req.DryRun {
		// The preview: exactly the event that would be signed, unsigned.
		res.Event = evt
		res.Delivery = &relaypool.Delivery{}
		return res, nil
	}
	if err := s.SignEvent(ctx, evt); err != nil {
		return nil, &SignerError{Err: err}
	}
	res.Event = evt
	w, err := track.Begin(p.Journal, []journal.Entry{p.entry(req, id, coord, prev, evt)})
	if err != nil {
		e := fail(failure.Unexpected, KindJournal, "cannot keep the signed announcement in the journal of unfinished writes before sending it, so nothing was published: "+err.Error(),
			suggest.Roster("pending").Because("see the unfinished writes"), req.command(id).Because("run it again once the journal can be written"))
		e.Err = err
		return nil, e
	}
	if err := p.stillAsRead(ctx, req, pk, id, prev); err != nil {
		w.End(false, false) // nothing was sent
		return nil, err
	}
	res.Delivery = p.Pool.Deliver(ctx, p.Relays, evt, relaypool.DeliverOptions{Answered: w.Answered(0)})
	res.Verified = len(res.Delivery.Relays) > 0
	held := false
	for _, r := range res.Delivery.Relays {
		res.Verified = res.Verified && r.ReadBack
		held = held || r.ReadBack
	}
	if w.End(res.Verified, track.MayBeStored(res.Delivery)) {
		res.Journal = w.ID
	}
	if held {
		// Point the checkout at the coordinate once any relay holds it.
		return res, p.pointCheckout(res, coord, req.SetOrigin)
	}
	return res, nil
}

// ownAnnouncement asks every relay for the author pk's announcements of
// id and returns the answer and the latest of them (nil when none).
func (p Pipeline) ownAnnouncement(ctx context.Context, pk, id string) (*relaypool.FetchResult, *nostr.Event) {
	res := p.Pool.Fetch(ctx, p.Relays, nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{pk}, Tags: nostr.TagMap{"d": []string{id}}})
	var latest *nostr.Event
	for _, e := range res.Events {
		if e.Tags.GetD() == id && (latest == nil || graph.Newer(e, latest)) {
			latest = e
		}
	}
	return res, latest
}

// stillAsRead reads the author's announcement of id again right before
// the signed one is sent: one published meanwhile (the author's other
// machine, while this one was signed) would be replaced unseen, which
// init never does. Another latest announcement than prev (or one where
// there was none), or a relay that does not answer, stops init with
// nothing sent.
func (p Pipeline) stillAsRead(ctx context.Context, req Request, pk, id string, prev *nostr.Event) error {
	again, latest := p.ownAnnouncement(ctx, pk, id)
	if !again.Complete {
		e := fail(failure.Incomplete, KindIncomplete, fmt.Sprintf("cannot tell whether your announcement of %q changed while this one was signed, since not every relay answered when asked again right before sending; nothing was published", id), retryInit(again)...)
		e.Details, e.Fetch = map[string]any{"relays": again.Relays}, again
		return e
	}
	if latest == nil && prev == nil || latest != nil && prev != nil && latest.ID == prev.ID {
		return nil
	}
	read, found := "none", "none"
	if prev != nil {
		read = prev.ID
	}
	if latest != nil {
		found = latest.ID
	}
	e := fail(failure.Refused, KindConcurrentChange, fmt.Sprintf("your announcement of %q changed while this one was signed (a relay serves %s; init read %s), so it was not sent; nothing was published: rerun to compare with it", id, found, read),
		req.command(id).Because("compare with the announcement as it is now"))
	e.Details = map[string]any{"identifier": id, "event_id": found, "read": read}
	return e
}

// entry is the journal entry of the signed announcement: the command that
// reruns init, the relays, the one event init's check read (the author's
// previous announcement of the identifier, or none) and the verification.
func (p Pipeline) entry(req Request, id string, coord graph.Coordinate, prev, evt *nostr.Event) journal.Entry {
	preview := map[string]string{}
	if prev != nil {
		preview[fmt.Sprintf("%d:%s", graph.KindAnnouncement, prev.PubKey)] = prev.ID
	}
	return journal.Entry{Pipeline: journal.PipelineAnnounce, Command: req.command(id).Words()[1:],
		Repo: coord.ATag(), Address: coord.ATag(), Relays: p.Relays, Preview: preview, Event: evt,
		Verify: journal.Verification{What: "every relay returns the announcement as the latest version of its address"}}
}

// command is the init that reruns req (announcing identifier id).
func (req Request) command(id string) suggest.Command {
	c := suggest.Roster("repo", "init", "--identifier", id)
	if req.Name != "" {
		c = c.With("--name", req.Name)
	}
	if req.Description != "" {
		c = c.With("--description", req.Description)
	}
	for _, u := range req.Clone {
		c = c.With("--clone", u)
	}
	for _, u := range req.Web {
		c = c.With("--web", u)
	}
	if req.SetOrigin {
		c = c.With("--set-origin")
	}
	return c
}

// pointCheckout sets git config nostr.repo to the coordinate and, with
// setOrigin, origin to its nostr:// URL.
func (p Pipeline) pointCheckout(res *Result, coord graph.Coordinate, setOrigin bool) error {
	if err := p.Checkout.SetNostrRepo(res.Naddr); err != nil {
		return err
	}
	res.NostrRepo = &res.Naddr
	if setOrigin {
		u := gitstate.NostrURL(coord, p.Relays)
		if err := p.Checkout.SetOrigin(u); err != nil {
			return err
		}
		res.Origin = &u
	}
	return nil
}

// sameTagSet reports whether a and b hold the same tags, each as often, in
// any order.
func sameTagSet(a, b nostr.Tags) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, t := range a {
		count[strings.Join(t, "\x00")]++
	}
	for _, t := range b {
		k := strings.Join(t, "\x00")
		if count[k] == 0 {
			return false
		}
		count[k]--
	}
	return true
}

// NotReadBack lists the relays that did not return the event.
func (r *Result) NotReadBack() []string {
	var out []string
	for _, d := range r.Delivery.Relays {
		if !d.ReadBack {
			out = append(out, d.URL)
		}
	}
	return out
}

// IdentifierFromDir turns a directory name into an identifier the way ngit
// suggests one: lowercase, whitespace as "-".
func IdentifierFromDir(dir string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(dir), unicode.IsSpace), "-")
}

// ValidIdentifier refuses an identifier no `d` tag and nostr:// URL can carry.
func ValidIdentifier(id string) error {
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

// heldByAll reports whether every relay is among those that returned an event.
func heldByAll(sources, relays []string) bool {
	for _, r := range relays {
		found := false
		for _, s := range sources {
			found = found || s == r
		}
		if !found {
			return false
		}
	}
	return len(relays) > 0
}

// retryInit is what to run when not every relay answered: a longer
// --timeout only when a relay timed out (it does not help one that refused
// the connection), and other relays.
func retryInit(fr *relaypool.FetchResult) []suggest.Command {
	var cmds []suggest.Command
	for _, r := range fr.Relays {
		if r.Status == relaypool.StatusTimeout {
			cmds = append(cmds, suggest.Roster("repo", "init").With("--timeout", "30s").Because("give slow relays longer"))
			break
		}
	}
	return append(cmds, suggest.Roster("repo", "init").With("--relay", "<a relay that answers>"))
}
