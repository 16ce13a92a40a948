// `roster group create|edit|add|remove|invite|delete-event|delete`: one
// groups.Moderate, rendered.

package group

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// groupModOpts are the flags the moderation commands share, and each one's.
type groupModOpts struct {
	dryRun, yes bool
	reason      string
	roles       []string
	code        string
	meta        groupMetaFlags
}

// groupMetaFlags are create's and edit's metadata flags.
type groupMetaFlags struct {
	name, about, picture, banner, parent string
	private, closed, restricted, hidden  bool
}

func addGroupMetaFlags(cmd *cobra.Command, m *groupMetaFlags) {
	f := cmd.Flags()
	f.StringVar(&m.name, "name", "", "the group's name")
	f.StringVar(&m.about, "about", "", "the group's description")
	f.StringVar(&m.picture, "picture", "", "the URL of the group's picture")
	f.StringVar(&m.banner, "banner", "", "the URL of the group's banner")
	f.BoolVar(&m.private, "private", false, "only members may read (--private=false: anyone)")
	f.BoolVar(&m.closed, "closed", false, "join requests need an invite code (--closed=false: open)")
	f.BoolVar(&m.restricted, "restricted", false, "only members may write (--restricted=false: anyone)")
	f.BoolVar(&m.hidden, "hidden", false, "the relay hides the metadata from non-members (--hidden=false: shown)")
	f.StringVar(&m.parent, "parent", "", `make the group a subgroup of this group id (you must administer it; "" makes it a root)`)
}

// edit is what the flags the user gave change.
func (m groupMetaFlags) edit(cmd *cobra.Command) groups.MetadataEdit {
	var e groups.MetadataEdit
	f := cmd.Flags()
	str := func(name string, v string) *string {
		if !f.Changed(name) {
			return nil
		}
		return &v
	}
	flag := func(name string, v bool) *bool {
		if !f.Changed(name) {
			return nil
		}
		return &v
	}
	e.Name, e.About, e.Picture, e.Banner, e.Parent = str("name", m.name), str("about", m.about), str("picture", m.picture), str("banner", m.banner), str("parent", m.parent)
	e.Private, e.Closed, e.Restricted, e.Hidden = flag("private", m.private), flag("closed", m.closed), flag("restricted", m.restricted), flag("hidden", m.hidden)
	return e
}

const groupModHelp = `Before sending, roster shows your roles in the group (its relay-signed kind
39001) and the roles the relay advertises (39003) with their descriptions:
NIP-29 leaves what each role may do to the relay, so roster does not predict
it. The relay decides; a refusal is exit 3 with its reason. After an accepted
event roster re-reads the relay and verifies the change in what the relay
signs; an accepted change it does not show is exit 6 (unverified).
--dry-run previews the consequence and prints the unsigned event(s).`

func addGroupModFlags(cmd *cobra.Command, o *groupModOpts) {
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "preview only; sign and send nothing")
	cmd.Flags().StringVar(&o.reason, "reason", "", "a reason, sent as the event's content")
}

