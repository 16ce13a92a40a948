package preflight

import (
	"reflect"
	"strings"
	"testing"
)

// The directional comparison of a checkout with the resolved state: align
// says what to change locally, force_would what publishing the local refs
// would change in the state; a tag and its ^{} are one action; a branch
// present only as the nostr remote's tracking ref at the state's OID is
// aligned; the default branch is the state's HEAD when the checkout has it.
func TestAlignCheckoutIsDirectionalAndFoldsPeeledTags(t *testing.T) {
	o := func(c string) string { return strings.Repeat(c, 40) }
	st := func(head string, kv ...string) *ResolvedState {
		s := &ResolvedState{Head: head, Refs: map[string]string{}}
		for i := 0; i < len(kv); i += 2 {
			s.Refs[kv[i]] = kv[i+1]
		}
		return s
	}
	m := func(kv ...string) map[string]string {
		out := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	cases := []struct {
		name              string
		state             *ResolvedState
		local, tracking   map[string]string
		align, forceWould []RefAction
		tracked           []string
	}{
		{name: "equal, checked out elsewhere",
			state: st("refs/heads/main", "refs/heads/main", o("a"), "refs/heads/dev", o("b")),
			local: m("HEAD", "ref: refs/heads/dev", "refs/heads/main", o("a"), "refs/heads/dev", o("b")),
			align: []RefAction{}, forceWould: []RefAction{}},
		{name: "plain clone: other branches only as tracking refs",
			state:    st("refs/heads/main", "refs/heads/main", o("a"), "refs/heads/dev", o("b")),
			local:    m("HEAD", "ref: refs/heads/main", "refs/heads/main", o("a")),
			tracking: m("refs/heads/main", o("a"), "refs/heads/dev", o("b")),
			align:    []RefAction{}, forceWould: []RefAction{}, tracked: []string{"refs/heads/dev"}},
		{name: "stale tracking ref is not aligned",
			state:      st("refs/heads/main", "refs/heads/main", o("a"), "refs/heads/dev", o("b")),
			local:      m("refs/heads/main", o("a")),
			tracking:   m("refs/heads/dev", o("c")),
			align:      []RefAction{{Action: "add", Ref: "refs/heads/dev", To: o("b")}},
			forceWould: []RefAction{{Action: "remove", Ref: "refs/heads/dev", From: o("b")}}},
		{name: "update, add, remove, annotated tag as one, carrying the tag object",
			state: st("refs/heads/main", "refs/heads/main", o("a"), "refs/tags/v1", o("1"), "refs/tags/v1^{}", o("a")),
			local: m("refs/heads/main", o("b"), "refs/heads/topic", o("c"), "refs/tags/v2", o("2"), "refs/tags/v2^{}", o("b")),
			align: []RefAction{
				{Action: "update", Ref: "refs/heads/main", From: o("b"), To: o("a")},
				{Action: "remove", Ref: "refs/heads/topic", From: o("c")},
				{Action: "add", Ref: "refs/tags/v1", To: o("1")},
				{Action: "remove", Ref: "refs/tags/v2", From: o("2")}},
			forceWould: []RefAction{
				{Action: "update", Ref: "refs/heads/main", From: o("a"), To: o("b")},
				{Action: "add", Ref: "refs/heads/topic", To: o("c")},
				{Action: "remove", Ref: "refs/tags/v1", From: o("1")},
				{Action: "add", Ref: "refs/tags/v2", To: o("2")}}},
		{name: "default branch missing locally",
			state: st("refs/heads/main", "refs/heads/main", o("a")),
			local: m("HEAD", "ref: refs/heads/master", "refs/heads/master", o("a")),
			align: []RefAction{{Action: "add", Ref: "refs/heads/main", To: o("a")},
				{Action: "remove", Ref: "refs/heads/master", From: o("a")},
				{Action: "set-default-branch", From: "refs/heads/master", To: "refs/heads/main"}},
			forceWould: []RefAction{{Action: "remove", Ref: "refs/heads/main", From: o("a")},
				{Action: "add", Ref: "refs/heads/master", To: o("a")},
				{Action: "set-default-branch", From: "refs/heads/main", To: "refs/heads/master"}}},
		{name: "no state yet",
			local: m("refs/heads/main", o("a")),
			align: []RefAction{},
			forceWould: []RefAction{{Action: "add", Ref: "refs/heads/main", To: o("a")},
				{Action: "set-default-branch", To: "refs/heads/main"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := AlignCheckout(c.state, c.local, trackingOf("origin", c.tracking))
			if c.tracked == nil {
				c.tracked = []string{}
			}
			if !reflect.DeepEqual(got.Align, c.align) {
				t.Errorf("align\n got %+v\nwant %+v", got.Align, c.align)
			}
			if !reflect.DeepEqual(got.ForceWould, c.forceWould) {
				t.Errorf("force_would\n got %+v\nwant %+v", got.ForceWould, c.forceWould)
			}
			if !reflect.DeepEqual(got.Tracked, c.tracked) {
				t.Errorf("tracked %v, want %v", got.Tracked, c.tracked)
			}
		})
	}
}

func TestRenderRefActionsNamesTheDefaultBranchWithoutAPreviousOne(t *testing.T) {
	got := RenderRefActions([]RefAction{{Action: "set-default-branch", To: "refs/heads/main"}})
	if len(got) != 1 || got[0] != "set default branch to refs/heads/main" {
		t.Fatal(got)
	}
}

// trackingOf is remote's remote-tracking branches given as a
// refs/heads/<branch> -> OID map.
func trackingOf(remote string, m map[string]string) []TrackingRef {
	var out []TrackingRef
	for k, v := range m {
		out = append(out, TrackingRef{Remote: remote, Ref: k, OID: v})
	}
	return out
}
