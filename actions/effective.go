package actions

import (
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// Authority answers whether pubkey was authorized for action at a time:
// *graph.Resolution (its Authorized).
type Authority interface {
	Authorized(pubkey string, action graph.Action, at int64) bool
}

// Result is the effective state of one target.
type Result struct {
	Target string `json:"target"`
	Kind   int    `json:"kind"`
	Author string `json:"author"`
	// Status is open (also when no status counts), applied, closed or draft;
	// StatusEvent the event that set it ("" for none).
	Status      string `json:"status"`
	StatusEvent string `json:"status_event,omitempty"`
	// Labels are the target's own `t` tags and every counted `#t` label,
	// sorted, each once.
	Labels []string `json:"labels"`
	// Subject is the newest counted `#subject` label ("" for none).
	Subject      string `json:"subject,omitempty"`
	SubjectEvent string `json:"subject_event,omitempty"`
	// CoverNote is the id of the newest counted cover note ("" for none).
	CoverNote string `json:"cover_note,omitempty"`
}

// Permitted reports whether e counts on target: its author is the target's
// own author ("Issue and proposal authors retain author-specific NIP-34
// actions", as ngit also reads them), or auth authorized its author for
// e's action at e's created_at.
func Permitted(e, target *nostr.Event, auth Authority) bool {
	act, ok := ActionOf(e)
	if !ok {
		return false
	}
	return e.PubKey == target.PubKey || auth.Authorized(e.PubKey, act, int64(e.CreatedAt))
}

// newer orders by created_at, ties by the lexicographically larger id
// (ngit's tie rule for subjects and cover notes, kept for statuses too so
// one rule decides every "newest wins").
func newer(a, b *nostr.Event) bool {
	if a.CreatedAt != b.CreatedAt {
		return a.CreatedAt > b.CreatedAt
	}
	return a.ID > b.ID
}

// Index groups events into targets and the actions that refer to each.
type Index struct {
	Targets map[string]*nostr.Event
	// On maps a target id to the action events referring to it.
	On map[string][]*nostr.Event
	// Actions counts the action events that refer to a known target.
	Actions int
}

// NewIndex indexes events (targets and role-scoped actions; others are
// ignored). An action naming no known target has no effect.
func NewIndex(events []*nostr.Event) *Index {
	ix := &Index{Targets: map[string]*nostr.Event{}, On: map[string][]*nostr.Event{}}
	for _, e := range events {
		if e != nil && IsTarget(e.Kind) {
			ix.Targets[e.ID] = e
		}
	}
	for _, e := range events {
		if e == nil {
			continue
		}
		if _, ok := ActionOf(e); !ok {
			continue
		}
		counted := false
		for _, id := range TargetRefs(e) {
			if _, ok := ix.Targets[id]; ok {
				ix.On[id] = append(ix.On[id], e)
				counted = true
			}
		}
		if counted {
			ix.Actions++
		}
	}
	return ix
}

// Effective computes every target's result under auth, sorted by target id.
func (ix *Index) Effective(auth Authority) []Result {
	ids := make([]string, 0, len(ix.Targets))
	for id := range ix.Targets {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]Result, 0, len(ids))
	for _, id := range ids {
		out = append(out, ix.result(id, auth))
	}
	return out
}

func (ix *Index) result(id string, auth Authority) Result {
	t := ix.Targets[id]
	r := Result{Target: id, Kind: t.Kind, Author: t.PubKey, Status: "open"}
	labels := map[string]bool{}
	for _, tag := range t.Tags {
		if len(tag) >= 2 && tag[0] == "t" && tag[1] != "" {
			labels[tag[1]] = true
		}
	}
	var status, subject, cover *nostr.Event
	for _, e := range ix.On[id] {
		if !Permitted(e, t, auth) {
			continue
		}
		act, _ := ActionOf(e)
		switch act {
		case graph.ActionStatus:
			if status == nil || newer(e, status) {
				status = e
			}
		case graph.ActionSubject:
			if subject == nil || newer(e, subject) {
				subject = e
			}
		case graph.ActionCoverNote:
			if cover == nil || newer(e, cover) {
				cover = e
			}
		case graph.ActionLabel:
			for _, v := range labelValues(e, NamespaceHashtag) {
				labels[v] = true
			}
		}
	}
	if status != nil {
		r.Status, r.StatusEvent = StatusName(status.Kind), status.ID
	}
	if subject != nil {
		r.Subject, r.SubjectEvent = labelValues(subject, NamespaceSubject)[0], subject.ID
	}
	if cover != nil {
		r.CoverNote = cover.ID
	}
	r.Labels = make([]string, 0, len(labels))
	for l := range labels {
		r.Labels = append(r.Labels, l)
	}
	sort.Strings(r.Labels)
	return r
}

// The results a Change names.
const (
	ResultStatus    = "status"
	ResultLabels    = "labels"
	ResultSubject   = "subject"
	ResultCoverNote = "cover-note"
)

// Change is one target result that differs between two authorities, with
// the events whose authorization differs that feed that result.
type Change struct {
	Target     string       `json:"target"`
	TargetKind int          `json:"target_kind"`
	Result     string       `json:"result"`
	From       string       `json:"from"`
	To         string       `json:"to"`
	Events     []EventShift `json:"events"`
}

// EventShift is an event counted under one authority and not the other.
type EventShift struct {
	ID        string `json:"id"`
	Kind      int    `json:"kind"`
	Author    string `json:"author"`
	CreatedAt int64  `json:"created_at"`
	// Newly: counted after, not before (false: no longer counted).
	Newly bool `json:"newly_authorized"`
}

// Compare lists every result that differs between before and after, in
// target order, then status, labels, subject, cover note.
func (ix *Index) Compare(before, after Authority) []Change {
	var out []Change
	a, b := ix.Effective(before), ix.Effective(after)
	for i := range a {
		x, y := a[i], b[i]
		t := ix.Targets[x.Target]
		add := func(result, from, to string, acts ...graph.Action) {
			if from == to {
				return
			}
			c := Change{Target: x.Target, TargetKind: x.Kind, Result: result, From: from, To: to, Events: []EventShift{}}
			for _, e := range ix.On[x.Target] {
				act, _ := ActionOf(e)
				if !slices.Contains(acts, act) {
					continue
				}
				pb, pa := Permitted(e, t, before), Permitted(e, t, after)
				if pb != pa {
					c.Events = append(c.Events, EventShift{ID: e.ID, Kind: e.Kind, Author: e.PubKey, CreatedAt: int64(e.CreatedAt), Newly: pa})
				}
			}
			sort.Slice(c.Events, func(i, j int) bool {
				return c.Events[i].CreatedAt < c.Events[j].CreatedAt || c.Events[i].CreatedAt == c.Events[j].CreatedAt && c.Events[i].ID < c.Events[j].ID
			})
			out = append(out, c)
		}
		add(ResultStatus, x.Status, y.Status, graph.ActionStatus)
		add(ResultLabels, strings.Join(x.Labels, ","), strings.Join(y.Labels, ","), graph.ActionLabel)
		add(ResultSubject, x.Subject, y.Subject, graph.ActionSubject)
		add(ResultCoverNote, x.CoverNote, y.CoverNote, graph.ActionCoverNote)
	}
	return out
}
