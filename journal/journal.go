// Package journal keeps every event roster signs on disk from before the
// first relay is sent it until the write's verification passes, so that a
// write interrupted by a dropped connection, a kill or a closed lid is never
// a signed event on some relays that roster does not know about. Each event
// is one file (mode 0600, fsync'd, its directory fsync'd) in the data
// directory, outside the cache, which is always safe to clear. An entry
// carries what resuming the write needs: the command that made it, the
// relays it must reach, the event ids its preview used (the recheck's
// fingerprint) and the verification it awaits. The journal is bounded: at
// most MaxEntries files, each at most MaxEntryBytes.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// Bounds of the journal: what one write may store and how much a listing
// reads. A write that would pass them is refused before anything is sent.
const (
	// MaxEntries is how many event files the journal holds at once.
	MaxEntries = 64
	// MaxEntryBytes is the largest file one event's entry may take.
	MaxEntryBytes = 1 << 20
	// MaxRelays is how many relays one entry may name.
	MaxRelays = 64
	// MaxPreviewIDs is how many fingerprint keys one entry may keep.
	MaxPreviewIDs = 4096
	// MaxCommandWords bounds the stored command.
	MaxCommandWords = 64
)

// AcceptanceWindow is how old a signed event may be when it is sent again:
// relays refuse events dated too far from their clock (NIP-PC's ordinary
// timestamp-drift window, NIP-29's late-publication rule; strfry's default,
// which roster also keeps for the future side, is 15 minutes). An older
// event is never resent: the intent is rerun and signs a fresh one.
const AcceptanceWindow = 15 * time.Minute

// Version is the entry format's version; other versions are not read.
const Version = 1

// The pipelines an entry belongs to: which recheck and verification a
// resume runs.
const (
	PipelineMembership = "membership"
	PipelineState      = "state-publish"
	PipelineWorkspace  = "nip-sw"
	// PipelineAnnounce is `repo init`'s announcement: its recheck compares
	// only the author's own announcement of the identifier, which is all
	// init reads.
	PipelineAnnounce = "repo-init"
)

// Entry is one signed event of a write and what finishing the write needs.
type Entry struct {
	Version int `json:"version"`
	// Write names the write: the id of its first event. Seq is the event's
	// place in the write (from 0), Of how many events the write has; they
	// are resumed in that order.
	Write string `json:"write"`
	Seq   int    `json:"seq"`
	Of    int    `json:"of"`
	// Pipeline is one of the Pipeline* constants.
	Pipeline string `json:"pipeline"`
	// Command is the command that made the write, as words after
	// "roster" ("repo", "edit", "--add", "npub1…"), rerun to sign afresh.
	Command []string `json:"command"`
	// Repo is the coordinate the write's discovery selected
	// ("30617:<hex>:<identifier>"), Address the event's own address
	// ("30617:<hex>:<identifier>", "30618:<hex>:<identifier>", a NIP-SW
	// community and owner); a later write to either is told of the entry.
	Repo    string `json:"repo"`
	Address string `json:"address"`
	// Relays are the relays the event must reach.
	Relays []string `json:"relays"`
	// Preview is the fingerprint the preview used: every announcement and
	// kind 30618 candidate (and deletion), key to event id.
	Preview map[string]string `json:"preview,omitempty"`
	// Verify is the verification the write awaits.
	Verify Verification `json:"verify"`
	// Event is the signed event, sent again byte for byte.
	Event *nostr.Event `json:"event"`
	// Acked are the relays recorded as having answered OK true. A process
	// killed between a relay's OK and this record leaves it out: readers
	// ask the relays which hold the event.
	Acked []string `json:"acked,omitempty"`
	// Signed is when the entry was written (the event's created_at is
	// what relays judge).
	Signed time.Time `json:"signed"`
}

// Verification is what a write checks once every relay holds its events:
// the re-read resolves these (empty fields are not checked).
type Verification struct {
	// What says it in words ("every relay keeps it as the latest version
	// and the repository resolves as previewed").
	What string `json:"what"`
	// Lead, LeadSource, Maintainers and Moderators are the resolution
	// the preview showed (members as "<hex>:<status>").
	Lead        string   `json:"lead,omitempty"`
	LeadSource  string   `json:"lead_source,omitempty"`
	Maintainers []string `json:"maintainers,omitempty"`
	Moderators  []string `json:"moderators,omitempty"`
	// State is the kind 30618 event the repository must resolve.
	State string `json:"state,omitempty"`
}

