package membership

import (
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/suggest"
)

// handoffWayOut names the ways out of a removal whose handoff is blocked by
// objects no remaining server serves: the removed maintainer's state names
// commits only their servers held. Fetch them from wherever they are and
// push them to a remaining server, then rerun; or publish a state the
// remaining servers serve (`roster repo state publish --force`, which goes
// through its own comparison and checks), then rerun the removal, which
// then needs no handoff.
func handoffWayOut(out *Outcome, f *Failure) *Failure {
	pub := out.Plan.State.Publish
	if pub == nil || pub.Reason != preflight.PublishHandoff || f.Code != KindObjectsUnavailable {
		return f
	}
	f.Msg += "\nthe removal must hand the repository state on, and it names objects no remaining Git server serves: " +
		"fetch them (from the removed maintainer's server or a clone that has them) and push them to a remaining server, " +
		"or publish a state the remaining servers serve with `roster repo state publish --force`, then rerun the removal"
	f.Next = append([]suggest.Command{
		suggest.Git("fetch", "<a server or clone that has them>").Because("get the objects the state names"),
	}, f.Next...)
	f.Next = append(f.Next,
		suggest.Roster("repo", "state", "publish", "--force").Because("or publish a state the remaining servers serve, then rerun the removal"))
	return f
}
