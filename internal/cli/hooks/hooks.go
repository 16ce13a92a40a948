package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/hooks"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// NewHooksCmd is `roster hooks install|uninstall|status` and the hidden
// `roster hooks run`, which the installed hook files call.
func NewHooksCmd(a *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hooks",
		Short: "Git hooks that repeat roster's warnings after Git commands and guard pushes",
		Long: `The maintainer model asks for some warnings after every Git command in the
checkout (a removal by the lead, a pending history acknowledgement, a lead
pointer to follow, ...). roster prints them when it runs; these Git hooks
print them after git checkout, merge (and pull) and commit --amend or
rebase, from the local cache, without waiting on relays and without ever
failing the Git command. The pre-push hook refuses a push when the lead no
longer lists you, or when you were just confirmed and the refs you push do
not descend from the repository state the maintainers accepted.

Hooks go where Git runs them (core.hooksPath when set). A hook that is
already there keeps running: it is renamed <name>.roster-chained and
roster's hook runs it first; uninstall puts it back.`,
		Example: `  roster hooks install           # in a checkout
  roster hooks status            # which hooks are roster's, chained, foreign or missing
  roster hooks uninstall         # remove roster's hooks, restore the ones it chained`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(NewCmdInstall(a, nil), NewCmdUninstall(a, nil), NewCmdStatus(a, nil), NewCmdRun(a, nil))
	return cmd
}

const (
	hooksInstallSchema   = "roster.hooks-install/v1"
	hooksUninstallSchema = "roster.hooks-uninstall/v1"
	hooksStatusSchema    = "roster.hooks-status/v1"
)

// NewCmdInstall builds hooks install; runF, when given, runs instead of
// the install with the parsed options (tests).
func NewCmdInstall(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return newHooksInstallCmd(a, runF)
}

