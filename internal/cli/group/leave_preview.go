// The consequence preview of `group leave`: what leaving the group loses
// (membership, roles, authority over the projects it is the home channel
// of, reading a private group), printed before the request is sent; with
// --dry-run printed alone, nothing signed or sent.

package group

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
)

// groupLeavePreview reads the group as leave would and says what leaving
// it loses. Nothing is signed or sent.
func groupLeavePreview(ctx context.Context, a *cmdutil.Factory, arg string, save bool, command []string) (report.ConsequencePreview, error) {
	ref, relays, err := groupTarget(a, arg, "leave")
	if err != nil {
		return report.ConsequencePreview{}, err
	}
	if a.Opts.Offline {
		return report.ConsequencePreview{}, cmdutil.UsageErr("a leave preview reads the relay hosting the group; drop --offline")
	}
	_, me, err := a.SignerAndPubkey(ctx)
	if err != nil {
		return report.ConsequencePreview{}, err
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	res, err := groups.PreviewLeave(ctx, groups.RequestInput{Relays: pool, Publish: pipeline.PoolPublish(pool), Me: me, Ask: relays, Host: ref.Relay, ID: ref.ID,
		Command: command, Now: func() nostr.Timestamp { return cmdutil.NostrNow(a) }})
	if err != nil {
		return report.ConsequencePreview{}, render.PipelineErr(err)
	}
	groupCacheRelay(a, res.Read)
	return groupLeaveConsequence(ctx, a, pool, ref, me, res, save), nil
}

func groupLeaveConsequence(ctx context.Context, a *cmdutil.Factory, pool *relaypool.Pool, ref groups.Ref, me string, res groups.RequestResult, save bool) report.ConsequencePreview {
	g := res.Read.Group
	facts := report.GroupLeaveFacts{ID: ref.ID, Relay: res.Relay, You: render.WsPerson(me, ""), WouldSend: res.Outcome == "",
		Membership: res.Before, RolesLost: []string{}, HomeOf: []string{}, ListEntry: save && res.Outcome == ""}
	if g != nil && g.Metadata != nil {
		facts.Name, facts.Private, facts.Closed = g.Metadata.Name, g.Metadata.Private, g.Metadata.Closed
	}
	ct := render.ChannelsShown(a, ctx, []string{res.Relay}, ref.ID)
	pt := render.PeopleShown(a, ctx, []string{res.Relay}, me)
	name := ct.Of(ref.ID)
	out := report.ConsequencePreview{Command: "group leave", Relay: res.Relay, Facts: &facts}
	if !facts.WouldSend {
		out.Consequences = []string{fmt.Sprintf("%s is not a member of %s on %s, so no leave request would be sent", pt.Of(me), name, termtext.Line(res.Relay))}
		return out
	}
	lines := []string{fmt.Sprintf("%s leaves %s on %s: the relay removes you from its members with a kind 9001", pt.Of(me), name, termtext.Line(res.Relay))}
	facts.RolesLost = append(facts.RolesLost, res.Before.Roles...)
	if len(facts.RolesLost) > 0 {
		lines = append(lines, fmt.Sprintf("you lose your role(s) there: %s", termtext.Line(strings.Join(facts.RolesLost, ", "))))
		owners := 0
		if g != nil {
			for _, ad := range g.Admins {
				if slices.Contains(ad.Roles, projects.RoleOwner) {
					owners++
				}
			}
		}
		if slices.Contains(facts.RolesLost, projects.RoleOwner) && owners == 1 {
			facts.OnlyOwner = true
			lines = append(lines, "you are its only owner: the relay may refuse the leave (the reference relay does); give another member the owner role first with roster group add")
		}
		if slices.Contains(facts.RolesLost, projects.RoleOwner) || slices.Contains(facts.RolesLost, projects.RoleAdmin) {
			lst := projects.List(ctx, pool, []string{res.Relay}, "", me)
			var named []string
			for _, l := range lst.Projects {
				if l.State != nil && l.State.Document.HomeChannel == ref.ID && l.Coordinate.Owner != me && slices.Contains(l.Why, projects.ListedHomeAdmin) {
					facts.HomeOf = append(facts.HomeOf, l.Coordinate.String())
					if n := l.State.Document.Name; n != "" {
						named = append(named, fmt.Sprintf("%s (%s)", termtext.Line(n), termtext.Line(l.Coordinate.String())))
					} else {
						named = append(named, termtext.Line(l.Coordinate.String()))
					}
				}
			}
			if len(named) > 0 {
				lines = append(lines, fmt.Sprintf("it is the home channel of %d project(s) whose related channels your role lets you change, and you will no longer be able to: %s",
					len(named), strings.Join(named, ", ")))
			}
		}
	}
	if facts.Private {
		lines = append(lines, "it is private: you will no longer read its messages")
	}
	if facts.Closed {
		lines = append(lines, "it is closed: joining again needs an invite code or an admin's approval")
	} else {
		lines = append(lines, "joining again is a roster group join away (the relay decides)")
	}
	if save {
		lines = append(lines, "the group's entry in your kind 10009 groups list is removed too (--save)")
	}
	out.Consequences = lines
	return out
}
