package pending

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/membership"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/spf13/cobra"
)

// Deps are what resuming needs from the other nouns, passed in by root:
// the repository read of a write and its errors' words (repo.WriteQuery,
// repo.RepoViewErr),
// the membership change's lock (change.Lock) and the workspace import's
// exact retry (workspace.RetryImport).
type Deps struct {
	// WriteQuery is the repository read the resumed write's pipeline runs
	// (repo.WriteQuery), reach the authors its preview used; ReadError
	// words what that read could not do (repo.RepoViewErr).
	WriteQuery  func(a *cmdutil.Factory, ctx context.Context, reach ...string) (discovery.Query, func(), error)
	ReadError   func(a *cmdutil.Factory, err error) error
	Lock        func(a *cmdutil.Factory, ctx context.Context, address string) (func(), error)
	RetryImport func(a *cmdutil.Factory, ctx context.Context) error
	// ResumeWorkspace and ResumeProject finish a workspace command and a
	// project write (workspace.ResumeCommand, project.ResumeProject); nil
	// answers: the event was not sent again.
	ResumeWorkspace, ResumeProject func(a *cmdutil.Factory, ctx context.Context, w journal.Write) ([]relaypool.Delivered, error)
}

// NewPendingCmd is `roster pending [resume|discard <id>]`: the journal of
// unfinished writes.
func NewPendingCmd(a *cmdutil.Factory, deps Deps) *cobra.Command { return NewCmdPending(a, deps, nil) }

// Options are `roster pending`, `pending resume` and `pending discard` as
// their arguments gave them: Verb is list, resume or discard, ID the
// write's id (resume, discard).
type Options struct {
	Factory *cmdutil.Factory
	Verb    string
	ID      string
}

// NewCmdPending builds roster pending and its subcommands; runF, when
// given, runs instead of each with the parsed options (tests).
func NewCmdPending(a *cmdutil.Factory, deps Deps, runF func(context.Context, *Options) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pending",
		Short: "List the writes that did not finish, and resume or discard them",
		Long: `Every event roster signs is kept in the journal of unfinished writes
(<data dir>/journal) from before the first relay is sent it until the
write is verified. A write that was interrupted (a lost connection, a
kill, exit 6) stays there. roster pending lists each one with the relays
that hold its events and those that lack them (asked by id; with
--offline, what the journal recorded).

roster pending resume <id> reruns the write's recheck and, when nothing
changed and the events are still within the relays' 15-minute acceptance
window, sends the same signed events to the relays that lack them and
verifies; otherwise it sends nothing (exit 3) and offers the original
command to rerun. A workspace command is resent only while the workspace
is at the revision it was built on, a project event only while the
Project State is the one it was built on. roster pending discard <id>
forgets a write; what the relays hold stays there.`,
		Example: `  roster pending                        # the unfinished writes and who holds their events
  roster pending --json                 # roster.pending/v1
  roster pending resume 3f2a9c81d0e4    # finish one: recheck, then send the same events
  roster pending discard 3f2a9c81d0e4   # forget one`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a, Verb: "list"})
			}
			return listPending(a, cmd.Context())
		},
	}
	cmd.AddCommand(NewCmdResume(a, deps, runF), NewCmdDiscard(a, runF))
	// Listing and resuming ask the relays each write recorded (no --relay).
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.OutputFlags|cmdutil.OfflineFlag|cmdutil.TimeoutFlag|cmdutil.DeadlineFlag|cmdutil.HomeFlag)
}

// NewCmdResume builds pending resume, as NewCmdPending.
func NewCmdResume(a *cmdutil.Factory, deps Deps, runF func(context.Context, *Options) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "resume <id>",
		Short: "Recheck an unfinished write and send its same signed events to the relays that lack them",
		Example: `  roster pending resume 3f2a9c81d0e4
  roster pending resume 3f2a9c81d0e4 --json   # roster.pending-resume/v1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a, Verb: "resume", ID: args[0]})
			}
			return resumePending(a, deps, cmd.Context(), args[0])
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.TimeoutFlag|cmdutil.DeadlineFlag|cmdutil.HomeFlag)
}

// NewCmdDiscard builds pending discard, as NewCmdPending.
func NewCmdDiscard(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "discard <id>",
		Short: "Forget an unfinished write (what relays hold stays there)",
		Example: `  roster pending discard 3f2a9c81d0e4
  roster pending discard 3f2a9c81d0e4 --json  # roster.pending-discard/v1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a, Verb: "discard", ID: args[0]})
			}
			return discardPending(a, args[0])
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.HomeFlag)
}