func newHooksInstallCmd(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "install",
		Short: "Install roster's Git hooks in this checkout, chaining to the ones there",
		Long: `roster hooks install writes post-checkout, post-merge, post-rewrite and
pre-push into the checkout's hooks directory (core.hooksPath when set, else
.git/hooks). Each calls this roster binary (the path is fixed now; if it is
gone, roster on PATH) with the --home and --relay flags given here.

An existing hook is never overwritten: it is renamed <name>.roster-chained,
and roster's hook runs it first with the same arguments and input, passing
on its exit status. A hook that cannot be chained that way (a symbolic link,
a file that is not executable, one with no #! line) stops the install before
anything is written (exit 3), naming the file. Installing again rewrites
only hooks whose content would change.`,
		Example: `  roster hooks install
  roster hooks install --relay wss://relay.example   # the relays pre-push asks
  roster hooks install --json                        # roster.hooks-install/v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a, Verb: "install"})
			}
			t, err := findHooksTarget(a)
			if err != nil {
				return err
			}
			if err := repo.HooksNeedCoordinate(a); err != nil {
				return err
			}
			steps, err := hooks.PlanInstall(t.slots, t.config)
			var nc *hooks.NotChainable
			if errors.As(err, &nc) {
				return notChainableErr(nc)
			}
			if err != nil {
				return err
			}
			if err := hooks.Apply(t.dir.Path, steps); err != nil {
				return &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: "failure", Err: err, Commands: []suggest.Command{suggest.Roster("hooks", "status")}}
			}
			bin := t.config.Binary
			if bin == "" {
				bin = "roster"
			}
			out := report.HooksChange{HooksTarget: t.json(hooksInstallSchema), Binary: &bin, Flags: cmdutil.OrEmptySlice(t.config.Flags), Hooks: hooks.Actions(steps)}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			var lines [][2]string
			for _, h := range out.Hooks {
				d := h.Action
				switch {
				case h.Action == hooks.ActionChained:
					d = fmt.Sprintf("chained: the hook that was here runs first, as %s", filepath.Base(*h.Chained))
				case h.Chained != nil:
					d += fmt.Sprintf(" (runs %s first)", filepath.Base(*h.Chained))
				}
				lines = append(lines, [2]string{h.Name, d})
			}
			renderHooks(a, out.HooksTarget, lines)
			fmt.Fprintf(a.Io.Out, "the hooks run %s\n", termtext.Line(strings.Join(append([]string{bin}, t.config.Flags...), " ")))
			return nil
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.RelayFlags|cmdutil.HomeFlag)
}

// NewCmdUninstall builds hooks uninstall, as NewCmdInstall.
func NewCmdUninstall(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return newHooksUninstallCmd(a, runF)
}

func newHooksUninstallCmd(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "uninstall",
		Short: "Remove roster's Git hooks and restore the hooks they chained",
		Long: `roster hooks uninstall removes the hooks roster wrote (recognised by their
marker comment) and renames each <name>.roster-chained back to <name>.
Hooks that are not roster's are left alone.`,
		Example: `  roster hooks uninstall
  roster hooks uninstall --json    # roster.hooks-uninstall/v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a, Verb: "uninstall"})
			}
			t, err := findHooksTarget(a)
			if err != nil {
				return err
			}
			steps := hooks.PlanUninstall(t.slots)
			if err := hooks.Apply(t.dir.Path, steps); err != nil {
				return &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: "failure", Err: err, Commands: []suggest.Command{suggest.Roster("hooks", "status")}}
			}
			out := report.HooksChange{HooksTarget: t.json(hooksUninstallSchema), Hooks: hooks.Actions(steps)}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			var lines [][2]string
			for _, h := range out.Hooks {
				d := h.Action
				switch h.Action {
				case hooks.ActionRestored:
					d = fmt.Sprintf("restored: %s is back in place", filepath.Base(*h.Chained))
				case hooks.ActionLeft:
					d = "left alone: not roster's"
				case hooks.ActionNone:
					d = "nothing there"
				}
				lines = append(lines, [2]string{h.Name, d})
			}
			renderHooks(a, out.HooksTarget, lines)
			return nil
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.RelayFlags|cmdutil.HomeFlag)
}

// NewCmdStatus builds hooks status, as NewCmdInstall.
func NewCmdStatus(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "status",
		Short: "Show which hooks are roster's, chained, foreign or missing",
		Long: `roster hooks status lists each hook roster installs: roster (roster's),
chained (roster's, running the hook that was there first), foreign
(somebody else's; install would chain it) or missing. A roster hook that is
not current calls another roster binary than this one, or differs from what
this roster writes (an older version, a hand edit): install again to
update it.`,
		Example: `  roster hooks status
  roster hooks status --json       # roster.hooks-status/v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a, Verb: "status"})
			}
			t, err := findHooksTarget(a)
			if err != nil {
				return err
			}
			statuses, update := hooks.Statuses(t.slots, t.config.Binary)
			out := report.HooksStatus{HooksTarget: t.json(hooksStatusSchema), Hooks: statuses}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			calls := ""
			var lines [][2]string
			for _, h := range out.Hooks {
				d := h.Status
				switch h.Status {
				case hooks.StatusChained:
					d += fmt.Sprintf(" (runs %s first)", filepath.Base(*h.Chained))
				case hooks.StatusForeign:
					d += ": not roster's; install chains it"
				}
				if h.Stale() {
					d += "; not current (another roster binary, or another version of the hook)"
				}
				if h.Binary != nil && calls == "" {
					calls = strings.Join(append([]string{*h.Binary}, h.Flags...), " ")
				}
				lines = append(lines, [2]string{h.Name, d})
			}
			renderHooks(a, out.HooksTarget, lines)
			if calls != "" {
				fmt.Fprintf(a.Io.Out, "the hooks run %s\n", termtext.Line(calls))
			}
			if update != nil {
				fmt.Fprintf(a.Io.Out, "update with: %s\n", termtext.Line(render.Selectors(a).Render(*update)))
			}
			return nil
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.RelayFlags|cmdutil.HomeFlag)
}

// hooksTarget is the checkout's hooks directory, what is in it, and the
// hook configuration this invocation would install.
type hooksTarget struct {
	dir    gitstate.HooksDir
	slots  []hooks.Slot
	config hooks.Config
}

func (t hooksTarget) json(schema string) report.HooksTarget {
	out := report.HooksTarget{Schema: schema, HooksDir: t.dir.Path}
	if t.dir.HooksPath != "" {
		out.CoreHooksPath = &t.dir.HooksPath
	}
	return out
}

func findHooksTarget(a *cmdutil.Factory) (hooksTarget, error) {
	var t hooksTarget
	co, err := gitstate.Open(a.Io.Dir)
	if errors.Is(err, gitstate.ErrNotARepository) {
		// The line is shell (cd, then install), so it is rendered here
		// with the user's selectors: the --relay and --home the hooks carry.
		install := render.Selectors(a).Apply(suggest.Roster("hooks", "install")).Line()
		return t, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "not-a-checkout",
			Err:      fmt.Errorf("%s is not inside a Git checkout: Git hooks belong to a checkout, so run roster hooks inside one", dirName(a)),
			Commands: []suggest.Command{suggest.Shell("cd <your clone> && " + install)}}
	}
	if err != nil {
		return t, err
	}
	if t.dir, err = co.HooksDir(); err != nil {
		return t, err
	}
	if t.slots, err = hooks.Inspect(t.dir.Path); err != nil {
		return t, err
	}
	t.config, err = hookConfig(a)
	return t, err
}

