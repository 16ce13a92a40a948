package membership

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
// post-change resolved state names must be advertised by one of the
// post-change component's clone servers. --force does not waive it. The
// preview's checked/not_checked lists say what was compared.
func (p Pipeline) checkObjects(ctx context.Context, out *Outcome) error {
	st := &out.Plan.State
	if p.Availability == nil {
		return nil
	}
	st.NotChecked = slices.DeleteFunc(slices.Clone(st.NotChecked), func(s string) bool { return s == fetchability })
	if st.After == nil || len(st.After.Refs) == 0 {
		st.Checked = append(slices.Clone(st.Checked), "fetchability of post-change OIDs (the post-change state names none)")
		return nil
	}
	servers := gitstate.ComponentCloneServers(out.Plan.After)
	a := p.Availability(ctx, servers, st.After.Refs)
	st.Checked = append(slices.Clone(st.Checked), fmt.Sprintf("every post-change OID advertised by the post-change component's Git servers (%d ref(s), %d server(s) advertised)", len(a.Refs), len(a.Servers)))
	f := a.Failure()
	if f == nil {
		return nil
	}
	kind := KindObjectsUnavailable
	if f.Evidence {
		kind = KindObjectsUnknown
	}
	return handoffWayOut(out, &Failure{Kind: kind, Outcome: out, Availability: &a,
		Message:  "cannot publish this change: " + strings.Join(f.Lines, "\n"),
		Commands: append(f.Commands, out.Intent.Suggest().Because("once every object can be fetched"))})
}