// findPending is the write id names, or pending-not-found.
func findPending(a *cmdutil.Factory, id string) (*journal.Dir, *journal.Write, error) {
	j := a.Journal()
	if j == nil {
		return nil, nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "pending-not-found", Err: errors.New("no data directory: there is no journal of unfinished writes")}
	}
	w, err := j.Find(id)
	if err != nil {
		return nil, nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "pending-not-found", Err: err,
			Commands: []suggest.Command{suggest.Roster("pending").Because("list the unfinished writes")}}
	}
	if w == nil {
		if _, problems, err := j.List(); err == nil {
			for _, p := range problems {
				if p.Write != "" && len(id) >= 8 && strings.HasPrefix(p.Write, strings.ToLower(id)) || filepath.Base(p.File) == id {
					// Never sent: an entry that cannot be read cannot be resumed.
					return nil, nil, &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: "journal-unreadable",
						Err:      fmt.Errorf("%q is a journal file that cannot be read (%s: %v), so it cannot be resumed; nothing was sent", id, p.File, p.Err),
						Commands: []suggest.Command{suggest.Roster("pending", "discard", track.Short(p.ID())).Because("forget it (fix its permissions instead if it is a readable entry of yours)")}}
				}
			}
		}
		return nil, nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "pending-not-found", Err: fmt.Errorf("%q names no unfinished write", id),
			Commands: []suggest.Command{suggest.Roster("pending").Because("list the unfinished writes")}}
	}
	return j, w, nil
}

// holdingNow asks each write's relays for its events by id (one request per
// relay for all the writes); nil with --offline.
func holdingNow(a *cmdutil.Factory, ctx context.Context, writes []journal.Write) map[string][]string {
	if a.Opts.Offline || len(writes) == 0 {
		return nil
	}
	var relays, ids []string
	seen := map[string]bool{}
	for _, w := range writes {
		for _, e := range w.Entries {
			ids = append(ids, e.Event.ID)
			for _, u := range e.Relays {
				if !seen[u] {
					seen[u] = true
					relays = append(relays, u)
				}
			}
		}
	}
	pool := relaypool.New(relaypool.Options{Timeout: a.Opts.Timeout, Auth: a.AuthSigner})
	defer pool.Close()
	held, _ := pool.ReadBack(ctx, relays, ids)
	return held
}

func listPending(a *cmdutil.Factory, ctx context.Context) error {
	out := report.Pending{Schema: report.PendingSchema, Writes: []report.PendingWrite{}, Unreadable: []report.PendingProblem{}}
	j := a.Journal()
	var writes []journal.Write
	var problems []journal.Problem
	if j != nil {
		var err error
		writes, problems, err = j.List()
		if err != nil {
			return &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: "journal-unreadable", Err: &journal.UnreadableError{Root: j.Root, Err: err}}
		}
		for _, p := range problems {
			out.Unreadable = append(out.Unreadable, report.PendingProblem{File: p.File, Problem: p.Err.Error()})
		}
	}
	held := holdingNow(a, ctx, writes)
	out.Checked = held != nil || len(writes) == 0 && !a.Opts.Offline
	for _, w := range writes {
		h := held
		if h == nil || oneRelayWrite(w) {
			// The relay of a workspace or project write does not serve
			// the commands it governs: what it acknowledged counts too.
			h = w.Holding(held)
		}
		out.Writes = append(out.Writes, report.PendingWriteOf(w, h, a.Io.Now()))
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	wr := a.Io.Out
	if len(out.Writes) == 0 && len(out.Unreadable) == 0 {
		fmt.Fprintln(wr, "no unfinished writes")
		return nil
	}
	fmt.Fprintf(wr, "%d unfinished write(s):\n", len(out.Writes))
	for _, w := range out.Writes {
		fmt.Fprintln(wr)
		printPendingWrite(wr, w, out.Checked)
		for _, c := range render.Render(a, track.Commands(w.ID)) {
			fmt.Fprintf(wr, "  run: %s\n", termtext.Line(c))
		}
	}
	for _, p := range problems {
		fmt.Fprintf(wr, "unreadable journal file (never sent): %s: %s\n", termtext.Line(p.File), termtext.Line(p.Err.Error()))
		fmt.Fprintln(wr, "  a write of the coordinate it names (any coordinate, when it names none) stops before signing until it is fixed or forgotten")
		for _, c := range render.Render(a, []suggest.Command{suggest.Roster("pending", "discard", track.Short(p.ID())).Because("forget it (fix its permissions instead if it is a readable entry of yours)")}) {
			fmt.Fprintf(wr, "  run: %s\n", termtext.Line(c))
		}
	}
	return nil
}

