// A project's member repositories on the command line: --add-repo,
// --remove-repo and --force-unresolved of `project create|update`, and the
// one discovery of every member that `project show` and `project health`
// read (discovery.LoadMany).

package project

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"

	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
)

// MaxProjectHintRelays bounds the relays the members' relay hints add to a
// read of a project's repositories (the first, in address order).
const MaxProjectHintRelays = 8

// projectRepoFlags are the member-repository flags of create and update.
type projectRepoFlags struct {
	add, remove []string
	force       bool
}

func (f *projectRepoFlags) register(cmd *cobra.Command, update bool) {
	cmd.Flags().StringArrayVar(&f.add, "add-repo", nil, "add a member repository (naddr, nostr:// URL or 30617:<hex>:<d>); repeatable")
	if update {
		cmd.Flags().StringArrayVar(&f.remove, "remove-repo", nil, "remove a member repository (naddr, nostr:// URL or 30617:<hex>:<d>); repeatable")
	}
	cmd.Flags().BoolVar(&f.force, "force-unresolved", false, "add repositories whose announcement the relays do not hold (not looked up)")
}

// edit parses the flags into a projects.RepositoryEdit.
func (f *projectRepoFlags) edit(ctx context.Context, a *cmdutil.Factory) (projects.RepositoryEdit, error) {
	var e projects.RepositoryEdit
	for _, s := range f.add {
		m, err := projectRepoArg(ctx, a, "--add-repo", s)
		if err != nil {
			return e, err
		}
		e.Add = append(e.Add, m)
	}
	for _, s := range f.remove {
		m, err := projectRepoArg(ctx, a, "--remove-repo", s)
		if err != nil {
			return e, err
		}
		e.Remove = append(e.Remove, m.Address)
	}
	return e, nil
}

// projectRepoArg reads one repository: a coordinate 30617:<hex>:<d>, an
// naddr or a nostr:// URL (a NIP-05 name in it is looked up); the first
// relay hint becomes the `a` tag's relay.
func projectRepoArg(ctx context.Context, a *cmdutil.Factory, flag, s string) (projects.Member, error) {
	if strings.HasPrefix(s, fmt.Sprint(projects.KindRepository)+":") {
		m, err := projects.ParseRepository(s)
		if err != nil {
			return m, cmdutil.UsageErr("%s: %v", flag, err)
		}
		return m, nil
	}
	sel, err := gitstate.ResolveWithoutCheckout(s)
	if err != nil {
		return projects.Member{}, cmdutil.UsageErr("%s %q: pass an naddr, a nostr:// URL or 30617:<hex>:<d> (%v)", flag, s, err)
	}
	if sel.NeedsNIP05() {
		if a.Opts.Offline {
			return projects.Member{}, cmdutil.UsageErr("%s %q names %s, a NIP-05 name that needs the network to look up", flag, s, sel.NIP05)
		}
		hctx, cancel := context.WithTimeout(ctx, a.Opts.Timeout)
		defer cancel()
		if sel, err = sel.Resolve(hctx, a.HttpClient()); err != nil {
			return projects.Member{}, &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "nip05", Err: fmt.Errorf("%s: look up %s: %w", flag, sel.NIP05, err)}
		}
	}
	c := sel.Coordinate
	if c.Kind != projects.KindRepository || !c.Valid() {
		return projects.Member{}, cmdutil.UsageErr("%s %q does not name a kind %d repository", flag, s, projects.KindRepository)
	}
	relay := ""
	if len(sel.Relays) > 0 {
		relay = sel.Relays[0]
	}
	return projects.NewMember(c.Pubkey, c.Identifier, relay), nil
}

