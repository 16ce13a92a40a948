package membership

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
)

// Failure kinds of the object-availability check.
const (
	// KindObjectsUnavailable: an OID of the post-change state is advertised
	// by no Git server of the post-change component that answered, or the
	// component advertises none; nothing was published (exit 3).
	KindObjectsUnavailable = gitstate.ObjectsUnavailable
	// KindObjectsUnknown: no Git server of the component could be listed;
	// nothing was published (exit 4).
	KindObjectsUnknown = gitstate.ObjectsUnknown
)

// fetchability is the not_checked entry the availability check replaces.
const fetchability = "fetchability of every post-change OID from the component's Git servers"

// checkObjects is maintainers.md's "state OIDs that cannot be fetched from
// the post-change component's advertised Git servers": every OID the
// post-change resolved state names must be served by one of the
// post-change component's clone servers. --force does not waive it. The
// check runs only where the change can alter the answer: it is skipped
// when the resolved state (no state event published) and the component's
// set of advertised servers both stay as they were (invitations,
// acknowledgements, moderator and metadata edits, removing someone whose
// servers others also advertise). A change that only drops servers checks
// the remaining ones and refuses only when they answer without the
// objects (the dropped servers alone held them); when none of them
// answers the preview says so and the change proceeds, for it leaves
// fetchability as it was. The preview's checked/not_checked lists say what
// was compared.
func (p Pipeline) checkObjects(ctx context.Context, out *Outcome) error {
	st := &out.Plan.State
	if p.Availability == nil {
		return nil
	}
	st.NotChecked = slices.DeleteFunc(slices.Clone(st.NotChecked), func(s string) bool { return s == fetchability })
	st.Counted.ServersAsked = true
	if st.After == nil || len(st.After.Refs) == 0 {
		st.Checked = append(slices.Clone(st.Checked), "fetchability of post-change OIDs (the post-change state names none)")
		return nil
	}
	author := out.Plan.Author
	before := gitstate.ComponentServers(out.Plan.Before, author)
	after := gitstate.ComponentServers(out.Plan.After, author)
	sameState := st.Publish == nil && st.Before != nil && st.Before.Head == st.After.Head && maps.Equal(st.Before.Refs, st.After.Refs)
	dropped, added := serverDiff(before, after)
	if sameState && len(dropped) == 0 && len(added) == 0 {
		st.Counted.Servers, st.Counted.ServersSame = len(after), true
		st.Checked = append(slices.Clone(st.Checked), fmt.Sprintf("fetchability not asked again: the resolved state and the component's %d Git server(s) stay as they were", len(after)))
		return nil
	}
	a := p.Availability(ctx, after, st.After.Refs)
	st.Counted.Servers = len(a.Servers)
	st.Checked = append(slices.Clone(st.Checked), fmt.Sprintf("every post-change OID served by the post-change component's Git servers (%d ref(s), %d server(s) advertised)", len(a.Refs), len(a.Servers)))
	f := a.Failure()
	if f == nil {
		return nil
	}
	lines := f.Lines
	if sameState && len(added) == 0 {
		if f.Evidence {
			// Only servers are dropped and none of the rest answered: the
			// change leaves fetchability as it was, so it is said, not
			// refused.
			st.NotChecked = append(st.NotChecked, "fetchability from the remaining Git servers (after dropping "+strings.Join(dropped, ", ")+"): "+oneLine(f.Lines))
			return nil
		}
		// The remaining servers lack objects (or none is left): refused
		// only when the dropped servers serve them, i.e. the change is
		// what makes them unfetchable.
		missing := map[string]string{}
		for _, m := range a.Missing {
			missing[m.Ref] = m.OID
		}
		if a.Verdict != gitstate.Missing {
			missing = st.After.Refs
		}
		alone := p.servedByDropped(ctx, before, dropped, missing)
		if len(alone) == 0 {
			st.NotChecked = append(st.NotChecked, "fetchability of objects the dropped Git servers ("+strings.Join(dropped, ", ")+") did not serve either: "+oneLine(f.Lines))
			return nil
		}
		lines = append(slices.Clone(lines), "only the Git server(s) this change drops serve them: "+strings.Join(alone, ", ")+"; push them to a server that stays, then rerun")
	}
	kind, class := KindObjectsUnavailable, failure.Refused
	if f.Evidence {
		kind, class = KindObjectsUnknown, failure.Incomplete
	}
	return handoffWayOut(out, &Failure{Failure: failure.Failure{Code: kind, Class: class, Msg: "cannot publish this change: " + strings.Join(lines, "\n"), Next: append(f.Commands, out.Intent.Suggest().Because("once every object can be fetched"))}, Outcome: out, Availability: &a})
}

// servedByDropped are the dropped servers that serve any of refs' objects.
func (p Pipeline) servedByDropped(ctx context.Context, before []gitstate.Server, dropped []string, refs map[string]string) []string {
	var servers []gitstate.Server
	for _, s := range before {
		if n, err := gitstate.NormalizeCloneURL(s.URL); err == nil && slices.Contains(dropped, n) || slices.Contains(dropped, strings.TrimSpace(s.URL)) {
			servers = append(servers, s)
		}
	}
	d := p.Availability(ctx, servers, refs)
	var out []string
	for _, r := range d.Refs {
		for _, u := range r.ServedBy {
			if !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}

func oneLine(lines []string) string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.TrimSpace(l))
	}
	return strings.Join(out, "; ")
}

// serverDiff are the servers (normalized clone URLs) only before has and
// only after has.
func serverDiff(before, after []gitstate.Server) (dropped, added []string) {
	key := func(s gitstate.Server) string {
		if n, err := gitstate.NormalizeCloneURL(s.URL); err == nil {
			return n
		}
		return strings.TrimSpace(s.URL)
	}
	in := func(list []gitstate.Server, k string) bool {
		return slices.ContainsFunc(list, func(s gitstate.Server) bool { return key(s) == k })
	}
	for _, s := range before {
		if k := key(s); !in(after, k) && !slices.Contains(dropped, k) && !strings.HasPrefix(k, "nostr://") {
			dropped = append(dropped, k)
		}
	}
	for _, s := range after {
		if k := key(s); !in(before, k) && !slices.Contains(added, k) && !strings.HasPrefix(k, "nostr://") {
			added = append(added, k)
		}
	}
	return dropped, added
}
