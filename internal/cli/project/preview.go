// The consequence previews of the destructive project writes: delete (that
// it cannot be undone and what it removes) and update --home-channel (who
// gains, and who loses, authority over the related channels), printed
// before the write signs; with --dry-run printed alone. Binding a project
// to a channel the signer is not a member of asks for --yes.

package project

import (
	"bufio"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/spf13/cobra"
)

// projectPreviewFlags are --dry-run and --yes.
type projectPreviewFlags struct {
	dryRun, yes bool
}

func (f *projectPreviewFlags) register(cmd *cobra.Command, dryHelp string, yes bool) {
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, dryHelp)
	if yes {
		cmd.Flags().BoolVar(&f.yes, "yes", false, "bind the project to a home channel you are not a member of without asking (needed off a terminal)")
	}
}

// projectPreview is one write's consequence: the sentences, the facts,
// and whether the write must be confirmed (why, for the refusal).
type projectPreview struct {
	lines   []string
	facts   any
	confirm string
	reason  string // signer_membership, when confirm is set
}

// homeStanding is what the project's relay says about one channel.
type homeStanding struct {
	id       string
	answered bool
	found    bool
	live     bool
	admins   []report.ProjectAuthorityPerson // owners and admins only
	member   bool
	noAdmins bool // the relay serves no admin list for it
}

// readHome reads channel id on relay, with the signer's membership.
func readHome(ctx context.Context, r pipeline.Relays, relay, id, me string) homeStanding {
	hs := homeStanding{id: id, admins: []report.ProjectAuthorityPerson{}}
	rd := groups.ReadMember(ctx, r, []string{relay}, id, me)
	if !rd.Complete || len(rd.Relays) != 1 {
		return hs
	}
	rr := rd.Relays[0]
	hs.answered, hs.found, hs.live = true, rr.Found, rr.Live
	if rr.Me != nil {
		hs.member = rr.Me.Member
	}
	if rr.Group == nil {
		return hs
	}
	hs.noAdmins = !slices.ContainsFunc(rr.Group.Sources, func(s groups.Source) bool { return s.Kind == groups.KindAdmins })
	for _, ad := range rr.Group.Admins {
		var roles []string
		for _, role := range ad.Roles {
			if role == projects.RoleOwner || role == projects.RoleAdmin {
				roles = append(roles, role)
			}
		}
		if len(roles) > 0 {
			hs.admins = append(hs.admins, report.ProjectAuthorityPerson{Npub: gitstate.EncodeNpub(ad.Pubkey), Pubkey: ad.Pubkey, Roles: roles})
		}
	}
	return hs
}

// mayChange is who of hs gets authority: its owners and admins while the
// channel is live.
func (hs homeStanding) mayChange() []report.ProjectAuthorityPerson {
	if !hs.live {
		return []report.ProjectAuthorityPerson{}
	}
	return hs.admins
}

