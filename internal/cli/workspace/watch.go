package workspace

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/watch"
)

// watchTransport are the keys of roster.workspace/v1 that say how the read
// went (the revision rule applied, a refetch, a stale cached answer), not
// what the workspace holds.
var watchTransport = []string{"decision", "refetched", "stale", "stale_reason"}

// watchWorkspace is `workspace show --watch`: the session's load again on
// every new projection the relay delivers to this reader (a subscription
// authenticated as the signer: the session's pool answers NIP-42 first),
// printed when the decrypted workspace changes.
func watchWorkspace(ctx context.Context, a *cmdutil.Factory, ws *wsSession) error {
	resolve := func(ctx context.Context, _ []*nostr.Event) (watch.Answer, error) {
		cur, err := ws.Load(ctx)
		if err != nil {
			return watch.Answer{}, render.PipelineErr(err)
		}
		v := ws.view(cur)
		fp, err := watch.Fingerprint(v, watchTransport...)
		if err != nil {
			return watch.Answer{}, err
		}
		return watch.Answer{Fingerprint: fp, Value: v,
			Follow: watch.Follow{Relays: []string{ws.Relay}, Filters: ws.ProjectionFilters()}}, nil
	}
	return a.RunWatch(ctx, ws.pool, resolve,
		func(ans watch.Answer) any { return ans.Value },
		func(ans watch.Answer) { RenderWorkspace(a, ans.Value.(report.Workspace)) })
}