// Write is one write's entries, in order.
type Write struct {
	ID      string
	Entries []Entry
}

// First is the write's first entry (its command, coordinate and relays).
func (w Write) First() Entry { return w.Entries[0] }

// Complete reports whether every event of the write is in the journal.
func (w Write) Complete() bool {
	if len(w.Entries) == 0 || len(w.Entries) != w.Entries[0].Of {
		return false
	}
	for i, e := range w.Entries {
		if e.Seq != i {
			return false
		}
	}
	return true
}

// EventIDs are the write's event ids in order.
func (w Write) EventIDs() []string {
	out := make([]string, len(w.Entries))
	for i, e := range w.Entries {
		out[i] = e.Event.ID
	}
	return out
}

// Touches reports whether the write concerns repository coordinate repo
// or address: the same selection, or an event of the same address.
func (w Write) Touches(repo string, addresses ...string) bool {
	for _, e := range w.Entries {
		if repo != "" && e.Repo == repo || slices.Contains(addresses, e.Address) {
			return true
		}
	}
	return false
}

// Unfinished is an unfinished write that touches the coordinate a command
// is about to change, with the relays known to hold each of its events.
type Unfinished struct {
	Write Write
	// Holding maps each event id of the write to the relays that hold it.
	Holding map[string][]string
}

// Holding is, for each event of w, the relays known to hold it: those the
// journal recorded as accepting it, then those sources (event id to the
// relays that returned it, as a read reports them) name.
func (w Write) Holding(sources map[string][]string) map[string][]string {
	out := map[string][]string{}
	for _, e := range w.Entries {
		seen := map[string]bool{}
		rs := []string{}
		for _, u := range append(append([]string{}, e.Acked...), sources[e.Event.ID]...) {
			if !seen[u] {
				seen[u] = true
				rs = append(rs, u)
			}
		}
		out[e.Event.ID] = rs
	}
	return out
}

// Dir is the journal in Root (<data dir>/journal). The zero Root is no
// journal: Begin and the rest do nothing. Safe for concurrent use by one
// process; a write's files are written by the process that owns it.
type Dir struct {
	Root string
	mu   *sync.Mutex
	// err is why there is no journal where there must be one (Unavailable).
	err error
}

// Unavailable is the journal of a data directory that cannot be found:
// every write (Begin) and every read (List, Touching) fails with err, so a
// write stops instead of signing unjournaled.
func Unavailable(err error) *Dir { return &Dir{err: err} }

// Open returns the journal kept in the data directory data.
func Open(data string) *Dir {
	return &Dir{Root: filepath.Join(data, "journal"), mu: &sync.Mutex{}}
}

func (d *Dir) lock() func() {
	if d.mu == nil {
		return func() {}
	}
	d.mu.Lock()
	return d.mu.Unlock
}

// ErrFull is Begin refusing a write the journal has no room for.
var ErrFull = errors.New("the journal of unfinished writes is full")

// FullError says the journal holds too many unfinished writes.
type FullError struct{ Held, Adding int }

func (e *FullError) Error() string {
	return fmt.Sprintf("%v (%d of %d event files, %d more needed): resume or discard the unfinished writes with `roster pending`", ErrFull, e.Held, MaxEntries, e.Adding)
}
func (e *FullError) Unwrap() error { return ErrFull }

// Begin writes the entries of one write (filling Version, Write, Seq, Of and
// Signed), each durably, before any of their events is sent. It refuses an
// entry over the bounds and a write the journal has no room for.
func (d *Dir) Begin(entries []Entry) error {
	if d != nil && d.err != nil && len(entries) > 0 {
		return d.err
	}
	if d == nil || d.Root == "" || len(entries) == 0 {
		return nil
	}
	defer d.lock()()
	if err := os.MkdirAll(d.Root, 0o700); err != nil {
		return err
	}
	held, err := d.names()
	if err != nil {
		return err
	}
	if len(held)+len(entries) > MaxEntries {
		return &FullError{Held: len(held), Adding: len(entries)}
	}
	write := entries[0].Event.ID
	now := time.Now().UTC()
	for i := range entries {
		e := &entries[i]
		e.Version, e.Write, e.Seq, e.Of, e.Signed = Version, write, i, len(entries), now
		if err := check(e); err != nil {
			return err
		}
	}
	for i := range entries {
		if err := d.put(&entries[i]); err != nil {
			return err
		}
	}
	return syncDir(d.Root)
}

