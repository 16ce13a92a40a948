package main

import (
	"context"
	"strings"

	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/report"
)

// peopleShown names the people a workspace, project or group read shows,
// on a terminal: their kind 0 profiles are read as a repository read reads
// them (the cache, and one request per relay for those it lacks fresh,
// verified and cached, NIP-05 checked). In a pipe or JSON nothing is read
// and npubs are printed in full, as they always were. who are npubs or
// 64-hex keys.
func (a *app) peopleShown(ctx context.Context, relays []string, who ...string) peopleText {
	if !a.io.OutTTY || a.opts.JSON {
		return a.people(nil, "")
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
		relays = a.defaultRelays()
	}
	a.profiles = true
	src, done := a.repoSource(relays, nil)
	defer done()
	profiles := discovery.ReadProfiles(ctx, src, relays, hexes, a.io.Now().Unix())
	viewer := ""
	if pk := a.viewerPubkey(); pk != "" {
		viewer = graph.Npub(pk)
	}
	return a.people(report.NamesOf(profiles), viewer)
}