// peopleRoles names each person with their roles: "alice (npub1…)
// (owner) and bob (npub1…) (admin)".
func peopleRoles(pt render.PeopleText, ps []report.ProjectAuthorityPerson) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s (%s)", pt.Of(p.Npub), strings.Join(p.Roles, ", ")))
	}
	switch len(out) {
	case 0:
		return "nobody"
	case 1:
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

// homePreview is what setting the home channel to home ("" removes it)
// does to who may change st's related channels.
func homePreview(ctx context.Context, a *cmdutil.Factory, r pipeline.Relays, relay, me string, st *projects.State, home string) projectPreview {
	c, old := st.Coordinate, st.Document.HomeChannel
	facts := report.ProjectHomeFacts{Coordinate: c.String(), Revision: st.Revision, MayChangeBefore: []report.ProjectAuthorityPerson{}, MayChangeAfter: []report.ProjectAuthorityPerson{}, SignerMembership: "member"}
	if old != "" {
		facts.HomeBefore = &old
	}
	if home != "" {
		facts.HomeAfter = &home
	}
	var before, after homeStanding
	if old != "" {
		before = readHome(ctx, r, relay, old, me)
		facts.MayChangeBefore = before.mayChange()
	}
	if home != "" {
		after = readHome(ctx, r, relay, home, me)
		facts.MayChangeAfter = after.mayChange()
	}
	var who []string
	for _, p := range append(append([]report.ProjectAuthorityPerson{}, facts.MayChangeBefore...), facts.MayChangeAfter...) {
		who = append(who, p.Npub)
	}
	pt := render.PeopleShown(a, ctx, []string{relay}, append(who, me)...)
	ct := render.ChannelsShown(a, ctx, []string{relay}, slices.DeleteFunc([]string{old, home}, func(s string) bool { return s == "" })...)
	you := pt.Of(c.Owner) + ", the project owner,"
	var lines []string
	p := projectPreview{facts: &facts}
	switch {
	case home == old:
		lines = append(lines, fmt.Sprintf("the home channel stays %s: who may change this project's related channels does not change", ct.Of(home)))
	case home == "":
		lines = append(lines, fmt.Sprintf("the project will have no home channel: only %s will be able to change its related channels", you))
	case !after.answered:
		facts.SignerMembership = "unknown"
		lines = append(lines, fmt.Sprintf("%s did not answer for channel %s, so roster cannot say who its owners and admins are: they will be able to change this project's related channels", relay, ct.Of(home)))
	case !after.found:
		facts.SignerMembership = "no-channel"
		lines = append(lines, fmt.Sprintf("there is no channel %s on %s: until one is created there, only %s may change the related channels; whoever creates it becomes its owner and will be able to change them", ct.Of(home), relay, you))
	case !after.live:
		lines = append(lines, fmt.Sprintf("channel %s is archived or deleted on %s, so it grants nobody authority: only %s will be able to change the related channels", ct.Of(home), relay, you))
	case after.noAdmins:
		lines = append(lines, fmt.Sprintf("%s serves no admin list (kind 39001) for %s, so roster cannot say who its owners and admins are: they will be able to change this project's related channels", relay, ct.Of(home)))
	case len(after.admins) == 0:
		lines = append(lines, fmt.Sprintf("%s has no owner or admin: only %s will be able to change its related channels until someone is made one", ct.Of(home), you))
	default:
		besides := ""
		if !slices.ContainsFunc(after.admins, func(x report.ProjectAuthorityPerson) bool { return x.Pubkey == c.Owner }) {
			besides = ", besides " + strings.TrimSuffix(you, ",")
		}
		lines = append(lines, fmt.Sprintf("%s of %s will be able to change this project's related channels%s", peopleRoles(pt, after.admins), ct.Of(home), besides))
	}
	if old != "" && old != home {
		var lost []report.ProjectAuthorityPerson
		for _, b := range facts.MayChangeBefore {
			if !slices.ContainsFunc(facts.MayChangeAfter, func(x report.ProjectAuthorityPerson) bool { return x.Pubkey == b.Pubkey }) && b.Pubkey != c.Owner {
				lost = append(lost, b)
			}
		}
		if len(lost) > 0 {
			lines = append(lines, fmt.Sprintf("%s of the current home channel %s will no longer be able to change them", peopleRoles(pt, lost), ct.Of(old)))
		} else {
			lines = append(lines, fmt.Sprintf("the current home channel %s stops being it; nobody else loses authority", ct.Of(old)))
		}
	}
	if home != "" && home != old && st.Document.Related(home) {
		lines = append(lines, fmt.Sprintf("%s is one of its related channels: it stops being one (the home channel is never a related channel)", ct.Of(home)))
	}
	if home != "" && home != old && !after.member {
		if facts.SignerMembership == "member" {
			facts.SignerMembership = "not-member"
		}
		facts.ConfirmationNeeded = true
		switch facts.SignerMembership {
		case "no-channel":
			p.confirm = fmt.Sprintf("there is no channel %s on %s, so you are no member of it", ct.Of(home), relay)
		case "unknown":
			p.confirm = fmt.Sprintf("roster could not check that you are a member of %s on %s", ct.Of(home), relay)
		default:
			p.confirm = fmt.Sprintf("you are not a member of %s on %s", ct.Of(home), relay)
		}
		p.reason = facts.SignerMembership
		lines = append(lines, p.confirm+": binding the project to it needs --yes (or a yes on a terminal)")
	}
	p.lines = lines
	return p
}

// deletePreview is what deleting st removes.
func deletePreview(ctx context.Context, a *cmdutil.Factory, relay string, st *projects.State) projectPreview {
	c, doc := st.Coordinate, st.Document
	facts := report.ProjectDeleteFacts{Coordinate: c.String(), Revision: st.Revision, RevisionAfter: st.Revision + 1, Name: doc.Name, Description: doc.Description,
		RelatedChannels: append([]string{}, doc.RelatedChannels...), Repositories: []string{}}
	chans := append([]string{}, doc.RelatedChannels...)
	if doc.HomeChannel != "" {
		h := doc.HomeChannel
		facts.HomeChannel = &h
		chans = append(chans, h)
	}
	var owners []string
	for _, m := range doc.Members {
		facts.Repositories = append(facts.Repositories, m.Address)
		owners = append(owners, m.Owner)
	}
	pt := render.PeopleShown(a, ctx, []string{relay}, owners...)
	ct := render.ChannelsShown(a, ctx, []string{relay}, chans...)
	title := doc.Name
	if title == "" {
		title = c.D
	}
	lines := []string{fmt.Sprintf("deleting project %s (%s) cannot be undone: the relay turns it into a tombstone at revision %d, which shows nothing of it",
		termtext.Line(title), termtext.Line(c.String()), st.Revision+1)}
	var removed []string
	if doc.Description != "" {
		removed = append(removed, "its name and description")
	} else {
		removed = append(removed, "its name")
	}
	if doc.HomeChannel != "" {
		removed = append(removed, fmt.Sprintf("its home channel %s (and the authority it gives that channel's owners and admins)", ct.Of(doc.HomeChannel)))
	}
	if n := len(doc.RelatedChannels); n > 0 {
		var named []string
		for _, ch := range doc.RelatedChannels {
			named = append(named, ct.Of(ch))
		}
		removed = append(removed, fmt.Sprintf("its %d related channel(s): %s", n, strings.Join(named, ", ")))
	}
	if n := len(doc.Members); n > 0 {
		var named []string
		for _, m := range doc.Members {
			named = append(named, termtext.Line(m.D)+" by "+pt.Of(m.Owner))
		}
		removed = append(removed, fmt.Sprintf("its %d member repositor%s: %s", n, map[bool]string{true: "y", false: "ies"}[n == 1], strings.Join(named, ", ")))
	}
	lines = append(lines, "it removes "+strings.Join(removed, "; "),
		"`roster project create` can later publish a new project at the same coordinate, but it starts from that new identity alone: the related channels others added do not come back",
		"the member repositories and the channels themselves are not deleted")
	return projectPreview{lines: lines, facts: &facts}
}

// projectPreviewStep runs before an identity write signs: it reads what
// the write would act on, prints the consequence (human output), and with
// --dry-run emits it as the whole output (stop). It returns the preview,
// whose binding the caller confirms (confirmBinding).
func projectPreviewStep(ctx context.Context, a *cmdutil.Factory, in projects.IdentityInput, verb string, f projectPreviewFlags,
	preview func(*projects.State) projectPreview) (p projectPreview, stop bool, err error) {
	st, err := projects.PreviewIdentity(ctx, in, verb)
	if err != nil {
		return p, true, render.PipelineErr(err)
	}
	p = preview(st)
	command := "project " + verb
	if f.dryRun {
		return p, true, render.EmitPreview(a, report.ConsequencePreview{Command: command, Relay: in.Relay, Consequences: p.lines, Facts: p.facts})
	}
	if !a.Opts.JSON {
		render.PrintConsequences(a, command, p.lines, false)
	}
	return p, false, nil
}

// confirmBinding asks on a terminal whether to bind the project to a
// channel the signer is not a member of; off one (or with --json) it
// refuses, naming the fix.
func confirmBinding(a *cmdutil.Factory, why, reason string, retry suggest.Command) error {
	msg := why + ": its owners and admins would be able to change this project's related channels"
	if !a.Io.InTTY || a.Opts.JSON {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "confirmation-required", Commands: []suggest.Command{retry.Because("bind it anyway")},
			Details: map[string]any{"signer_membership": reason},
			Err:     fmt.Errorf("%s, and there is no terminal to confirm it on; nothing was published: add --yes", msg)}
	}
	fmt.Fprintf(a.Io.Err, "%s. Bind the project to it anyway? [y/N] ", termtext.Line(msg))
	line, _ := bufio.NewReader(a.Io.In).ReadString('\n')
	if ans := strings.ToLower(strings.TrimSpace(line)); ans == "y" || ans == "yes" {
		return nil
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "confirmation-required", Commands: []suggest.Command{retry.Because("bind it anyway")},
		Details: map[string]any{"signer_membership": reason},
		Err:     fmt.Errorf("not confirmed; nothing was published")}
}

