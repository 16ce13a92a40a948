// The pre-signing refusals of a project change: patch rules and the
// home-channel authority check, mirroring the relay.

package projects

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// Check refuses, before signing, what the relay would refuse: an invalid
// patch for the current state, or an actor without authority. The home
// channel's roles come from the same relay's signed NIP-29 state, verified
// against self. Its refusals are *pipeline.Error.
func Check(ctx context.Context, r pipeline.Relays, relay, self, actor string, st *State, patch Patch) error {
	c := st.Coordinate
	if err := patch.Check(st.Deleted, st.Document); err != nil {
		var ref *Refusal
		errors.As(err, &ref)
		return &pipeline.Error{Class: pipeline.Refused, Code: ref.Code, Err: err,
			Msg:     fmt.Sprintf("refused before signing, nothing was published: %v", err),
			Details: map[string]any{"coordinate": c.String(), "revision": st.Revision, "related_channels": orEmpty(st.Document.RelatedChannels)},
			Next:    []suggest.Command{showOn(c, relay)}}
	}
	home := st.Document.HomeChannel
	var standing ChannelStanding
	var g groups.State
	if actor != c.Owner && home != "" {
		res := r.Fetch(ctx, []string{relay}, nostr.Filter{Kinds: groups.StateKinds, Tags: nostr.TagMap{"d": {home}}})
		if !res.Complete {
			return &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
				Msg: fmt.Sprintf("%s did not answer for home channel %s, so roster cannot check your role; nothing was published", relay, home)}
		}
		g = groups.Build(home, self, res.Events)
		standing = ChannelStanding{Live: g.Live(), Roles: g.RolesOf(actor)}
	}
	if err := Authorize(actor, c.Owner, home, standing); err != nil {
		why := fmt.Sprintf("you are not an active owner or admin of its home channel %s", home)
		switch {
		case home == "":
			why = "it has no home channel, so only its owner may"
		case !standing.Live:
			why = fmt.Sprintf("its home channel %s is missing, archived or deleted on %s, so only its owner may", home, relay)
		}
		may := WhoMay(c.Owner, home, g)
		next := ChangeSuggestions(c, patch, relay, c.Owner)
		if home != "" {
			next = append(next, suggest.Roster("group", "show", home, "--relay", relay))
		}
		return &pipeline.Error{Class: pipeline.Refused, Code: "not-authorized", Err: err,
			Msg: fmt.Sprintf("refused before signing, nothing was published: %s may not change the related channels of %s: %s. Who may: %s",
				graph.Npub(actor), c, why, strings.Join(may, "; ")),
			Details: map[string]any{"coordinate": c.String(), "actor": actor, "owner": c.Owner, "home_channel": home, "may_change": may},
			Next:    next}
	}
	return nil
}

// WhoMay lists who may change the project: its owner, and each active owner
// or admin of its live home channel, as "<npub> (<roles>)".
func WhoMay(owner, home string, g groups.State) []string {
	roles := map[string][]string{owner: {"project owner"}}
	order := []string{owner}
	if g.Live() {
		for _, ad := range g.Admins {
			for _, r := range ad.Roles {
				if r != RoleOwner && r != RoleAdmin {
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
		out[i] = fmt.Sprintf("%s (%s)", graph.Npub(pk), strings.Join(roles[pk], ", "))
	}
	return out
}

// ChangeSuggestions is the change as the roster commands that make it (a
// relate and/or an unrelate on relay), to be run by runBy (a hex pubkey, the
// project owner; "" for whoever ran roster).
func ChangeSuggestions(c Coordinate, patch Patch, relay, runBy string) []suggest.Command {
	var out []suggest.Command
	for _, part := range []struct {
		verb     string
		channels []string
	}{{"relate", patch.Add}, {"unrelate", patch.Remove}} {
		if len(part.channels) > 0 {
			argv := append([]string{"project", part.verb, c.String()}, part.channels...)
			cmd := suggest.Roster(append(argv, "--relay", relay)...)
			if runBy != "" {
				cmd = cmd.By("the project owner " + graph.Npub(runBy))
			}
			out = append(out, cmd)
		}
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