// check enforces the bounds and the shape of an entry.
func check(e *Entry) error {
	switch {
	case e.Event == nil || !hex64(e.Event.ID):
		return errors.New("journal: an entry without a signed event")
	case len(e.Relays) > MaxRelays:
		return fmt.Errorf("journal: %d relays, at most %d", len(e.Relays), MaxRelays)
	case len(e.Preview) > MaxPreviewIDs:
		return fmt.Errorf("journal: %d preview events, at most %d", len(e.Preview), MaxPreviewIDs)
	case len(e.Command) > MaxCommandWords:
		return fmt.Errorf("journal: a command of %d words, at most %d", len(e.Command), MaxCommandWords)
	}
	return nil
}

// Acked records that relay answered OK true to the write's seq-th event.
func (d *Dir) Acked(write string, seq int, relay string) error {
	if d == nil || d.Root == "" {
		return nil
	}
	defer d.lock()()
	e, err := d.read(d.path(write, seq))
	if err != nil {
		return err
	}
	if slices.Contains(e.Acked, relay) {
		return nil
	}
	e.Acked = append(e.Acked, relay)
	sort.Strings(e.Acked)
	return d.put(e)
}

// Finish removes the write's entries (verification passed, or nothing of
// it was stored anywhere).
func (d *Dir) Finish(write string) error {
	if d == nil || d.Root == "" || !hex64(write) {
		return nil
	}
	defer d.lock()()
	names, err := d.names()
	if err != nil {
		return err
	}
	var firstErr error
	for _, n := range names {
		if strings.HasPrefix(n, write+"-") {
			if err := os.Remove(filepath.Join(d.Root, n)); err != nil && !errors.Is(err, os.ErrNotExist) && firstErr == nil {
				firstErr = err
			}
		}
	}
	if firstErr != nil {
		return firstErr
	}
	return syncDir(d.Root)
}

// Problem is a journal file that cannot be read as an entry: it is listed,
// never sent.
type Problem struct {
	File string
	// Write is the write the file's name says it belongs to ("" when the
	// name is not <write>-<seq>.json); Repo and Address are the entry's
	// when the file still parses as JSON.
	Write   string
	Repo    string
	Address string
	Err     error
}

// ID is how `roster pending discard` names the file: its write's id, else
// the file's name.
func (p Problem) ID() string {
	if p.Write != "" {
		return p.Write
	}
	return filepath.Base(p.File)
}

// Touches reports whether the unreadable file may be an entry of a write
// of repo or one of addresses: it names one of them, or it names neither
// a repository nor an address that can be told apart (it does not parse).
func (p Problem) Touches(repo string, addresses ...string) bool {
	if p.Repo == "" && p.Address == "" {
		return true
	}
	return repo != "" && p.Repo == repo || slices.Contains(addresses, p.Address)
}

// ErrUnreadable is a journal, or a journal file, that cannot be read: a
// write it may concern stops before signing anything.
var ErrUnreadable = errors.New("the journal of unfinished writes cannot be read")

// UnreadableError says what of the journal could not be read: the
// directory itself (Err), or the files that may hold an unfinished write
// of the coordinate a command is about to change (Problems).
type UnreadableError struct {
	Root     string
	Err      error
	Problems []Problem
}

