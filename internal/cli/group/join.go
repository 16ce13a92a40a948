// `roster group join|leave`: one groups.Join or groups.Leave, then the kind
// 10009 list offered or saved, rendered.

package group

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/spf13/cobra"
)

// groupRequestOpts are join's and leave's flags.
type groupRequestOpts struct {
	code, reason string
	// from is join's --from: the relay whose entry for the group --save
	// drops (the group moved from there).
	from string
	save bool
}

// NewCmdJoin builds `roster group join`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdJoin(a *cmdutil.Factory, runF func(context.Context, *RequestOptions) error) *cobra.Command {
	var o groupRequestOpts
	cmd := &cobra.Command{
		Use:   "join <group>",
		Short: "Ask the relay hosting a group to admit you (kind 9021)",
		Long: `Reads your membership on the relay hosting the group, sends it a kind 9021 join
request (with a code tag for --code or an naddr's ?invite=<code>) unless you
are a member already, and reads your membership again. The relay decides:

  joined          it admitted you (a kind 9000 names you now)
  pending         it took the request but has not admitted you: an admin
                  decides (a closed group without an invite code), or its
                  refusal said the request is pending review
  already-member  you were a member (nothing sent), or it answered duplicate:
                  (NIP-29: already a member; where its 39002 or latest
                  9000/9001 disagree, a note says so)

A refusal is exit 3 with the relay's words (restricted: - a closed group, a
bad invite code or this key is not allowed; auth-required: - it would not
accept this key's NIP-42 authentication; any other prefix), rate-limited: is
exit 4, no answer is exit 6.

Your kind 10009 groups list (NIP-51) is then offered the group, or updated
with --save: the new version keeps every other entry and its content byte for
byte. It is read from and published to the --relay relays and the group's.
--from <relay> with --save also drops the group's entry for that relay: the
way to follow a group that moved (roster suggests it when a relay is down and
groups lists point elsewhere).

` + groupRefHelp,
		Example: `  roster group join "relay.example'99999999-9999-4999-8999-999999999999"
  roster group join 'naddr1...?invite=c0de' --save
  roster group join my-group --code c0de --relay wss://relay.example --json
  roster group join "new.example'my-group" --save --from wss://old.example`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.from != "" && !o.save {
				return cmdutil.UsageErr("--from changes your kind 10009 groups list, so it needs --save")
			}
			if runF != nil {
				return runF(cmd.Context(), o.options(a, args[0], false, false))
			}
			return groupRequest(cmd, a, args[0], groups.KindJoinRequest, o)
		},
	}
	cmd.Flags().StringVar(&o.code, "code", "", "the invite code to send in the join request's code tag")
	cmd.Flags().StringVar(&o.reason, "reason", "", "a reason for the admins (the request's content)")
	cmd.Flags().BoolVar(&o.save, "save", false, "also add the group to your kind 10009 groups list")
	cmd.Flags().StringVar(&o.from, "from", "", "with --save, also drop the group's entry for this relay (the group moved)")
	return cmd
}

