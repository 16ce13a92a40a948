package preflight

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/golden"
	"github.com/roster-cli/roster/graph"
)

// world is a set of signed same-identifier events built by alias, the way the
// golden scenarios write them: tag values may say <alice> for alice's pubkey.
type world struct {
	t      *testing.T
	events []*nostr.Event
}

const repoID = "my-repo"

var aliasRef = regexp.MustCompile(`<([a-z]+)>`)

func pk(alias string) string { return golden.Pubkey(alias) }

func expandTags(tags [][]string) nostr.Tags {
	out := nostr.Tags{}
	for _, t := range tags {
		tag := nostr.Tag{}
		for _, v := range t {
			tag = append(tag, aliasRef.ReplaceAllStringFunc(v, func(m string) string { return pk(m[1 : len(m)-1]) }))
		}
		out = append(out, tag)
	}
	return out
}

// announce signs author's announcement at created with the given tags (a d
// tag is prepended).
func (w *world) announce(author string, created int64, tags ...[]string) *nostr.Event {
	w.t.Helper()
	evt := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(created),
		Tags: append(nostr.Tags{{"d", repoID}}, expandTags(tags)...)}
	if err := evt.Sign(golden.SecretKey(author)); err != nil {
		w.t.Fatal(err)
	}
	w.events = append(w.events, evt)
	return evt
}

func (w *world) prepare(author, selected string, now int64, it Intent) (*Plan, *Refusal) {
	w.t.Helper()
	return Prepare(Input{Author: pk(author), Selected: graph.NewCoordinate(pk(selected), repoID), Events: w.events, Now: now, Intent: it})
}

// run prepares, requires success, signs the replacement as author and adds it.
func (w *world) run(author, selected string, now int64, it Intent) *Plan {
	w.t.Helper()
	p, r := w.prepare(author, selected, now, it)
	if r != nil {
		w.t.Fatalf("%s as %s: refused %s: %s", it.Command(), author, r.Code, r.Message)
	}
	if evt := p.Event(); evt != nil {
		if err := evt.Sign(golden.SecretKey(author)); err != nil {
			w.t.Fatal(err)
		}
		w.events = append(w.events, evt)
	}
	return p
}

// refused prepares and requires a refusal with code.
func (w *world) refused(author, selected string, now int64, it Intent, code string) *Refusal {
	w.t.Helper()
	p, r := w.prepare(author, selected, now, it)
	if r == nil {
		w.t.Fatalf("%s as %s: want refusal %s, got plan with tags %s", it.Command(), author, code, aliasTags(p.Tags))
	}
	if r.Code != code {
		w.t.Fatalf("%s as %s: refusal %s, want %s: %s", it.Command(), author, r.Code, code, r.Message)
	}
	return r
}

func (w *world) resolve(selected string, now int64) *graph.Resolution {
	return graph.Resolve(w.events, graph.NewCoordinate(pk(selected), repoID), now, graph.Options{})
}

var knownAliases = []string{"alice", "bob", "carol", "dave", "eve", "tom"}

// aliasText replaces every known pubkey and npub with its alias.
func aliasText(s string) string {
	for _, a := range knownAliases {
		s = strings.ReplaceAll(s, npub(pk(a)), "<npub:"+a+">")
		s = strings.ReplaceAll(s, pk(a), "<"+a+">")
	}
	return s
}

// aliasTags renders role and maintainers tags (not d) as compact JSON with aliases.
func aliasTags(tags nostr.Tags) string {
	var keep nostr.Tags
	for _, t := range tags {
		if len(t) > 0 && t[0] != "d" {
			keep = append(keep, t)
		}
	}
	b, _ := json.Marshal(keep)
	return aliasText(string(b))
}

// wantTags compares a plan's replacement tags (without d) with the expected ones.
func wantTags(t *testing.T, p *Plan, want ...[]string) {
	t.Helper()
	got := aliasTags(p.Tags)
	exp := aliasTags(expandTags(want))
	if got != exp {
		t.Fatalf("replacement tags\n got: %s\nwant: %s", got, exp)
	}
}

func confirmed(r *graph.Resolution) []string {
	var out []string
	for _, c := range r.Component {
		out = append(out, aliasText(c))
	}
	slices.Sort(out)
	return out
}

func sameSet(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	g := slices.Clone(got)
	w := slices.Clone(want)
	for i := range g {
		g[i] = strings.Trim(aliasText(g[i]), "<>")
	}
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Fatalf("%s = %v, want %v", what, g, w)
	}
}