// projectRepoCheck is the check of the repositories an edit adds
// (projects.IdentityInput.CheckRepos): one discovery of them all on relay
// and their hints; one the relays that answered do not hold is refused
// (repository-unresolved, exit 3), one no relay answered for is exit 4.
func projectRepoCheck(a *cmdutil.Factory, verb, relay string, c projects.Coordinate) func(context.Context, []projects.Member) error {
	return func(ctx context.Context, add []projects.Member) error {
		many, err := projectReadRepos(ctx, a, []string{relay}, add, discovery.Partial, false)
		if err != nil {
			return err
		}
		var missing, silent []string
		first := add[0]
		for i, m := range many {
			var nf *discovery.NotFound
			switch {
			case m.Err == nil:
			case errors.As(m.Err, &nf):
				if len(missing) == 0 {
					first = add[i]
				}
				missing = append(missing, add[i].Address)
			default:
				silent = append(silent, add[i].Address)
			}
		}
		argv := []string{"project", verb, c.String()}
		if verb == "create" {
			argv = []string{"project", verb, c.D, "--name", "<name>"}
		}
		retry := suggest.Roster(append(argv, "--add-repo", first.Address, "--force-unresolved", "--relay", relay)...)
		if len(missing) > 0 {
			return &pipeline.Error{Class: pipeline.Refused, Code: "repository-unresolved",
				Msg: fmt.Sprintf("refused before signing, nothing was published: no relay asked holds an announcement of %s, so the project would name a repository nobody can read; check the coordinate, or add it anyway with --force-unresolved",
					strings.Join(missing, ", ")),
				Details: map[string]any{"repositories": missing},
				Next:    []suggest.Command{suggest.Roster("repo", "--repo", "nostr://"+graph.Npub(first.Owner)+"/"+first.D).Because("see what the relays hold of it"), retry.Because("add it although it does not resolve")}}
		}
		if len(silent) > 0 {
			return &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
				Msg:     fmt.Sprintf("no relay answered for %s, so roster cannot tell whether it resolves; nothing was published", strings.Join(silent, ", ")),
				Details: map[string]any{"repositories": silent},
				Next:    []suggest.Command{retry.Because("add it without looking it up")}}
		}
		return nil
	}
}

// projectReadRepos reads members in one discovery (discovery.LoadMany):
// relays and the members' relay hints (at most MaxProjectHintRelays),
// not pinned, so the relays their announcements list are asked in one
// more round; profiles of the people reached.
func projectReadRepos(ctx context.Context, a *cmdutil.Factory, relays []string, members []projects.Member, need discovery.Evidence, profiles bool) ([]discovery.Many, error) {
	all := append([]string(nil), relays...)
	hints := 0
	for _, m := range members {
		if u, err := discovery.RelayURL(m.Relay); err == nil && m.Relay != "" && hints < MaxProjectHintRelays {
			all = append(all, u)
			hints++
		}
	}
	sels := make([]gitstate.Selection, len(members))
	for i, m := range members {
		sels[i] = gitstate.Selection{Coordinate: graph.NewCoordinate(m.Owner, m.D), Source: gitstate.SourceFlag, Detail: m.Address}
	}
	src, done := a.RepoSource(relaypool.NormalizeRelays(all), nil, cmdutil.SourceOptions{Profiles: profiles})
	defer done()
	src.Pinned = false
	many, err := discovery.LoadMany(ctx, src, sels, need, a.ViewerPubkey(), a.Io.Now().Unix())
	var ce *discovery.CacheError
	var nr *discovery.NoRelays
	switch {
	case errors.As(err, &ce):
		var ee *cmdutil.ExitError
		if errors.As(ce.Err, &ee) {
			return nil, ee
		}
		return nil, cmdutil.CacheErr(ce.Doing, ce.Err)
	case errors.As(err, &nr):
		return nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-relays", Err: fmt.Errorf("no relay to ask for the project's repositories: pass --relay")}
	}
	return many, err
}

// projectRepositories is the `repositories` array of a project: every
// member (the first projects.MaxRepositories read together, the rest not
// read), each with its lead, confirmed maintainers and health verdict.
func projectRepositories(ctx context.Context, a *cmdutil.Factory, relays []string, members []projects.Member, need discovery.Evidence, profiles, strict, all bool) ([]report.ProjectRepository, error) {
	out := []report.ProjectRepository{}
	read := members
	if len(read) > projects.MaxRepositories {
		read = read[:projects.MaxRepositories]
	}
	if len(read) == 0 {
		return out, nil
	}
	many, err := projectReadRepos(ctx, a, relays, read, need, profiles)
	if err != nil {
		return nil, err
	}
	for i, m := range many {
		out = append(out, report.ProjectRepositoryOf(read[i].Address, read[i].Relay, m, strict, all))
	}
	for _, m := range members[len(read):] {
		out = append(out, report.NotReadRepository(m.Address, m.Relay, graph.NewCoordinate(m.Owner, m.D)))
	}
	return out, nil
}