// printPendingWrite is one write as `roster pending` shows it.
func printPendingWrite(w io.Writer, pw report.PendingWrite, checked bool) {
	fmt.Fprintf(w, "%s  %s\n", pw.ID[:12], termtext.Line(quoteWords(pw.Command)))
	fmt.Fprintf(w, "  signed      %s\n", pw.Signed.UTC().Format("2006-01-02 15:04:05 UTC"))
	switch group, isGroup := strings.CutPrefix(pw.Repository, "nip-29:"); {
	case isGroup:
		fmt.Fprintf(w, "  group       %s\n", termtext.Line(group))
	case pw.Pipeline == journal.PipelineWorkspace || pw.Pipeline == sections.PipelineCommand:
		fmt.Fprintf(w, "  workspace   %s\n", termtext.Line(pw.Repository))
	case pw.Pipeline == projects.PipelineProject:
		fmt.Fprintf(w, "  project     %s\n", termtext.Line(pw.Repository))
	default:
		fmt.Fprintf(w, "  repository  %s\n", termtext.Line(displayPendingRepo(pw.Repository)))
	}
	held := "held by"
	if !checked {
		held = "acknowledged (recorded)"
	}
	for i, e := range pw.Events {
		line := fmt.Sprintf("  event %d/%d  %s (kind %d)", i+1, len(pw.Events), e.ID, e.Kind)
		if len(e.Holding) > 0 {
			line += "; " + held + ": " + strings.Join(e.Holding, ", ")
		}
		if len(e.Lacking) > 0 {
			line += "; lacking: " + strings.Join(e.Lacking, ", ")
		}
		if e.Expired {
			line += "; past the 15-minute acceptance window"
		}
		fmt.Fprintln(w, termtext.Line(line))
	}
	fmt.Fprintf(w, "  awaits      %s\n", pw.Awaits)
}

// displayPendingRepo shows a repository coordinate as a nostr:// URL.
func displayPendingRepo(repo string) string {
	parts := strings.SplitN(repo, ":", 3)
	if len(parts) == 3 && parts[0] == fmt.Sprint(graph.KindAnnouncement) {
		return gitstate.NostrURL(graph.NewCoordinate(parts[1], parts[2]), nil)
	}
	return repo
}

// discardPending forgets a write, or the journal files that cannot be read
// and carry id (their write's id, or their file name).
func discardPending(a *cmdutil.Factory, id string) error {
	j := a.Journal()
	if j == nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "pending-not-found", Err: errors.New("no data directory: there is no journal of unfinished writes")}
	}
	w, problems, err := j.Discard(id)
	switch {
	case err != nil && w == nil && problems == nil:
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "pending-not-found", Err: err,
			Commands: []suggest.Command{suggest.Roster("pending").Because("list the unfinished writes")}}
	case err != nil:
		return err
	case w == nil && len(problems) == 0:
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "pending-not-found", Err: fmt.Errorf("%q names no unfinished write", id),
			Commands: []suggest.Command{suggest.Roster("pending").Because("list the unfinished writes")}}
	case w == nil:
		// Unreadable files: discarded carries only the id they were named by.
		if a.Opts.JSON {
			return cmdutil.WriteJSON(a, report.PendingDiscard{Schema: report.PendingDiscardSchema,
				Discarded: report.PendingWrite{ID: problems[0].ID(), Command: []string{}, Events: []report.PendingEvent{}}})
		}
		for _, p := range problems {
			fmt.Fprintf(a.Io.Out, "removed the unreadable journal file %s; what relays already hold stays there\n", termtext.Line(p.File))
		}
		return nil
	}
	pw := report.PendingWriteOf(*w, nil, a.Io.Now())
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, report.PendingDiscard{Schema: report.PendingDiscardSchema, Discarded: pw})
	}
	fmt.Fprintf(a.Io.Out, "discarded the unfinished write %s; what relays already hold stays there\n", w.ID[:12])
	printPendingWrite(a.Io.Out, pw, false)
	return nil
}

