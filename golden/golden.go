// Package golden runs maintainer-graph scenarios written with aliases
// (alice, bob, ...) instead of keys: each scenario lists signed events, the
// selected alias, an optional viewer and the time, and records the expected
// resolution. `go test ./golden -update` rewrites the recorded expectation;
// the hand-written `must` block is never rewritten and states the facts the
// spec requires.
package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/graph"
)

// Scenario is one golden file.
type Scenario struct {
	Name       string          `json:"name"`
	Spec       string          `json:"spec"` // the spec passage the scenario encodes
	Identifier string          `json:"identifier,omitempty"`
	Selected   string          `json:"selected"`
	Viewer     string          `json:"viewer,omitempty"`
	Now        int64           `json:"now"`
	Events     []Event         `json:"events"`
	Queries    []Query         `json:"queries,omitempty"`
	Must       Must            `json:"must"`
	Expect     json.RawMessage `json:"expect,omitempty"`
}

// Event is an event by alias. Kind defaults to 30617, whose d tag is added
// when absent. Tag values may contain <alias> (hex pubkey) and <npub:alias>.
type Event struct {
	Author    string     `json:"author"`
	Kind      int        `json:"kind,omitempty"`
	CreatedAt int64      `json:"created_at"`
	Tags      [][]string `json:"tags"`
	// DeleteEventOf makes a kind 5 `e` tag naming the announcement at
	// index DeleteEventOf in Events (ids are only known after signing).
	DeleteEventOf *int `json:"delete_event_of,omitempty"`
	// RefersTo adds a root `e` tag naming the event at that index: how a
	// status, label or cover note names its issue, patch or pull request.
	RefersTo *int `json:"refers_to,omitempty"`
}

// Query asks Authorized for one alias, action and time.
type Query struct {
	Pubkey string `json:"pubkey"`
	Action string `json:"action"`
	At     int64  `json:"at"`
}

// Must holds hand-written spec facts checked on every run.
type Must struct {
	Lead          *string             `json:"lead,omitempty"` // alias or ""
	LeadSource    string              `json:"lead_source,omitempty"`
	LeadPath      []string            `json:"lead_path,omitempty"`
	Confirmed     []string            `json:"confirmed,omitempty"`
	Invited       []string            `json:"invited,omitempty"`
	Moderators    []string            `json:"moderators,omitempty"` // confirmed moderators
	HealthCodes   []string            `json:"health_codes,omitempty"`
	NoHealth      bool                `json:"no_health,omitempty"`
	Lifecycle     string              `json:"lifecycle,omitempty"`
	FollowLead    *bool               `json:"follow_lead,omitempty"`
	Allowed       map[string][]string `json:"allowed,omitempty"` // alias -> actions allowed at now
	Denied        map[string][]string `json:"denied,omitempty"`
	PendingAcks   []string            `json:"pending_acks,omitempty"` // "author:subject:transition"
	QueryResults  []bool              `json:"query_results,omitempty"`
	HistoryEnds   map[string]string   `json:"history_ends,omitempty"` // "alias:role" -> end kind of last interval
	HistoryChosen map[string]string   `json:"history_source,omitempty"`
	// Results are role-scoped results by the target's event index.
	Results map[string]MustResult `json:"results,omitempty"`
}

// MustResult is one target's effective result (actions.Result) by event
// index: the status, the label set, the subject and which event supplies
// the cover note (-1: none).
type MustResult struct {
	Status    string   `json:"status"`
	Labels    []string `json:"labels"`
	Subject   string   `json:"subject"`
	CoverNote int      `json:"cover_note"`
}

// SecretKey derives an alias's deterministic secret key: sha256(alias).
func SecretKey(alias string) string {
	sum := sha256.Sum256([]byte(alias))
	return hex.EncodeToString(sum[:])
}

// Pubkey is the alias's hex pubkey.
func Pubkey(alias string) string {
	p, err := nostr.GetPublicKey(SecretKey(alias))
	if err != nil {
		panic(err)
	}
	return p
}

var placeholder = regexp.MustCompile(`<(npub:)?([a-z][a-z0-9_-]*)>`)

