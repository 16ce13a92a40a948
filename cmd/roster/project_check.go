// The pre-signing refusals of a project change: patch rules and the
// home-channel authority check, mirroring the relay.

package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/projects"
)

// projectCheck refuses, before signing, what the relay would refuse: an
// invalid patch for the current state, or an actor without authority. The
// home channel's roles come from the same relay's signed NIP-29 state.
func projectCheck(ctx context.Context, pool *relaypool.Pool, relay, self, actor string, st *projects.State, patch projects.Patch) error {
	c := st.Coordinate
	if err := patch.Check(st.Deleted, st.Document); err != nil {
		var r *projects.Refusal
		errors.As(err, &r)
		cmds := []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}
		return &exitError{Code: exitRefused, Kind: r.Code, Err: fmt.Errorf("refused before signing, nothing was published: %v", err),
			Details: map[string]any{"coordinate": c.String(), "revision": st.Revision, "related_channels": orEmptySlice(st.Document.RelatedChannels)}, Commands: cmds}
	}
	home := st.Document.HomeChannel
	var standing projects.ChannelStanding
	var g groups.State
	if actor != c.Owner && home != "" {
		res := pool.Fetch(ctx, []string{relay}, nostr.Filter{Kinds: groups.StateKinds, Tags: nostr.TagMap{"d": {home}}})
		if !res.Complete {
			return &exitError{Code: exitIncomplete, Kind: "incomplete",
				Err: fmt.Errorf("%s did not answer for home channel %s, so roster cannot check your role; nothing was published", relay, home)}
		}
		g = groups.Build(home, self, res.Events)
		standing = projects.ChannelStanding{Live: g.Live(), Roles: g.RolesOf(actor)}
	}
	if err := projects.Authorize(actor, c.Owner, home, standing); err != nil {
		why := fmt.Sprintf("you are not an active owner or admin of its home channel %s", home)
		switch {
		case home == "":
			why = "it has no home channel, so only its owner may"
		case !standing.Live:
			why = fmt.Sprintf("its home channel %s is missing, archived or deleted on %s, so only its owner may", home, relay)
		}
		may := projectWhoMay(c.Owner, home, g)
		cmds := projectChangeCommands(c, patch, relay, "  # run by the project owner "+gitstate.EncodeNpub(c.Owner))
		if home != "" {
			cmds = append(cmds, fmt.Sprintf("roster group show %s --relay %s", home, relay))
		}
		return &exitError{Code: exitRefused, Kind: "not-authorized",
			Err: fmt.Errorf("refused before signing, nothing was published: %s may not change the related channels of %s: %s. Who may: %s",
				gitstate.EncodeNpub(actor), c, why, strings.Join(may, "; ")),
			Details:  map[string]any{"coordinate": c.String(), "actor": actor, "owner": c.Owner, "home_channel": home, "may_change": may},
			Commands: cmds}
	}
	return nil
}

// projectWhoMay lists who may change the project: its owner, and each active
// owner or admin of its live home channel.
func projectWhoMay(owner, home string, g groups.State) []string {
	roles := map[string][]string{owner: {"project owner"}}
	order := []string{owner}
	if g.Live() {
		for _, ad := range g.Admins {
			for _, r := range ad.Roles {
				if r != projects.RoleOwner && r != projects.RoleAdmin {
					continue
				}
				if _, ok := roles[ad.Pubkey]; !ok {
					order = append(order, ad.Pubkey)
				}
				roles[ad.Pubkey] = append(roles[ad.Pubkey], fmt.Sprintf("%s of home channel %s", r, home))
			}
		}
	}
	out := make([]string, len(order))
	for i, pk := range order {
		out[i] = fmt.Sprintf("%s (%s)", gitstate.EncodeNpub(pk), strings.Join(roles[pk], ", "))
	}
	return out
}

// projectChangeCommands is the change as the roster commands that make it,
// so whoever may make it can run them as printed (comment appended).
func projectChangeCommands(c projects.Coordinate, patch projects.Patch, relay, comment string) []string {
	var cmds []string
	for _, part := range []struct {
		verb     string
		channels []string
	}{{"relate", patch.Add}, {"unrelate", patch.Remove}} {
		if len(part.channels) > 0 {
			cmds = append(cmds, fmt.Sprintf("roster project %s %s %s --relay %s%s", part.verb, shellQuote(c.String()), strings.Join(part.channels, " "), shellQuote(relay), comment))
		}
	}
	return cmds
}
