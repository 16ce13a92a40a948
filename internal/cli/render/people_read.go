package render

import (
	"context"
	"strings"

	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// PeopleShown names the people a workspace, project or group read shows,
// on a terminal: their kind 0 profiles are read as a repository read reads
// them (the cache, and one request per relay for those it lacks fresh,
// verified and cached, NIP-05 checked). In a pipe or JSON nothing is read
// and npubs are printed in full, as they always were. who are npubs or
// 64-hex keys.
func PeopleShown(a *cmdutil.Factory, ctx context.Context, relays []string, who ...string) PeopleText {
	if !a.Io.OutTTY || a.Opts.JSON {
		return People(a, nil, "")
	}
	var hexes []string
	for _, w := range who {
		w = strings.TrimSpace(w)
		if strings.HasPrefix(w, "npub1") {
			if _, v, err := nip19.Decode(w); err == nil {
				w, _ = v.(string)
			}
		}
		if len(w) == 64 {
			hexes = append(hexes, w)
		}
	}
	if len(relays) == 0 {
		relays = a.DefaultRelays()
	}
	src, done := a.RepoSource(relays, nil, cmdutil.SourceOptions{Profiles: true})
	defer done()
	profiles := discovery.ReadProfiles(ctx, src, relays, hexes, a.Io.Now().Unix())
	viewer := ""
	if pk := a.ViewerPubkey(); pk != "" {
		viewer = graph.Npub(pk)
	}
	return People(a, report.NamesOf(profiles), viewer)
}