// NewCmdLeave builds `roster group leave`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdLeave(a *cmdutil.Factory, runF func(context.Context, *RequestOptions) error) *cobra.Command {
	var o groupRequestOpts
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "leave <group>",
		Short: "Ask the relay hosting a group to remove you (kind 9022)",
		Long: `Reads your membership on the relay hosting the group, sends it a kind 9022 leave
request unless you are not a member, and reads your membership again: the
relay removes you with a kind 9001 (outcome left; not-a-member when nothing
was sent). A refusal is exit 3 with the relay's words (the reference relay
refuses the last owner: give another member the owner role first); a relay
that accepts but still lists you is exit 6 (still-member).

Your kind 10009 groups list is then offered the removal, or updated with
--save (every other entry kept byte for byte).

Before the request is sent, roster says what leaving loses: your roles
there, the projects it is the home channel of whose related channels your
role lets you change, reading a private group, and whether joining again
needs an invite (a closed group). --dry-run prints only that and sends
nothing.

` + groupRefHelp,
		Example: `  roster group leave "relay.example'99999999-9999-4999-8999-999999999999" --dry-run
  roster group leave "relay.example'99999999-9999-4999-8999-999999999999"
  roster group leave my-group --relay wss://relay.example --save --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), o.options(a, args[0], true, dryRun))
			}
			if dryRun || !a.Opts.JSON {
				// The preview's own suggestions (a fork, an outage) repeat
				// it as a preview: pasting one never leaves.
				var command []string
				if dryRun {
					command = append(commandWords(cmd, "leave", args[0]), "--dry-run")
				}
				p, err := groupLeavePreview(cmd.Context(), a, args[0], o.save, command)
				switch {
				case dryRun && err != nil:
					return err
				case dryRun:
					return render.EmitPreview(a, p)
				case err == nil && len(p.Consequences) > 1:
					// What leaving loses, before the request is sent (a
					// failed read is reported by the request itself).
					render.PrintConsequences(a, "group leave", p.Consequences, false)
				}
			}
			return groupRequest(cmd, a, args[0], groups.KindLeaveRequest, o)
		},
	}
	cmd.Flags().StringVar(&o.reason, "reason", "", "a reason for the admins (the request's content)")
	cmd.Flags().BoolVar(&o.save, "save", false, "also remove the group from your kind 10009 groups list")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "say what leaving the group loses; sign and send nothing")
	return cmd
}

func groupRequest(cmd *cobra.Command, a *cmdutil.Factory, arg string, kind int, o groupRequestOpts) error {
	ctx := cmd.Context()
	code, reason := o.code, o.reason
	verb := map[int]string{groups.KindJoinRequest: "join", groups.KindLeaveRequest: "leave"}[kind]
	ref, relays, err := groupTarget(a, arg, verb)
	if err != nil {
		return err
	}
	if a.Opts.Offline {
		return cmdutil.UsageErr("a %s request goes to the relay hosting the group; drop --offline", verb)
	}
	if code == "" {
		code = ref.Invite
	} else if ref.Invite != "" && ref.Invite != code {
		return cmdutil.UsageErr("--code %q differs from the reference's ?invite=%s; give one", code, ref.Invite)
	}
	s, me, err := a.SignerAndPubkey(ctx)
	if err != nil {
		return err
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	in := groups.RequestInput{Relays: pool, Publish: pipeline.PoolPublish(pool), Sign: s.SignEvent, Me: me,
		Ask: relays, Host: ref.Relay, ID: ref.ID, Code: code, Reason: reason, Now: func() nostr.Timestamp { return cmdutil.NostrNow(a) },
		Journal: a.Journal()}
	group := ref.ID
	if ref.Relay != "" {
		group = ref.Relay + "'" + ref.ID
	} else if len(relays) == 1 {
		group = relays[0] + "'" + ref.ID
	}
	in.Command = commandWords(cmd, verb, group)
	if err := noticeUnfinished(a, relays, ref.ID, false); err != nil {
		return err
	}
	var res groups.RequestResult
	if kind == groups.KindJoinRequest {
		res, err = groups.Join(ctx, in)
	} else {
		res, err = groups.Leave(ctx, in)
	}
	var pe *pipeline.Error
	if errors.As(err, &pe) && pe.Code == groups.CodeIncomplete {
		// The hosting relay may be down for good: the migration check.
		read, _ := pe.Details["relays"].([]groups.RelayRead)
		if e, ok := render.PipelineErr(err).(*cmdutil.ExitError); ok {
			return withMoves(e, groupMoveSearch(ctx, a, pool, read, ref.ID, me))
		}
	}
	if err != nil {
		return render.PipelineErr(err)
	}
	groupCacheRelay(a, res.Read)
	groupSelfWarning(a, ref, res.Read)
	out := report.GroupRequest{Schema: "roster.group." + verb + "/v1", ID: ref.ID, Relay: res.Relay, You: render.WsPerson(me, ""),
		Outcome: res.Outcome, Explanation: groupExplain(res), Note: res.Note, Sent: res.Sent, Code: res.Sent && code != "" && kind == groups.KindJoinRequest,
		Accepted: res.Accepted, Message: res.Message, Before: res.Before, After: res.After}
	if res.Event != nil {
		out.EventID = res.Event.ID
	}
	name := ""
	if res.Read.Group != nil && res.Read.Group.Metadata != nil {
		name = res.Read.Group.Metadata.Name
	}
	out.List, err = groupListChange(ctx, a, pool, s, me, res, ref, name, o)
	if err != nil {
		return err
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	w := a.Io.Out
	fmt.Fprintf(w, "%s group %s on %s: %s\n", verb, termtext.Line(ref.ID), termtext.Line(res.Relay), out.Outcome)
	fmt.Fprintf(w, "  %s\n", termtext.Line(out.Explanation))
	if out.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", termtext.Line(out.Note))
	}
	switch out.List.Status {
	case "saved":
		fmt.Fprintf(w, "  groups list (kind 10009) saved: %s\n", out.List.EventID)
	case "offered":
		fmt.Fprintf(w, "  your groups list (kind 10009) does not match yet; to update it run:\n    %s\n", out.List.Commands[0])
	}
	return nil
}

// groupExplain says what the relay did, in words.
func groupExplain(res groups.RequestResult) string {
	said := ""
	if res.Message != "" {
		said = fmt.Sprintf(" (it said: %s)", res.Message)
	}
	switch res.Outcome {
	case groups.OutcomeJoined:
		return fmt.Sprintf("the relay accepted the join request%s and admitted you: kind 9000 %s names you", said, res.After.EventID)
	case groups.OutcomePending:
		if !res.Accepted {
			return "the relay did not admit you yet: it says the request is pending review" + said
		}
		return "the relay accepted the join request but has not admitted you: it is queued for an admin's approval (a closed group admits at once only with an invite code); run group show --me later"
	case groups.OutcomeAlreadyMember:
		if res.Sent {
			return "the relay answered that you are already a member" + said
		}
		return fmt.Sprintf("you are already a member (%s %s), so no join request was sent", res.Before.Basis, res.Before.EventID)
	case groups.OutcomeLeft:
		return fmt.Sprintf("the relay accepted the leave request%s and removed you: kind 9001 %s", said, res.After.EventID)
	case groups.OutcomeNotMember:
		return "the relay's record does not make you a member, so no leave request was sent"
	}
	return res.Outcome
}

// groupListChange offers or (save) publishes the kind 10009 that matches the
// outcome (groups.SaveList), its offer rendered with your flags.
func groupListChange(ctx context.Context, a *cmdutil.Factory, pool *relaypool.Pool, s signer.Signer, me string,
	res groups.RequestResult, ref groups.Ref, name string, o groupRequestOpts) (report.GroupListUpdate, error) {
	ch, err := groups.SaveList(ctx, groups.ListInput{Relays: pool, Deliver: pool, Sign: s.SignEvent, Me: me,
		Now: func() nostr.Timestamp { return cmdutil.NostrNow(a) }, Journal: a.Journal(), Request: res, ID: ref.ID, Name: name,
		ListRelays: a.DefaultRelays(), From: o.from, Save: o.save})
	up := report.GroupListUpdate{Status: ch.Status, Previous: ch.Previous, EventID: ch.EventID, Relays: ch.Relays, Commands: []string{}}
	if ch.Offer != nil {
		up.Commands = render.Render(a, []suggest.Command{*ch.Offer})
	}
	return up, render.PipelineErr(err)
}