// NewCmdCreate builds `roster group create`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdCreate(a *cmdutil.Factory, runF func(context.Context, *ModerateOptions) error) *cobra.Command {
	var o groupModOpts
	cmd := &cobra.Command{
		Use:   "create <relay>'<group-id>",
		Short: "Create a group on a relay (kind 9007, then 9002 for its metadata)",
		Long: `Sends a kind 9007 create-group to the relay, and, when --name, --about,
--picture, --banner, --private, --closed, --restricted, --hidden or --parent is
given, a kind 9002 edit-metadata with them; both are previewed first. The group
is created on one relay: name it as <relay>'<group-id>, or give a single
--relay. --parent needs you to administer an existing parent group there (its
kind 39001 lists you).

` + groupModHelp,
		Example: `  roster group create "relay.example'pizza" --name "Pizza lovers" --closed
  roster group create "ws://127.0.0.1:7777'nip29" --parent nostr --dry-run
  roster group create my-group --relay wss://relay.example --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return moderate(cmd, a, runF, args[0], groups.ModerationInput{Action: groups.ActCreate, Edit: o.meta.edit(cmd)}, o, "")
		},
	}
	addGroupMetaFlags(cmd, &o.meta)
	addGroupModFlags(cmd, &o)
	return cmd
}

// NewCmdEdit builds `roster group edit`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdEdit(a *cmdutil.Factory, runF func(context.Context, *ModerateOptions) error) *cobra.Command {
	var o groupModOpts
	cmd := &cobra.Command{
		Use:   "edit <group>",
		Short: "Edit a group's metadata (kind 9002), keeping everything else",
		Long: `Starts from the group's current relay-signed metadata (kind 39000) and sends a
kind 9002 carrying every one of its fields, its parent and all its child tags,
changing only what the flags ask: a partial 9002 would detach subgroups or be
rejected. --private=false (and --closed, --restricted, --hidden) removes a
flag, --name "" the name, --parent "" makes the group a root. An edit to the
current values sends nothing.

` + groupModHelp + `

` + groupRefHelp,
		Example: `  roster group edit "relay.example'pizza" --about "We love pizza" --closed=false
  roster group edit my-group --parent tech --dry-run --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e := o.meta.edit(cmd)
			if e == (groups.MetadataEdit{}) {
				return cmdutil.UsageErr("group edit changes nothing without a flag: give --name, --about, --picture, --banner, --private, --closed, --restricted, --hidden or --parent")
			}
			return moderate(cmd, a, runF, args[0], groups.ModerationInput{Action: groups.ActEdit, Edit: e}, o, "")
		},
	}
	addGroupMetaFlags(cmd, &o.meta)
	addGroupModFlags(cmd, &o)
	return cmd
}

// NewCmdAdd builds `roster group add`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdAdd(a *cmdutil.Factory, runF func(context.Context, *ModerateOptions) error) *cobra.Command {
	var o groupModOpts
	cmd := &cobra.Command{
		Use:   "add <group> <npub|nip05>",
		Short: "Add a member, or change a member's roles (kind 9000)",
		Long: `Sends a kind 9000 put-user naming the person with the --role roles (none: a
plain member). For a member it replaces their roles. roster verifies by the
latest kind 9000/9001 naming the person on the relay; where the relay's
admin list (39001) or member list (39002) disagree, a note says so (a relay
may accept role names it gives nothing, and a member list may be partial).
Adding someone with the roles they have sends nothing.

` + groupModHelp + `

` + groupRefHelp,
		Example: `  roster group add "relay.example'pizza" npub1... --role moderator
  roster group add my-group bob@example.com --role admin --dry-run
  roster group add my-group npub1...            # makes an admin a plain member`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return moderate(cmd, a, runF, args[0], groups.ModerationInput{Action: groups.ActPutUser, Roles: o.roles}, o, args[1])
		},
	}
	cmd.Flags().StringArrayVar(&o.roles, "role", nil, "a role to give (repeat for several; the relay's roles are shown before sending)")
	addGroupModFlags(cmd, &o)
	return cmd
}

// NewCmdRemove builds `roster group remove`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdRemove(a *cmdutil.Factory, runF func(context.Context, *ModerateOptions) error) *cobra.Command {
	var o groupModOpts
	cmd := &cobra.Command{
		Use:   "remove <group> <npub|nip05>",
		Short: "Remove a member (kind 9001)",
		Long: `Sends a kind 9001 remove-user naming the person, unless the relay's record
already says they are not a member, and verifies by the latest kind 9000/9001
naming them (and the member list, 39002, where the relay publishes one).

` + groupModHelp + `

` + groupRefHelp,
		Example: `  roster group remove "relay.example'pizza" npub1...
  roster group remove my-group npub1... --reason spam --json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return moderate(cmd, a, runF, args[0], groups.ModerationInput{Action: groups.ActRemoveUser}, o, args[1])
		},
	}
	addGroupModFlags(cmd, &o)
	return cmd
}

// NewCmdInvite builds `roster group invite`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdInvite(a *cmdutil.Factory, runF func(context.Context, *ModerateOptions) error) *cobra.Command {
	var o groupModOpts
	cmd := &cobra.Command{
		Use:   "invite <group>",
		Short: "Create an invite code (kind 9009) and print the link to share",
		Long: `Sends a kind 9009 create-invite with --code, or a random code, and prints the
group's naddr1...?invite=<code> to share and the roster group join command
the other person pastes (it carries only the reference: never your --home,
key or relays). A join with the code is admitted even to a closed group; how
often a code may be used is the relay's policy (the reference relay's codes
admit one person). NIP-29 keeps no relay-signed record of codes, so the
relay's OK is the evidence.