// dirName is the directory the command runs in, for a message.
func dirName(a *cmdutil.Factory) string {
	if a.Io.Dir != "" {
		return a.Io.Dir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "this directory"
}

// hookConfig is what the hooks carry (hooks.NewConfig): this binary, and
// the --home and --relay flags of this invocation.
func hookConfig(a *cmdutil.Factory) (hooks.Config, error) {
	c, err := hooks.NewConfig(hooks.Executable(), a.Opts.Home, a.Io.Dir, relaypool.NormalizeRelays(a.Opts.Relays))
	if err != nil {
		return c, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: err}
	}
	return c, nil
}

// renderHooks prints the hooks directory, then one line per hook: its
// name and what happened to it or what it is.
func renderHooks(a *cmdutil.Factory, out report.HooksTarget, lines [][2]string) {
	w := a.Io.Out
	where := out.HooksDir
	if out.CoreHooksPath != nil {
		where += " (core.hooksPath " + *out.CoreHooksPath + ")"
	}
	fmt.Fprintf(w, "hooks directory  %s\n", termtext.Line(where))
	for _, l := range lines {
		fmt.Fprintf(w, "  %-14s %s\n", l[0], termtext.Line(l[1]))
	}
}

// notChainableErr is install's refusal: exit 3, one line per hook, each
// naming the file.
func notChainableErr(nc *hooks.NotChainable) *cmdutil.ExitError {
	var lines []string
	var cmds []suggest.Command
	var details []map[string]any
	for _, p := range nc.Problems {
		lines = append(lines, "  "+p.Message)
		cmds = append(cmds, p.Commands...)
		details = append(details, map[string]any{"name": p.Name, "path": p.Path, "reason": p.Reason, "message": p.Message})
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitRefused, Kind: "hook-not-chainable",
		Err:      fmt.Errorf("roster hooks install wrote nothing: these hooks cannot be chained:\n%s", strings.Join(lines, "\n")),
		Details:  map[string]any{"hooks": details},
		Commands: cmds}
}

// NewCmdRun is what the hook files call. Hidden: its contract is the hook
// scripts', not a user's. runF, when given, runs instead of the hook with
// the parsed options (tests).
func NewCmdRun(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:    "run <hook> [hook arguments...]",
		Short:  "Run roster's part of a Git hook (called by the installed hooks)",
		Hidden: true,
		Example: `  roster --offline hooks run post-checkout -- <old> <new> 1
  git push   # pre-push runs: roster --timeout 5s hooks run pre-push -- <remote> <url>`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !hooks.Known(args[0]) {
				return cmdutil.UsageErr("unknown hook %q: roster runs %s", args[0], strings.Join(hooks.Names, ", "))
			}
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a, Verb: "run", Hook: args[0], HookArgs: args[1:]})
			}
			return runHook(a, cmd.Context(), args[0])
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.RepoFlag|cmdutil.NetworkFlags|cmdutil.HomeFlag)
}