func (e *UnreadableError) Error() string {
	if e.Err != nil && e.Root == "" {
		return fmt.Sprintf("%v (%v): give roster a home it can write (--home or ROSTER_HOME), then run the command again", ErrUnreadable, e.Err)
	}
	if e.Err != nil {
		return fmt.Sprintf("%v (%v): fix the permissions of %s (it must be a directory readable and writable by you, mode 0700), then run the command again", ErrUnreadable, e.Err, e.Root)
	}
	parts := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		parts = append(parts, fmt.Sprintf("%s (%v)", p.File, p.Err))
	}
	fix := "fix its permissions if it is yours, or forget it with `roster pending discard " + shortID(e.Problems[0].ID()) + "`"
	if len(e.Problems) > 1 {
		fix = "fix their permissions if they are yours, or forget each with `roster pending discard <id>` (`roster pending` lists them)"
	}
	return fmt.Sprintf("%v: %s may hold an unfinished write of this coordinate; %s, then run the command again",
		ErrUnreadable, strings.Join(parts, ", "), fix)
}

func (e *UnreadableError) Unwrap() error { return ErrUnreadable }

// shortID is a write's id as commands name it (a file name stays whole).
func shortID(id string) string {
	if hex64(id) {
		return id[:12]
	}
	return id
}

// List reads every write in the journal, oldest first, and the files that
// are not valid entries (too big, not JSON, another version, an event whose
// id or signature does not verify).
func (d *Dir) List() ([]Write, []Problem, error) {
	if d != nil && d.err != nil {
		return nil, nil, d.err
	}
	if d == nil || d.Root == "" {
		return nil, nil, nil
	}
	defer d.lock()()
	names, err := d.names()
	if err != nil {
		return nil, nil, err
	}
	var problems []Problem
	byWrite := map[string]*Write{}
	var order []string
	for i, n := range names {
		if i >= 2*MaxEntries {
			problems = append(problems, Problem{File: filepath.Join(d.Root, n), Write: writeOfName(n), Err: fmt.Errorf("more than %d files in the journal; not read", 2*MaxEntries)})
			continue
		}
		e, err := d.read(filepath.Join(d.Root, n))
		if err != nil {
			problems = append(problems, problemOf(filepath.Join(d.Root, n), err))
			continue
		}
		w := byWrite[e.Write]
		if w == nil {
			w = &Write{ID: e.Write}
			byWrite[e.Write] = w
			order = append(order, e.Write)
		}
		w.Entries = append(w.Entries, *e)
	}
	out := make([]Write, 0, len(order))
	for _, id := range order {
		w := byWrite[id]
		sort.Slice(w.Entries, func(i, j int) bool { return w.Entries[i].Seq < w.Entries[j].Seq })
		out = append(out, *w)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].First().Signed.Before(out[j].First().Signed) })
	return out, problems, nil
}

// Find is the write whose id (or an unambiguous prefix of at least 8 hex
// digits) is id.
func (d *Dir) Find(id string) (*Write, error) {
	writes, _, err := d.List()
	if err != nil {
		return nil, err
	}
	var found []Write
	for _, w := range writes {
		if w.ID == id || len(id) >= 8 && strings.HasPrefix(w.ID, strings.ToLower(id)) {
			found = append(found, w)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return &found[0], nil
	}
	return nil, fmt.Errorf("%q names %d unfinished writes; give more of the id", id, len(found))
}

// Touching are the writes that concern repository coordinate repo or one
// of addresses. It fails closed: a journal directory that cannot be read,
// or a file that cannot be read as an entry and may be one of such a write
// (it names the coordinate or an address, or it does not parse), is an
// *UnreadableError, and the writes it did read are returned beside it.
func (d *Dir) Touching(repo string, addresses ...string) ([]Write, error) {
	writes, problems, err := d.List()
	if err != nil {
		return nil, &UnreadableError{Root: d.Root, Err: err}
	}
	var out []Write
	for _, w := range writes {
		if w.Touches(repo, addresses...) {
			out = append(out, w)
		}
	}
	var touching []Problem
	for _, p := range problems {
		if p.Touches(repo, addresses...) {
			touching = append(touching, p)
		}
	}
	if len(touching) > 0 {
		return out, &UnreadableError{Root: d.Root, Problems: touching}
	}
	return out, nil
}

// Discard removes an unfinished write (by its id or an unambiguous prefix
// of at least 8 hex digits, as Find) or, when no write is named, the
// journal files that cannot be read and carry that write id (or that file
// name): what `roster pending discard` forgets. It returns the write it
// removed, or the unreadable files, or neither when id names nothing.
func (d *Dir) Discard(id string) (*Write, []Problem, error) {
	w, err := d.Find(id)
	if err != nil || w != nil {
		if w != nil {
			err = d.Finish(w.ID)
		}
		return w, nil, err
	}
	_, problems, err := d.List()
	if err != nil {
		return nil, nil, err
	}
	var found []Problem
	writes := map[string]bool{}
	for _, p := range problems {
		if p.Write == id || filepath.Base(p.File) == id || p.Write != "" && len(id) >= 8 && strings.HasPrefix(p.Write, strings.ToLower(id)) {
			found = append(found, p)
			writes[p.ID()] = true
		}
	}
	if len(writes) > 1 {
		return nil, nil, fmt.Errorf("%q names %d unreadable journal entries; give more of the id", id, len(writes))
	}
	defer d.lock()()
	for _, p := range found {
		if err := os.Remove(p.File); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, nil, err
		}
	}
	if len(found) > 0 {
		return nil, found, syncDir(d.Root)
	}
	return nil, nil, nil
}