` + groupModHelp + `

` + groupRefHelp,
		Example: `  roster group invite "relay.example'pizza"
  roster group invite my-group --code welcome-2026 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			code := o.code
			if code == "" {
				b := make([]byte, 8)
				if _, err := rand.Read(b); err != nil {
					return err
				}
				code = hex.EncodeToString(b)
			}
			return moderate(cmd, a, runF, args[0], groups.ModerationInput{Action: groups.ActInvite, Code: code}, o, "")
		},
	}
	cmd.Flags().StringVar(&o.code, "code", "", "the invite code (default: 16 random hex characters)")
	addGroupModFlags(cmd, &o)
	return cmd
}

// NewCmdDeleteEvent builds `roster group delete-event`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdDeleteEvent(a *cmdutil.Factory, runF func(context.Context, *ModerateOptions) error) *cobra.Command {
	var o groupModOpts
	cmd := &cobra.Command{
		Use:   "delete-event <group> <nevent|id>",
		Short: "Delete an event from a group (kind 9005)",
		Long: `Looks the event up on the group's relay (an nevent's relay hint is not used),
previews it (kind, author, the start of its content) and sends a kind 9005
delete-event; roster verifies that the relay no longer serves it. The event
must carry the group's h tag.

` + groupModHelp + `

` + groupRefHelp,
		Example: `  roster group delete-event "relay.example'pizza" nevent1...
  roster group delete-event my-group <64-hex id> --reason spam --dry-run`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseEventRef(args[1])
			if err != nil {
				return cmdutil.UsageErr("%v", err)
			}
			return moderate(cmd, a, runF, args[0], groups.ModerationInput{Action: groups.ActDeleteEvent, EventID: id}, o, "")
		},
	}
	addGroupModFlags(cmd, &o)
	return cmd
}

// NewCmdDelete builds `roster group delete`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdDelete(a *cmdutil.Factory, runF func(context.Context, *ModerateOptions) error) *cobra.Command {
	var o groupModOpts
	cmd := &cobra.Command{
		Use:   "delete <group>",
		Short: "Delete a group (kind 9008)",
		Long: `Previews the deletion (members, subgroups that become roots), asks you to type
the group id on a terminal (off a terminal, --yes is required), sends a kind
9008 delete-group and verifies that the relay no longer shows the group live.

` + groupModHelp + `

` + groupRefHelp,
		Example: `  roster group delete "relay.example'pizza"
  roster group delete my-group --yes --json
  roster group delete my-group --dry-run`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return moderate(cmd, a, runF, args[0], groups.ModerationInput{Action: groups.ActDeleteGroup}, o, "")
		},
	}
	cmd.Flags().BoolVar(&o.yes, "yes", false, "delete without asking (needed off a terminal)")
	addGroupModFlags(cmd, &o)
	return cmd
}

// parseEventRef reads an nevent1..., note1... or 64-hex event id.
func parseEventRef(s string) (string, error) {
	s = strings.TrimSpace(s)
	if nostr.IsValid32ByteHex(strings.ToLower(s)) {
		return strings.ToLower(s), nil
	}
	prefix, v, err := nip19.Decode(strings.ToLower(strings.TrimPrefix(s, "nostr:")))
	if err == nil {
		switch prefix {
		case "nevent":
			return v.(nostr.EventPointer).ID, nil
		case "note":
			return v.(string), nil
		}
	}
	return "", fmt.Errorf("%q is not an event: give an nevent1..., a note1... or the 64-hex event id", s)
}