// aliases collects every alias the scenario mentions.
func (s *Scenario) aliases() []string {
	set := map[string]bool{s.Selected: true}
	if s.Viewer != "" {
		set[s.Viewer] = true
	}
	for _, e := range s.Events {
		set[e.Author] = true
		for _, t := range e.Tags {
			for _, v := range t {
				for _, m := range placeholder.FindAllStringSubmatch(v, -1) {
					set[m[2]] = true
				}
			}
		}
	}
	for _, q := range s.Queries {
		set[q.Pubkey] = true
	}
	out := make([]string, 0, len(set))
	for a := range set {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

func (s *Scenario) identifier() string {
	if s.Identifier != "" {
		return s.Identifier
	}
	return "my-repo"
}

func expand(v string) string {
	return placeholder.ReplaceAllStringFunc(v, func(m string) string {
		sm := placeholder.FindStringSubmatch(m)
		pk := Pubkey(sm[2])
		if sm[1] != "" {
			n, _ := nip19.EncodePublicKey(pk)
			return n
		}
		return pk
	})
}

// Build signs the scenario's events.
func (s *Scenario) Build() ([]*nostr.Event, error) {
	out := make([]*nostr.Event, 0, len(s.Events))
	for i, e := range s.Events {
		kind := e.Kind
		if kind == 0 {
			kind = graph.KindAnnouncement
		}
		ev := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(e.CreatedAt), Tags: nostr.Tags{}}
		if kind == graph.KindAnnouncement && !hasTag(e.Tags, "d") {
			ev.Tags = append(ev.Tags, nostr.Tag{"d", s.identifier()})
		}
		for _, t := range e.Tags {
			tag := make(nostr.Tag, len(t))
			for j, v := range t {
				tag[j] = expand(v)
			}
			ev.Tags = append(ev.Tags, tag)
		}
		if e.DeleteEventOf != nil {
			j := *e.DeleteEventOf
			if j < 0 || j >= i {
				return nil, fmt.Errorf("event %d: delete_event_of must name an earlier event", i)
			}
			ev.Tags = append(ev.Tags, nostr.Tag{"e", out[j].ID})
		}
		if e.RefersTo != nil {
			j := *e.RefersTo
			if j < 0 || j >= i {
				return nil, fmt.Errorf("event %d: refers_to must name an earlier event", i)
			}
			ev.Tags = append(ev.Tags, nostr.Tag{"e", out[j].ID, "", "root"})
		}
		if err := ev.Sign(SecretKey(e.Author)); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func hasTag(tags [][]string, name string) bool {
	for _, t := range tags {
		if len(t) > 0 && t[0] == name {
			return true
		}
	}
	return false
}

// Run resolves the scenario.
func (s *Scenario) Run(events []*nostr.Event) *graph.Resolution {
	opts := graph.Options{}
	if s.Viewer != "" {
		opts.Viewer = Pubkey(s.Viewer)
	}
	return graph.Resolve(events, graph.NewCoordinate(Pubkey(s.Selected), s.identifier()), s.Now, opts)
}

// Actions checked for every alias in the summary.
var Actions = []graph.Action{graph.ActionState, graph.ActionMerge, graph.ActionStatus}

// Summary is the recorded expectation: the resolution with aliases in
// place of keys, plus what every alias may do at now and query answers.
type Summary struct {
	Resolution   *graph.Resolution   `json:"resolution"`
	Allowed      map[string][]string `json:"allowed_at_now"`
	QueryResults []bool              `json:"query_results,omitempty"`
	// Results are the role-scoped results of every issue, patch and pull
	// request among the events (none: omitted).
	Results []actions.Result `json:"results,omitempty"`
}

// Summarize renders a resolution as alias-keyed JSON.
func (s *Scenario) Summarize(r *graph.Resolution) ([]byte, error) {
	sum := Summary{Resolution: r, Allowed: map[string][]string{}}
	for _, a := range s.aliases() {
		allowed := []string{}
		for _, act := range Actions {
			if r.Authorized(Pubkey(a), act, s.Now) {
				allowed = append(allowed, string(act))
			}
		}
		sum.Allowed[a] = allowed
	}
	for _, q := range s.Queries {
		sum.QueryResults = append(sum.QueryResults, r.Authorized(Pubkey(q.Pubkey), graph.Action(q.Action), q.At))
	}
	if events, err := s.Build(); err == nil {
		if res := actions.NewIndex(events).Effective(r); len(res) > 0 {
			sum.Results = res
		}
	}
	raw, err := Marshal(sum)
	if err != nil {
		return nil, err
	}
	return []byte(s.alias(string(raw))), nil
}

// alias replaces every known pubkey and npub with its placeholder.
func (s *Scenario) alias(text string) string {
	for _, a := range s.aliases() {
		pk := Pubkey(a)
		n, _ := nip19.EncodePublicKey(pk)
		text = strings.ReplaceAll(text, n, "<npub:"+a+">")
		text = strings.ReplaceAll(text, pk, "<"+a+">")
	}
	return text
}

var flatArray = regexp.MustCompile(`\[\s*("(?:[^"\\]|\\.)*"(?:,\s*"(?:[^"\\]|\\.)*")*)\s*\]`)
var flatSpace = regexp.MustCompile(`",\s+"`)

// Marshal writes indented JSON without HTML escaping and with arrays of
// strings (tags) on one line, so golden diffs stay readable.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := flatArray.ReplaceAllFunc(buf.Bytes(), func(m []byte) []byte {
		inner := flatArray.FindSubmatch(m)[1]
		return append(append([]byte("["), flatSpace.ReplaceAll(inner, []byte(`", "`))...), ']')
	})
	return out, nil
}