// resumePending finishes one unfinished write.
func resumePending(a *cmdutil.Factory, deps Deps, ctx context.Context, id string) error {
	j, w, err := findPending(a, id)
	if err != nil {
		return err
	}
	first := w.First()
	switch first.Pipeline {
	case journal.PipelineWorkspace:
		return resumeWorkspaceImport(a, deps, ctx, *w)
	case sections.PipelineCommand:
		return resumeOneEvent(a, ctx, *w, deps.ResumeWorkspace)
	case projects.PipelineProject:
		return resumeOneEvent(a, ctx, *w, deps.ResumeProject)
	}
	if first.Pipeline == groups.PipelineGroups {
		return resumeGroupWrite(a, ctx, j, *w)
	}
	c, ok := coordinateOf(first.Repo)
	if !ok {
		return &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: "pending-incomplete", Err: fmt.Errorf("the unfinished write %s names no repository roster can read (%q)", w.ID[:12], first.Repo)}
	}
	// The write's repository and, unless --relay says otherwise, its relays.
	a.Opts.Repo = gitstate.NostrURL(c, nil)
	if len(a.Opts.Relays) == 0 {
		a.Opts.Relays = relaypool.NormalizeRelays(first.Relays)
	}
	q, done, err := deps.WriteQuery(a, ctx, previewAuthors(*w)...)
	if err != nil {
		return err
	}
	defer done()
	p := membership.Pipeline{
		Read:    q,
		Now:     a.Io.Now,
		Journal: j,
		Relays: relaypool.Fresh(func() *relaypool.Pool {
			return relaypool.New(relaypool.Options{Timeout: a.Opts.Timeout, Auth: a.AuthSigner})
		}),
		Lock: func(ctx context.Context, addr string) (func(), error) { return deps.Lock(a, ctx, addr) },
	}
	r, err := p.Resume(ctx, *w)
	if err != nil {
		err = deps.ReadError(a, err)
	}
	var ee *cmdutil.ExitError
	if first.Pipeline == journal.PipelineAnnounce && len(first.Preview) == 0 && errors.As(err, &ee) && ee.Kind == "not-found" {
		// A first announcement that no relay holds: the repository read
		// finds nothing to recheck against, which init's own check does.
		return resumeFirstAnnouncement(a, ctx, j, *w)
	}
	var rf *membership.ResumeFailure
	if errors.As(err, &rf) {
		return resumeFailure(a, rf)
	}
	if err != nil {
		return err
	}
	out := report.PendingResume{Schema: report.PendingResumeSchema, Write: report.PendingWriteOf(*w, r.Holding, a.Io.Now()),
		Sent: map[string][]relaypool.Delivered{}, Verified: r.Verified}
	for id, d := range r.Sent {
		out.Sent[id] = d.Relays
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	wr := a.Io.Out
	for _, e := range out.Write.Events {
		if d, ok := r.Sent[e.ID]; ok {
			var to []string
			for _, x := range d.Relays {
				to = append(to, x.URL)
			}
			fmt.Fprintln(wr, termtext.Line(fmt.Sprintf("sent %s (kind %d) again to %s", e.ID, e.Kind, strings.Join(to, ", "))))
		} else {
			fmt.Fprintln(wr, termtext.Line(fmt.Sprintf("%s (kind %d) was already held by every relay", e.ID, e.Kind)))
		}
	}
	fmt.Fprintf(wr, "verified: %s; the write %s is finished\n", out.Write.Awaits, w.ID[:12])
	return nil
}

// resumeFailure renders a resume that sent nothing or was not verified.
func resumeFailure(a *cmdutil.Factory, rf *membership.ResumeFailure) error {
	code := cmdutil.ExitCode(rf.Class)
	details := map[string]any{"changed": cmdutil.OrEmptySlice(rf.Changed), "problems": cmdutil.OrEmptySlice(rf.Problems)}
	if rf.Resumed != nil {
		details["write"] = rf.Resumed.Write.ID
		details["holding"] = rf.Resumed.Holding
	}
	return &cmdutil.ExitError{Code: code, Kind: rf.Code, Err: errors.New(rf.Msg), Terminal: termtext.Line(rf.Msg),
		Details: details, Commands: rf.Next}
}

// coordinateOf reads "30617:<hex>:<identifier>".
func coordinateOf(a string) (graph.Coordinate, bool) {
	parts := strings.SplitN(a, ":", 3)
	if len(parts) != 3 || parts[0] != fmt.Sprint(graph.KindAnnouncement) {
		return graph.Coordinate{}, false
	}
	c := graph.NewCoordinate(parts[1], parts[2])
	return c, c.Valid()
}

// previewAuthors are the authors whose events the write's preview used: a
// resume's discovery reaches them, as the write's did.
func previewAuthors(w journal.Write) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range w.Entries {
		for k := range e.Preview {
			kind, pk, _ := strings.Cut(k, ":")
			if kind != "5" && !seen[pk] {
				seen[pk] = true
				out = append(out, pk)
			}
		}
	}
	return out
}

// resumeWorkspaceImport resends a kept workspace import as the exact retry
// `roster workspace import` makes.
func resumeWorkspaceImport(a *cmdutil.Factory, deps Deps, ctx context.Context, w journal.Write) error {
	relay := ""
	if len(w.First().Relays) > 0 {
		relay = w.First().Relays[0]
	}
	if len(a.Opts.Relays) > 0 {
		relay = a.Opts.Relays[0]
	}
	if relay == "" {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: fmt.Errorf("the kept workspace import %s does not name its relay: give it with --relay", w.ID[:12])}
	}
	a.Opts.Relays = []string{relay}
	return deps.RetryImport(a, ctx)
}

// quoteWords is a command's words as a shell takes them.
func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = suggest.Quote(w)
	}
	return strings.Join(q, " ")
}
