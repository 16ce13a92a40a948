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

// How an actor's authority was established before signing (CheckResult.Basis).
const (
	// BasisOwner: the actor is the project owner.
	BasisOwner = "owner"
	// BasisHomeChannel: the relay's signed 39000 and 39001 show the home
	// channel live and the actor an owner or admin of it.
	BasisHomeChannel = "home-channel-role"
	// BasisUnverifiable: the relay serves no 39000 or no 39001 for the home
	// channel (both are optional in NIP-29), so roster cannot verify the
	// actor's roles; the relay, the authority, decides.
	BasisUnverifiable = "unverifiable"
)

// CheckResult is how Check established that the change may be submitted.
type CheckResult struct {
	Basis string
	// Note says, for BasisUnverifiable, what could not be verified.
	Note string
}

// Check refuses, before signing, what the relay would refuse: an invalid
// patch for the current state, or an actor without authority. The home
// channel's roles come from the same relay's signed NIP-29 state, verified
// against self. Where that state is absent (no 39000 or no 39001: both are
// optional) roster cannot verify the roles and does not refuse: it says so
// (BasisUnverifiable) and lets the relay decide. Its refusals are
// *pipeline.Error.
func Check(ctx context.Context, r pipeline.Relays, relay, self, actor string, st *State, patch Patch) (CheckResult, error) {
	c := st.Coordinate
	if err := patch.Check(st.Deleted, st.Document); err != nil {
		var ref *Refusal
		errors.As(err, &ref)
		next := []suggest.Command{showOn(c, relay)}
		if st.Deleted {
			// Only a new identity brings it back: the owner's create.
			next = []suggest.Command{suggest.Roster("project", "create", c.D, "--name", "<name>", "--relay", relay).ByPerson(graph.Npub(c.Owner)).Because("recreate it")}
		}
		return CheckResult{}, &pipeline.Error{Class: pipeline.Refused, Code: ref.Code, Err: err,
			Msg:     fmt.Sprintf("refused before signing, nothing was published: %v", err),
			Details: map[string]any{"coordinate": c.String(), "revision": st.Revision, "related_channels": orEmpty(st.Document.RelatedChannels)},
			Next:    next}
	}
	if actor == c.Owner {
		return CheckResult{Basis: BasisOwner}, nil
	}
	home := st.Document.HomeChannel
	var standing ChannelStanding
	var g groups.State
	if home != "" {
		res := r.Fetch(ctx, []string{relay}, nostr.Filter{Kinds: groups.StateKinds, Tags: nostr.TagMap{"d": {home}}})
		if !res.Complete {
			return CheckResult{}, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
				Msg: fmt.Sprintf("%s did not answer for home channel %s, so roster cannot check your role; nothing was published", relay, home)}
		}
		g = groups.Build(home, self, res.Events)
		if missing := missingRoleEvidence(g); missing != "" {
			return CheckResult{Basis: BasisUnverifiable, Note: fmt.Sprintf(
				"cannot verify the home channel's roles: %s serves no %s for home channel %s (NIP-29 makes them optional), so roster does not know whether %s is an owner or admin of it; the relay, the authority, decides",
				relay, missing, home, graph.Npub(actor))}, nil
		}
		standing = ChannelStanding{Live: g.Live(), Roles: g.RolesOf(actor)}
	}
	if err := Authorize(actor, c.Owner, home, standing); err != nil {
		why := fmt.Sprintf("you are not an active owner or admin of its home channel %s", home)
		switch {
		case home == "":
			why = "it has no home channel, so only its owner may"
		case !standing.Live:
			why = fmt.Sprintf("its home channel %s is archived or deleted on %s, so only its owner may", home, relay)
		}
		may := WhoMay(c.Owner, home, g)
		next := ChangeSuggestions(c, patch, relay, c.Owner)
		if home != "" {
			next = append(next, suggest.Roster("group", "show", home, "--relay", relay))
		}
		return CheckResult{}, &pipeline.Error{Class: pipeline.Refused, Code: "not-authorized", Err: err,
			Msg: fmt.Sprintf("refused before signing, nothing was published: %s may not change the related channels of %s: %s. Who may: %s",
				graph.Npub(actor), c, why, strings.Join(may, "; ")),
			Details: map[string]any{"coordinate": c.String(), "actor": actor, "owner": c.Owner, "home_channel": home, "may_change": may},
			Next:    next}
	}
	return CheckResult{Basis: BasisHomeChannel}, nil
}

// missingRoleEvidence names the relay-signed group state a role check needs
// and g lacks: the 39000 metadata (is the channel live?) and the 39001
// admins (who holds which role?). "" when both are there.
func missingRoleEvidence(g groups.State) string {
	has := map[int]bool{}
	for _, s := range g.Sources {
		has[s.Kind] = true
	}
	var missing []string
	if !has[groups.KindMetadata] {
		missing = append(missing, "kind 39000 metadata")
	}
	if !has[groups.KindAdmins] {
		missing = append(missing, "kind 39001 admin list")
	}
	return strings.Join(missing, " and no ")
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
				cmd = cmd.By(suggest.Say("the project owner "), suggest.Who(graph.Npub(runBy)))
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