// names are the entry files (<write>-<seq>.json), sorted.
func (d *Dir) names() ([]string, error) {
	ents, err := os.ReadDir(d.Root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, ".") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

// File is the file of the write's seq-th event.
func (d *Dir) File(write string, seq int) string { return d.path(write, seq) }

func (d *Dir) path(write string, seq int) string {
	return filepath.Join(d.Root, fmt.Sprintf("%s-%d.json", write, seq))
}

// read reads one entry through the size bound and checks it.
func (d *Dir) read(p string) (*Entry, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxEntryBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxEntryBytes {
		return nil, fmt.Errorf("over %d bytes", MaxEntryBytes)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, err
	}
	if e.Version != Version {
		return nil, fmt.Errorf("entry version %d, this roster reads %d", e.Version, Version)
	}
	if err := check(&e); err != nil {
		return nil, err
	}
	if !e.Event.CheckID() {
		return nil, errors.New("the stored event's id is not its hash")
	}
	if ok, err := e.Event.CheckSignature(); !ok || err != nil {
		return nil, errors.New("the stored event's signature does not verify")
	}
	if filepath.Base(p) != fmt.Sprintf("%s-%d.json", e.Write, e.Seq) || e.Seq < 0 || e.Seq >= e.Of {
		return nil, errors.New("the file's name does not match its entry")
	}
	return &e, nil
}

// problemOf is the Problem of a file that is not a valid entry: its write
// id from its name, and the repository and address it still names ("" when
// it does not parse).
func problemOf(p string, err error) Problem {
	pr := Problem{File: p, Write: writeOfName(filepath.Base(p)), Err: err}
	f, oerr := os.Open(p)
	if oerr != nil {
		return pr
	}
	defer f.Close()
	var e struct {
		Repo    string `json:"repo"`
		Address string `json:"address"`
	}
	if json.NewDecoder(io.LimitReader(f, MaxEntryBytes)).Decode(&e) == nil {
		pr.Repo, pr.Address = e.Repo, e.Address
	}
	return pr
}

// writeOfName is the write id of a file named <write>-<seq>.json ("" for
// any other name).
func writeOfName(n string) string {
	w, _, ok := strings.Cut(n, "-")
	if !ok || !hex64(w) {
		return ""
	}
	return w
}

// put writes e atomically and durably: a temporary file, fsync'd, renamed.
func (d *Dir) put(e *Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if len(b) > MaxEntryBytes {
		return fmt.Errorf("journal: an entry of %d bytes, at most %d", len(b), MaxEntryBytes)
	}
	return WriteFile(d.path(e.Write, e.Seq), b)
}

// WriteFile writes b to p (mode 0600) atomically and durably: a temporary
// file in the same directory, fsync'd, renamed over p, the directory
// fsync'd. A crash leaves the old file or the new one.
func WriteFile(p string, b []byte) error {
	dir := filepath.Dir(p)
	tmp, err := os.CreateTemp(dir, ".entry-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir fsyncs a directory so a rename or removal in it survives a crash.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

func hex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Expired reports whether evt is older than the acceptance window at now:
// it is never sent again.
func Expired(evt *nostr.Event, now time.Time) bool {
	return now.Sub(evt.CreatedAt.Time()) > AcceptanceWindow
}
