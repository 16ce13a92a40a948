package health

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
)

// codeStaleRelays is the health finding of a relay serving an older
// version of an announcement or state than another relay asked: the same
// comparison as the write's stale-relays refusal, between relays.
const codeStaleRelays = "stale-relays"

// staleRelayFindings are the warnings for each relay that served an older
// version of an announcement or state (kind 30617 or 30618 of the
// repository's identifier) than the newest version another relay served.
// The actor is any maintainer when the event's author is a confirmed
// maintainer (anyone can republish a signed event), else the author.
func staleRelayFindings(v *repo.RepoView) []report.Finding {
	if v.Fetch == nil {
		return nil
	}
	var repoEvents []*nostr.Event
	for _, e := range v.Events {
		if (e.Kind == graph.KindAnnouncement || e.Kind == graph.KindState) && e.Tags.GetD() == v.Coordinate().Identifier {
			repoEvents = append(repoEvents, e)
		}
	}
	var out []report.Finding
	for _, o := range relaypool.OlderServed(v.Fetch, relaypool.LatestVersions(repoEvents)) {
		what := "announcement"
		if o.Newer.Kind == graph.KindState {
			what = "repository state"
		}
		author := graph.Npub(o.Newer.PubKey)
		f := report.Finding{Severity: graph.SeverityWarning, Code: codeStaleRelays,
			Message: fmt.Sprintf("the relay %s serves an older version of the %s of %s (event %s, created at %s) than another answer (event %s, created at %s): it is stale or lagging, and a reader asking only it sees the replaced version; republish the newer event to it, or stop using the relay",
				o.Relay, what, author, o.Older.ID, graph.HumanTime(int64(o.Older.CreatedAt)), o.Newer.ID, graph.HumanTime(int64(o.Newer.CreatedAt))),
			Actor: author}
		if o.Newer.Kind == graph.KindAnnouncement {
			f.Author = &author
		}
		if v.Resolution != nil && v.Resolution.Confirmed(o.Newer.PubKey) {
			f.Actor, f.ActorIsMaintainer = report.ActorAnyMaintainer, true
		}
		out = append(out, f)
	}
	return out
}