// retryWithYes is the command as typed with --yes.
func retryWithYes(cmd *cobra.Command, args []string) suggest.Command {
	return suggest.Roster(append(typedWords(cmd, args), "--yes")...)
}

// asTyped is the command as typed (the renderer adds the shared flags).
func asTyped(cmd *cobra.Command, args []string) suggest.Command {
	return suggest.Roster(typedWords(cmd, args)...)
}

// typedWords are the words of the command as typed: its words, its
// arguments and the project fields it sets.
func typedWords(cmd *cobra.Command, args []string) []string {
	words := append(strings.Fields(strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")), args...)
	// The project's own fields; the renderer adds the shared flags.
	return append(words, cmdutil.Typed{Keep: func(name string) bool {
		switch name {
		case "name", "description", "home-channel", "add-repo", "remove-repo", "force-unresolved":
			return true
		}
		return false
	}}.Flags(cmd)...)
}

// identityPreStep runs before an identity write builds and signs its event
// (projectIdentityWrite); stop ends the command there (a dry run, or a
// refusal).
type identityPreStep func(ctx context.Context, in projects.IdentityInput) (stop bool, err error)

// deleteStep previews a delete.
func deleteStep(a *cmdutil.Factory, f projectPreviewFlags) identityPreStep {
	return func(ctx context.Context, in projects.IdentityInput) (bool, error) {
		_, stop, err := projectPreviewStep(ctx, a, in, "delete", f, func(st *projects.State) projectPreview {
			return deletePreview(ctx, a, in.Relay, st)
		})
		return stop, err
	}
}

// updateStep previews an update: the fields it changes, and with
// --home-channel who gains and who loses authority.
func updateStep(a *cmdutil.Factory, f projectPreviewFlags, fl projects.Fields, retry suggest.Command) identityPreStep {
	return func(ctx context.Context, in projects.IdentityInput) (bool, error) {
		p, stop, err := projectPreviewStep(ctx, a, in, "update", f, func(st *projects.State) projectPreview {
			p := projectPreview{facts: map[string]any{"coordinate": st.Coordinate.String(), "revision": st.Revision}}
			if fl.Home != nil {
				p = homePreview(ctx, a, in.Relays, in.Relay, in.Signer, st, *fl.Home)
			}
			p.lines = append(fieldLines(st.Document, fl), p.lines...)
			return p
		})
		if stop || err != nil || p.confirm == "" || f.yes {
			return stop, err
		}
		return false, confirmBinding(a, p.confirm, p.reason, retry)
	}
}

// createStep is the binding check of a create with a home channel: the
// consequence, and --yes for a channel the signer is not a member of.
func createStep(a *cmdutil.Factory, home string, yes bool, retry suggest.Command) identityPreStep {
	return func(ctx context.Context, in projects.IdentityInput) (bool, error) {
		p := homePreview(ctx, a, in.Relays, in.Relay, in.Signer, &projects.State{Coordinate: in.Coord}, home)
		if !a.Opts.JSON {
			render.PrintConsequences(a, "project create", p.lines, false)
		}
		if p.confirm == "" || yes {
			return false, nil
		}
		return false, confirmBinding(a, p.confirm, p.reason, retry)
	}
}

// fieldLines says what an update changes besides the home channel.
func fieldLines(doc projects.Document, fl projects.Fields) []string {
	var out []string
	change := func(what, from, to string) {
		switch {
		case from == to:
			out = append(out, fmt.Sprintf("the %s stays %q", what, termtext.Line(to)))
		case to == "":
			out = append(out, fmt.Sprintf("the %s %q is removed", what, termtext.Line(from)))
		case from == "":
			out = append(out, fmt.Sprintf("the %s becomes %q", what, termtext.Line(to)))
		default:
			out = append(out, fmt.Sprintf("the %s changes from %q to %q", what, termtext.Line(from), termtext.Line(to)))
		}
	}
	if fl.Name != nil {
		change("name", doc.Name, *fl.Name)
	}
	if fl.Description != nil {
		change("description", doc.Description, *fl.Description)
	}
	for _, m := range fl.Repos.Add {
		out = append(out, fmt.Sprintf("member repository %s is added", termtext.Line(m.Address)))
	}
	for _, r := range fl.Repos.Remove {
		out = append(out, fmt.Sprintf("member repository %s is removed", termtext.Line(r)))
	}
	return out
}
