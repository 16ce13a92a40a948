package membership

import (
	"context"
	"errors"
	"fmt"

	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// ErrLocked is Pipeline.Lock's error when another command of the same home
// kept the coordinate's lock for longer than the lock's wait.
var ErrLocked = errors.New("another roster command in this home is changing the same repository")

// lockCoordinate takes the home's lock on the address the change replaces
// (the author's announcement of the identifier), held from the recheck to
// the last re-read: two commands of one home never interleave their
// recheck and publish, so the second's recheck sees the first's edit and
// stops (concurrent-change) instead of both publishing. A lock that
// cannot be taken for another reason (an unwritable home) is no lock: the
// recheck and the re-read after the cut window still stand.
func (p Pipeline) lockCoordinate(ctx context.Context, out *Outcome) (unlock func(), err error) {
	none := func() {}
	if p.Lock == nil || out.Plan == nil || out.Before == nil {
		return none, nil
	}
	address := fmt.Sprintf("%d:%s:%s", graph.KindAnnouncement, out.Plan.Author, out.Before.Coordinate().Identifier)
	unlock, err = p.Lock(ctx, address)
	switch {
	case err == nil:
		return unlock, nil
	case ctx.Err() != nil:
		return nil, stopped(ctx, out, PhaseRechecking, ctx.Err())
	case errors.Is(err, ErrLocked):
		return nil, &Failure{Failure: failure.Failure{Code: KindConcurrentChange, Class: failure.Refused, Err: err, Msg: err.Error() + "; nothing was published: rerun the command once it has finished, to preview what it did", Next: []suggest.Command{out.Intent.Suggest().Because("preview the repository as the other command left it")}}, Outcome: out}
	}
	return none, nil
}