func groupModerate(cmd *cobra.Command, a *cmdutil.Factory, arg string, in groups.ModerationInput, o groupModOpts, person string) error {
	ctx := cmd.Context()
	verb := string(in.Action)
	ref, relays, err := groupTarget(a, arg, verb)
	if err != nil {
		return err
	}
	if a.Opts.Offline {
		return cmdutil.UsageErr("a moderation event goes to the relay hosting the group; drop --offline")
	}
	if ref.Invite != "" {
		return cmdutil.UsageErr("the reference carries an invite code (?invite=%s), which only group join uses; name the group without it", ref.Invite)
	}
	var lookups cmdutil.Lookups
	if person != "" {
		pk, l, err := a.ResolvePubkeyArg(ctx, "<npub>", person, true, suggest.Roster(commandWords(cmd, verb, ref.String(), "<npub>")...))
		lookups = l
		if err != nil {
			return err
		}
		if in.Target, err = gitstate.DecodePubkey(pk); err != nil {
			return cmdutil.UsageErr("%v", err)
		}
	}
	s, me, err := a.SignerAndPubkey(ctx)
	if err != nil {
		return err
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	in.Relays, in.Publish, in.Sign, in.Me = pool, pipeline.PoolPublish(pool), s.SignEvent, me
	in.Ask, in.Host, in.ID, in.Reason, in.DryRun = relays, ref.Relay, ref.ID, o.reason, o.dryRun
	in.Now = func() nostr.Timestamp { return cmdutil.NostrNow(a) }
	in.Journal = a.Journal()
	if err := noticeUnfinished(a, relays, ref.ID, o.dryRun); err != nil {
		return err
	}
	var args []string
	if person != "" {
		args = append(args, person)
	}
	if in.Action == groups.ActDeleteEvent {
		args = append(args, in.EventID)
	}
	// The command as typed: what the suggestions of a read that finds no
	// single hosting relay repeat.
	in.Command = commandWords(cmd, verb, ref.String(), args...)
	if o.dryRun {
		// A preview's suggestions preview too; the command journaled
		// before sending is built again below, without it.
		in.Command = append(in.Command, "--dry-run")
	}
	p, err := groups.Prepare(ctx, in)
	res := p.Result
	if err != nil {
		return groupModErr(a, res, err)
	}
	if !res.NothingToChange && !o.dryRun {
		if in.Action == groups.ActDeleteGroup && !o.yes {
			// Preview, then ask: the deletion is not undone. The group was
			// read once; Send signs what was previewed.
			retry := suggest.Roster(append(commandWords(cmd, verb, ref.String()), "--yes")...)
			if err := groupConfirmDelete(a, res, ref, retry); err != nil {
				return err
			}
		}
		p.Command = commandWords(cmd, verb, res.Relay+"'"+ref.ID, args...)
		if in.Action == groups.ActDeleteGroup && !o.yes {
			p.Command = append(p.Command, "--yes")
		}
		res, err = p.Send(ctx)
		if err != nil {
			return groupModErr(a, res, err)
		}
	}
	out := report.GroupModeration{Schema: "roster.group.moderation/v1", Signer: render.WsPerson(me, ""), ModerationResult: res, NIP05Lookups: lookups.JSON()}
	if in.Target != "" {
		t := render.WsPerson(in.Target, "")
		out.Target = &t
	}
	if in.Action == groups.ActInvite {
		out.Code, out.Share = in.Code, res.Naddr
		out.JoinCommand = suggest.Roster("group", "join", res.Naddr).Pin().String()
	}
	if res.After != nil && (in.Action == groups.ActCreate || in.Action == groups.ActEdit || in.Action == groups.ActDeleteGroup) {
		out.Metadata = res.After.Metadata
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	a.PrintLookups(lookups)
	groupModRender(a, out)
	return nil
}

// groupModErr renders what was read before a refusal (your roles, the
// relay's roles, the preview) and returns the error, with those in details.
func groupModErr(a *cmdutil.Factory, res groups.ModerationResult, err error) error {
	e := render.PipelineErr(err)
	var ee *cmdutil.ExitError
	if errors.As(e, &ee) && res.Relay != "" {
		if ee.Details == nil {
			ee.Details = map[string]any{}
		}
		ee.Details["signer_roles"] = res.SignerRoles
		ee.Details["relay_roles"] = res.RelayRoles
		ee.Details["preview"] = res.Preview
		if !a.Opts.JSON {
			groupModHeader(a, res)
		}
	}
	return e
}

func groupModHeader(a *cmdutil.Factory, res groups.ModerationResult) {
	w := a.Io.Out
	fmt.Fprintf(w, "group %s on %s: %s\n", termtext.Line(res.ID), termtext.Line(res.Relay), res.Action)
	if res.Action != groups.ActCreate {
		roles := "none (the relay's admin list, kind 39001, does not list you)"
		if len(res.SignerRoles) > 0 {
			roles = termtext.Line(strings.Join(res.SignerRoles, ", "))
		}
		fmt.Fprintf(w, "  your roles: %s\n", roles)
		if len(res.RelayRoles) == 0 {
			fmt.Fprintf(w, "  the relay advertises no roles (kind 39003)\n")
		} else {
			fmt.Fprintf(w, "  the relay's roles (kind 39003; the relay decides what each may do):\n")
			for _, r := range res.RelayRoles {
				if r.Description != "" {
					fmt.Fprintf(w, "    %s: %s\n", termtext.Line(r.Name), termtext.Line(r.Description))
				} else {
					fmt.Fprintf(w, "    %s\n", termtext.Line(r.Name))
				}
			}
		}
	}
	for _, p := range res.Preview {
		fmt.Fprintf(w, "  %s\n", termtext.Line(p))
	}
}

func groupModRender(a *cmdutil.Factory, out report.GroupModeration) {
	w := a.Io.Out
	res := out.ModerationResult
	groupModHeader(a, res)
	switch {
	case res.NothingToChange:
		fmt.Fprintln(w, "  nothing sent")
		return
	case res.DryRun:
		fmt.Fprintln(w, "  dry run: nothing signed or sent; the event(s):")
		for _, s := range res.Steps {
			tags, _ := json.Marshal(s.Event.Tags)
			fmt.Fprintf(w, "    kind %d %s tags %s\n", s.Kind, s.Name, termtext.Line(string(tags)))
		}
		return
	}
	for _, s := range res.Steps {
		fmt.Fprintf(w, "  sent kind %d %s: %s\n", s.Kind, s.Event.ID, termtext.Line(s.Explanation))
	}
	fmt.Fprintf(w, "  verified: %s\n", termtext.Line(res.Verified))
	if res.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", termtext.Line(res.Note))
	}
	if out.Share != "" {
		fmt.Fprintf(w, "share: %s\n", out.Share)
		fmt.Fprintf(w, "they run: %s\n", out.JoinCommand)
	}
}

// groupConfirmDelete shows the preview and asks for the group id on a
// terminal; off one, --yes is required.
// retry is the same command with --yes, its intent flags (--reason) kept.
func groupConfirmDelete(a *cmdutil.Factory, res groups.ModerationResult, ref groups.Ref, retry suggest.Command) error {
	if !a.Opts.JSON {
		groupModHeader(a, res)
	}
	if !a.Io.InTTY || a.Opts.JSON {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "confirmation-required", Commands: []suggest.Command{retry},
			Err: fmt.Errorf("deleting group %s cannot be undone, and there is no terminal to confirm it on: pass --yes", ref.ID)}
	}
	fmt.Fprintf(a.Io.Err, "type the group id (%s) to delete it: ", termtext.Line(ref.ID))
	line, _ := bufio.NewReader(a.Io.In).ReadString('\n')
	if strings.TrimSpace(line) != ref.ID {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "confirmation-required", Commands: []suggest.Command{retry},
			Err: fmt.Errorf("the typed id does not match %s; nothing was sent", ref.ID)}
	}
	return nil
}