// runHook prints the advisories for the checkout's selected coordinate
// (warning hooks: from the cache alone, always exit 0), or runs the
// pre-push guard. A hook never draws a progress line.
func runHook(a *cmdutil.Factory, ctx context.Context, name string) error {
	a.Io.ErrTTY = false
	if hooks.Warns(name) {
		a.Opts.Offline = true // a warning hook never waits on relays
		v, err := repo.LoadRepo(a, ctx, repo.PartialEvidence)
		if err != nil {
			hookNote(a, err, "no warnings")
			return nil
		}
		repo.PrintAdvisories(a, v)
		return nil
	}
	return prePush(a, ctx)
}

// quietHookKinds are the read errors a hook does not mention: the checkout
// names no repository, or the cache (or the relays) have none.
var quietHookKinds = map[string]bool{"no-coordinate": true, "not-found": true, "not-a-checkout": true}

// hookNote says in one line why a hook could not do its part.
func hookNote(a *cmdutil.Factory, err error, consequence string) {
	var ee *cmdutil.ExitError
	if errors.As(err, &ee) && quietHookKinds[ee.Kind] {
		return
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	fmt.Fprintf(a.Io.Err, "roster hook: %s; %s\n", termtext.Line(msg), consequence)
}

// prePush is the guard: read the pushed refs from stdin, discover the
// repository afresh within --timeout, decide (hooks.Guard), print the
// warnings and advisories, and refuse (exit 3) or let the push through.
func prePush(a *cmdutil.Factory, ctx context.Context) error {
	viewer := a.ViewerPubkey()
	if viewer == "" {
		return nil // the guard is about the signer; nobody is signed in
	}
	pushed, err := hooks.ParsePushed(a.Io.In)
	if err != nil {
		hookNote(a, err, "the push is not checked")
		return nil
	}
	budget := a.Opts.Timeout
	fresh := confirmationToVerify(a, viewer)
	v, inTime, err := guardDiscover(a, ctx)
	if fresh != nil {
		if refusal := fresh.incomplete(v, inTime, err, budget); refusal != nil {
			return refusal
		}
	}
	if !inTime {
		fmt.Fprintf(a.Io.Err, "roster hook: the guard's %s budget ran out before the relays and the local cache answered; the push is not checked; pushing to a Git server is not a Nostr publication, so it goes on\n", budget)
		return nil
	}
	var (
		notFound   *discovery.NotFound
		incomplete *discovery.Incomplete
	)
	const goesOn = "the push is not checked; pushing to a Git server is not a Nostr publication, so it goes on"
	switch {
	case errors.As(err, &notFound) && notFound.View.Complete():
		return nil // every relay says the coordinate is not announced: nothing to guard
	case errors.As(err, &incomplete):
		var silent []string
		if f := incomplete.View.Fetch; f != nil {
			for _, r := range f.Relays {
				silent = append(silent, cmdutil.RelayFailure(r.URL, r.Status, r.Reason))
			}
		}
		fmt.Fprintf(a.Io.Err, "roster hook: no relay answered within %s (%s); %s\n", a.Opts.Timeout, strings.Join(termtext.Lines(silent), ", "), goesOn)
		return nil
	case err != nil:
		hookNote(a, err, goesOn)
		return nil
	}
	in := hooks.GuardInput{Resolution: v.Resolution, Events: v.Events, Viewer: viewer, Complete: v.Complete(), Unanswered: v.Unanswered(), Pushed: pushed}
	if v.State != nil {
		in.StateEventID, in.StateAuthor, in.StateRefs = v.State.EventID, v.State.Author, v.State.Refs
	}
	if v.Checkout != nil {
		in.IsAncestor = v.Checkout.IsAncestor
	}
	in.FreshFetch = fresh != nil
	d := hooks.Guard(in)
	if fresh != nil && !d.Refuse && v.Complete() {
		verifiedConfirmation(a, fresh)
	}
	for _, w := range d.Warnings {
		fmt.Fprintf(a.Io.Err, "roster: warning: %s\n", termtext.Block(w))
	}
	var given []suggest.Command
	if d.Finding != nil {
		given = d.Finding.Commands
	}
	repo.PrintAdvisories(a, v, given...)
	if !d.Refuse {
		if d.Finding != nil {
			for _, c := range render.Render(a, d.Finding.Commands) {
				fmt.Fprintf(a.Io.Err, "  run: %s\n", termtext.Line(c))
			}
		}
		return nil
	}
	refs := []map[string]any{}
	for _, c := range d.Finding.Refs {
		refs = append(refs, map[string]any{"ref": c.Ref, "local_ref": c.LocalRef, "pushed": c.Pushed, "state": c.State, "verdict": c.Verdict})
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitRefused, Kind: d.Finding.Reason,
		Err:      fmt.Errorf("refusing to push: %s", d.Finding.Message),
		Details:  map[string]any{"coordinate": v.Coordinate().ATag(), "refs": refs},
		Commands: d.Finding.Commands}
}

// guardCacheWait is how long the guard waits for a cache another roster
// holds: a locked cache costs a warning and the read goes on without it.
const guardCacheWait = 200 * time.Millisecond

// guardDiscover is the guard's discovery within one budget, --timeout
// (hooks.GuardTimeout in the hook): the cache's lock guardCacheWait per
// open, the relays the rest, and whatever is still not done when the
// budget ends is abandoned (inTime false), so that a silent relay beside a
// locked cache cannot make a push wait longer than the documented bound.
func guardDiscover(a *cmdutil.Factory, ctx context.Context) (*repo.RepoView, bool, error) {
	budget := a.Opts.Timeout
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	// Each cache open may wait guardCacheWait (a read opens it up to
	// four times); the relays get the rest, at least half the budget.
	a.Opts.Timeout = max(budget-4*guardCacheWait-budget/10, budget/2)
	a.CacheWait = guardCacheWait
	type answer struct {
		v   *repo.RepoView
		err error
	}
	done := make(chan answer, 1)
	go func() {
		v, err := repo.Discover(a, ctx, repo.PartialEvidence)
		done <- answer{v, err}
	}()
	select {
	case r := <-done:
		a.Opts.Timeout = budget
		return r.v, true, r.err
	case <-ctx.Done():
		// The abandoned discovery may still read a.opts; it ends with ctx
		// and touches the cache no more.
		a.Abandoned.Store(true)
		return nil, false, ctx.Err()
	}
}

// HooksTip is the one mention of `roster hooks install` after a human
// `repo init` or `repo accept` in a checkout whose hooks are not all
// roster's yet: from then on the maintainer warnings concern this signer,
// and the spec wants them after every Git command. A tip on stderr, never
// in JSON; a checkout whose hooks cannot be read gets none.
func HooksTip(a *cmdutil.Factory) {
	if a.Opts.JSON {
		return
	}
	co, err := gitstate.Open(a.Io.Dir)
	if err != nil {
		return
	}
	d, err := co.HooksDir()
	if err != nil {
		return
	}
	slots, err := hooks.Inspect(d.Path)
	if err != nil {
		return
	}
	for _, s := range slots {
		if st := s.Status(); st != hooks.StatusRoster && st != hooks.StatusChained {
			fmt.Fprintf(a.Io.Err, "tip: to see roster's maintainer warnings after every Git command in this checkout, and have pushes checked, run: %s\n",
				termtext.Line(render.Selectors(a).Render(suggest.Roster("hooks", "install"))))
			return
		}
	}
}
