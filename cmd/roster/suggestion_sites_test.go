package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Rule (every printed command moves forward, machine-checked): every place
// in the module's non-test code that builds a suggestion — a call of
// suggest.Roster, suggest.Git or suggest.Shell, or a suggest.Command
// literal — is a site (file, enclosing function), and each site is listed
// in suggestionSites with exactly one of: the suggestionRows rows that
// provoke and paste what it builds, the other test that pastes it, or why
// it cannot be pasted. A site missing from the table, a row naming a site
// that builds no suggestion any more, a row name suggestionRows lacks and
// a test that does not exist all fail.
func TestEverySuggestionSiteIsPastedOrAccountedFor(t *testing.T) {
	t.Parallel()
	found := suggestionSitesInCode(t)
	tests := testFuncs(t)
	rows := map[string]bool{}
	for _, r := range suggestionRows {
		rows[r.name] = true
	}
	var missing []string
	for s := range found {
		if _, ok := suggestionSites[s]; !ok {
			missing = append(missing, s.File+" "+s.Func)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s builds a suggestion and is not in suggestionSites (write the row that provokes and pastes it, name the test that does, or say why it cannot be pasted)", m)
	}
	var counts [3]int
	for s, c := range suggestionSites {
		if !found[s] {
			t.Errorf("suggestionSites names %s %s, which builds no suggestion", s.File, s.Func)
		}
		set := 0
		for i, ok := range []bool{len(c.Rows) > 0, c.Elsewhere != "", c.Unpasted != ""} {
			if ok {
				set++
				counts[i]++
			}
		}
		if set != 1 {
			t.Errorf("%s %s: want exactly one of Rows, Elsewhere, Unpasted, got %+v", s.File, s.Func, c)
		}
		for _, r := range c.Rows {
			if !rows[r] {
				t.Errorf("%s %s: suggestionRows has no row %q", s.File, s.Func, r)
			}
		}
		if c.Elsewhere != "" && !tests[c.Elsewhere] {
			t.Errorf("%s %s: no test %s among the end-to-end tests", s.File, s.Func, c.Elsewhere)
		}
	}
	t.Logf("%d suggestion sites: %d pasted by suggestionRows, %d by other tests, %d not pastable",
		len(found), counts[0], counts[1], counts[2])
}

// suggestionSite is one place that builds a suggestion: the file, relative
// to the module root, and the function it is in ("Type.Method" for a
// method, "" at package level).
type suggestionSite struct{ File, Func string }

// siteCoverage says how a site's suggestions are shown to move forward;
// exactly one field is set.
type siteCoverage struct {
	// Rows are the suggestionRows rows that provoke and paste it.
	Rows []string
	// Elsewhere is the end-to-end test (in cmd/roster or beside a noun)
	// that pastes it as printed.
	Elsewhere string
	// Unpasted is why no test can paste it.
	Unpasted string
}

// suggestionSitesInCode are the sites of the module's non-test code, but
// package suggest itself, that build a suggestion.
func suggestionSitesInCode(t *testing.T) map[suggestionSite]bool {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from %s: %v", root, err)
	}
	out := map[suggestionSite]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || rel == "suggest") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			name := ""
			if fd, ok := d.(*ast.FuncDecl); ok {
				name = declName(fd)
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if buildsSuggestion(n) {
					out[suggestionSite{rel, name}] = true
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no suggestion site found: the scan is broken")
	}
	return out
}

// buildsSuggestion reports whether n is a call of suggest.Roster,
// suggest.Git or suggest.Shell, or a suggest.Command literal.
func buildsSuggestion(n ast.Node) bool {
	isSuggest := func(e ast.Expr, names ...string) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Name != "suggest" {
			return false
		}
		for _, n := range names {
			if sel.Sel.Name == n {
				return true
			}
		}
		return false
	}
	switch x := n.(type) {
	case *ast.CallExpr:
		return isSuggest(x.Fun, "Roster", "Git", "Shell")
	case *ast.CompositeLit:
		return isSuggest(x.Type, "Command")
	}
	return false
}

// declName is a declaration's name as a site names it.
func declName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if g, ok := typ.(*ast.IndexExpr); ok {
		typ = g.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// testFuncs are the Test functions of this package's test files.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	// The end-to-end tests: these, and each noun's beside its code.
	var paths []string
	for _, dir := range []string{".", filepath.Join("..", "..", "internal", "cli")} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, "_test.go") {
				paths = append(paths, path)
			}
			return err
		})
		if err != nil || len(paths) == 0 {
			t.Fatalf("no test files in %s: %v", dir, err)
		}
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
				out[fd.Name.Name] = true
			}
		}
	}
	return out
}

// suggestionSites is every site that builds a suggestion and how it is
// shown to move forward.
var suggestionSites = map[suggestionSite]siteCoverage{
	{"announce/announce.go", "Pipeline.Run"}:                             {Rows: []string{"repo init in a checkout without commits: commit, then init", "repo init with no relays: --relay", "repo init with origin a local path: a --clone others can use", "repo init with an unreadable journal entry: pending, its discard, then init", "repo init with a full journal: pending, then init once a write is forgotten"}},
	{"announce/announce.go", "Request.command"}:                          {Rows: []string{"repo init with an unreadable journal entry: pending, its discard, then init", "repo init with a full journal: pending, then init once a write is forgotten", "an interrupted first repo init resumed too late: init again, then discard"}},
	{"announce/announce.go", "retryInit"}:                                {Rows: []string{"repo init with a relay not answering: another relay"}},
	{"announce/tags.go", "editInstead"}:                                  {Elsewhere: "TestRepoInitRefusedSuggestsTheMetadataEditThatRunsAsPasted"},
	{"cache/errors.go", "Error.Commands"}:                                {Rows: []string{"a cache that does not parse: clear it", "a repo read whose cache does not parse: clear it, and cache info"}},
	{"eventcheck/failures.go", "incomplete"}:                             {Rows: []string{"check-event of an event no relay asked holds: a relay holding it"}},
	{"eventcheck/failures.go", "needsRepository"}:                        {Rows: []string{"check-event of repository state without --repo: the --repo it needs"}},
	{"gitstate/availability.go", "EvaluateAvailability"}:                 {Rows: []string{"repo state publish of a commit no Git server serves: push it, then publish"}},
	{"gitstate/availability_failure.go", "Availability.Failure"}:         {Rows: []string{"repo state publish of a repository that advertises no Git server: advertise one"}},
	{"graph/commands.go", "CommandAccept"}:                               {Rows: []string{"an invited viewer's advisory: accept"}},
	{"graph/commands.go", "CommandAcceptModerator"}:                      {Rows: []string{"an invited moderator appointing themselves: accept --moderator"}},
	{"graph/commands.go", "CommandAcknowledge"}:                          {Elsewhere: "TestMutationSuggestedCommandsRunAsPrinted"},
	{"graph/commands.go", "CommandAddMaintainer"}:                        {Rows: []string{"a co-maintainer's third-party maintainer: the lead's add, then their follow-lead"}},
	{"graph/commands.go", "CommandAddModerator"}:                         {Rows: []string{"a co-maintainer's third-party moderator: the lead's cover, then their follow-lead"}},
	{"graph/commands.go", "CommandFixMaintainers"}:                       {Rows: []string{"health's repair of the maintainers tag, pasted outside a checkout"}},
	{"graph/commands.go", "CommandFollowLead"}:                           {Rows: []string{"a co-maintainer's third-party moderator: the lead's cover, then their follow-lead", "removing an invitee: the other co-maintainers' follow-lead", "a co-maintainer preparing to lead: the lead points to them, then follows"}},
	{"graph/roleloss.go", "CommandRepair"}:                               {Rows: []string{"health's repo repair of a republish that dropped role records"}},
	{"hooks/files.go", "chainProblem"}:                                   {Unpasted: "ls -l / chmod +x / rm of a user's own hook files"},
	{"hooks/guard.go", "NeedsFreshFetch"}:                                {Rows: []string{"a first push after a confirmation with the relay silent: repo state once it answers"}},
	{"hooks/guard.go", "buildOn"}:                                        {Rows: []string{"a pre-push of a ref that does not build on the accepted state: merge it, then push"}},
	{"hooks/guard.go", "wayOut"}:                                         {Rows: []string{"a pre-push by a maintainer the lead removed: follow the lead, or a repository of one's own"}},
	{"hooks/report.go", "Statuses"}:                                      {Rows: []string{"hooks status with a hook not current: the update"}},
	{"internal/cli/account/login.go", "bunkerConnectError"}:              {Unpasted: "a bunker:// login needs a remote signer online with a one-time secret"},
	{"internal/cli/account/login.go", "loginError"}:                      {Rows: []string{"login with no way chosen, or a passphrase typed differently: the login, typed right"}},
	{"internal/cli/account/login.go", "runLogin"}:                        {Rows: []string{"login with no way chosen, or a passphrase typed differently: the login, typed right"}},
	{"internal/cli/cmdutil/cache_err.go", "CacheErr"}:                    {Rows: []string{"a repo read whose cache does not parse: clear it, and cache info"}},
	{"internal/cli/cmdutil/command_suggest.go", "HelpFor"}:               {Rows: []string{"an unknown subcommand: the one meant, with --help"}},
	{"internal/cli/cmdutil/json_output.go", "outputError"}:               {Rows: []string{"an invalid --jq: the formatting help"}},
	{"internal/cli/cmdutil/pubkey_args.go", "Factory.ResolvePubkeyArgs"}: {Rows: []string{"a NIP-05 name that does not resolve: the npub instead"}},
	{"internal/cli/cmdutil/signer_setup.go", ""}:                         {Unpasted: "roster login --nsec/--bunker/--generate read a secret from a terminal or reach a remote signer (login_tty_test.go and bunker_e2e_test.go run them)"},
	{"internal/cli/cmdutil/signer_setup.go", "signerExitError"}:          {Unpasted: "roster login and logout forms that read a secret from a terminal, a pipeline feeding one, or a remote signer"},
	{"internal/cli/dev/relay.go", "RelayOptions.again"}:                  {Rows: []string{"dev relay on a busy port: a free one, keeping --require-auth", "dev relay with an unknown seed: the demo, on the address given"}},
	{"internal/cli/dev/relay_try.go", "DemoTryLines"}:                    {Elsewhere: "TestDemoTryLinesRunAsPrinted"},
	{"internal/cli/group/group.go", "groupOutage"}:                       {Rows: []string{"group show with the relay not answering: the same once it is back, or another relay"}},
	{"internal/cli/group/group.go", "groupReadErr"}:                      {Rows: []string{"group show of a group the relay asked does not hold: the relay hosting it"}},
	{"internal/cli/group/group.go", "groupShowOffline"}:                  {Rows: []string{"group show --offline with nothing cached: the online read"}},
	{"internal/cli/group/journal.go", "noticeUnfinished"}:                {Rows: []string{"a group write with an unreadable journal: roster pending lists the unreadable file", "a group command after an unfinished write: the notice's resume"}},
	{"internal/cli/group/list.go", "groupShowMe"}:                        {Rows: []string{"group show --me of a group the relay does not hold: the groups it hosts"}},
	{"internal/cli/group/list.go", "newGroupListCmd"}:                    {Rows: []string{"group list with no relay to ask: --relay", "group list with the relay not answering: the same once it is back"}},
	{"internal/cli/group/mine.go", "groupListMine"}:                      {Rows: []string{"group list --mine with the relay not answering: the same once it is back"}},
	{"internal/cli/group/moderate.go", "groupModerate"}:                  {Rows: []string{"group add of a person no key names: the npub", "group invite: the invitee's join, in their own home", "group delete without --yes: the same with --yes"}},
	{"internal/cli/group/ref.go", "groupTarget"}:                         {Rows: []string{"group show with no relay to ask: --relay"}},
	{"internal/cli/help/topics.go", "unknownHelpTopic"}:                  {Rows: []string{"an unknown help topic: the topic meant"}},
	{"internal/cli/hooks/hooks.go", "HooksTip"}:                          {Rows: []string{"repo init in a checkout without roster's hooks: the tip's install"}},
	{"internal/cli/hooks/hooks.go", "findHooksTarget"}:                   {Rows: []string{"hooks install outside a checkout: in the clone, with the same relays"}},
	{"internal/cli/hooks/hooks.go", "newHooksInstallCmd"}:                {Rows: []string{"hooks install or uninstall where the hooks directory cannot be made: hooks status"}},
	{"internal/cli/hooks/hooks.go", "newHooksUninstallCmd"}:              {Rows: []string{"hooks install or uninstall where the hooks directory cannot be made: hooks status"}},
	{"internal/cli/pending/announce.go", "resumeFirstAnnouncement"}:      {Rows: []string{"an interrupted first repo init resumed too late: init again, then discard", "an interrupted first repo init resumed while a relay refuses the recheck: resume once it is back, no --timeout"}},
	{"internal/cli/pending/pending.go", "discardPending"}:                {Rows: []string{"pending resume or discard of an unknown id: the list"}},
	{"internal/cli/pending/pending.go", "findPending"}:                   {Rows: []string{"pending resume or discard of an unknown id: the list"}},
	{"internal/cli/pending/pending.go", "listPending"}:                   {Rows: []string{"repo init with an unreadable journal entry: pending, its discard, then init"}},
	{"internal/cli/project/cache.go", "projectReadCached"}:               {Rows: []string{"project show --offline with nothing cached: read it online"}},
	{"internal/cli/project/health.go", "newProjectHealthCmd"}:            {Rows: []string{"project health with a relay silent about the project: project show"}},
	{"internal/cli/project/health.go", "unresolvedCommands"}:             {Rows: []string{"project health with a member no relay holds: project show"}},
	{"internal/cli/project/list.go", "newProjectListCmd"}:                {Rows: []string{"project list with no relay to ask: --relay", "project list whose relay timed out: the retry, with longer", "project list --owner whose NIP-05 lookup fails: --owner <npub>"}},
	{"internal/cli/project/preview.go", "asTyped"}:                       {Rows: []string{"project create, update and delete given two relays: the one hosting the project"}},
	{"internal/cli/project/preview.go", "retryWithYes"}:                  {Rows: []string{"binding a project to a channel one is no member of, in a pipe: the same with --yes"}},
	{"internal/cli/project/project.go", "newProjectChangeCmd"}:           {Rows: []string{"project relate given two relays: the one hosting the project"}},
	{"internal/cli/project/render.go", "projectNoRelays"}:                {Rows: []string{"project show with no relay to ask: --relay"}},
	{"internal/cli/project/render.go", "projectNotFound"}:                {Rows: []string{"project show of a project the relay does not hold: another relay"}},
	{"internal/cli/project/render.go", "projectRecreate"}:                {Rows: []string{"project show of a deleted project: its owner's create line"}},
	{"internal/cli/project/repos.go", "projectRepoCheck"}:                {Rows: []string{"project update --add-repo of a repository no relay holds: look it up, or add it anyway"}},
	{"internal/cli/repo/change/change.go", "mutationFailure"}:            {Rows: []string{"a change every relay refused: the rerun once they accept", "a change a relay did not read back: what each relay serves now", "a change another edit overtook before the recheck: the rerun"}},
	{"internal/cli/repo/change/change.go", "runMutation"}:                {Elsewhere: "TestFollowLeadOutsideACheckoutSuggestsAWholeCommand"},
	{"internal/cli/repo/change/init.go", "reportRepoInit"}:               {Rows: []string{"repo init that a relay refuses: init again, or read the repository", "an interrupted first repo init resumed too late: init again, then discard"}},
	{"internal/cli/repo/change/init.go", "runRepoInit"}:                  {Rows: []string{"repo init outside a checkout"}},
	{"internal/cli/repo/checkevent/check_event.go", "checkEvents"}:       {Rows: []string{"check-event with no relay to ask: the same with --relay"}},
	{"internal/cli/repo/checkevent/check_event.go", "offlineRefusal"}:    {Rows: []string{"check-event --offline: the same, asking the relays"}},
	{"internal/cli/repo/checkout_link.go", "HooksNeedCoordinate"}:        {Rows: []string{"hooks install in a checkout that names no repository: link it, then install"}},
	{"internal/cli/repo/checkout_link.go", "LinkAcceptedCheckout"}:       {Rows: []string{"repo accept in a checkout that selects another repository: select the accepted one"}},
	{"internal/cli/repo/coordinate.go", "SelectCoordinate"}:              {Rows: []string{"a repo read outside a checkout without --repo: the --repo, or the clone", "a repo read in a checkout that names no repository: --repo, or link it", "a NIP-05 coordinate that does not resolve: the naddr instead", "a NIP-05 coordinate --offline: the naddr --offline, or the lookup"}},
	{"internal/cli/repo/coordinate.go", "ambiguityChoices"}:              {Rows: []string{"a checkout whose remotes name two repositories: each, and choosing one"}},
	{"internal/cli/repo/coordinate.go", "coordinateUsageCommands"}:       {Rows: []string{"a --repo remote name outside a checkout: the nostr:// URL or the naddr"}},
	{"internal/cli/repo/git_servers.go", "compareGitServer"}:             {Rows: []string{"repo state with a Git server behind the state, then ahead of it: push, then publish", "repo state with a Git server serving commits this checkout lacks: fetch it", "repo state with a Git server diverged from the state: compare"}},
	{"internal/cli/repo/reach_bound.go", "reachBoundErr"}:                {Rows: []string{"a change whose announcements name more people than the bound: the graph"}},
	{"internal/cli/repo/read_errors.go", "incompleteErr"}:                {Rows: []string{"repo health with no relay answering", "an unreachable relay: no --timeout, another relay instead"}},
	{"internal/cli/repo/read_errors.go", "notFoundErr"}:                  {Rows: []string{"an --offline cache miss keeps the naddr's relay hints", "not found: ask other relays"}},
	{"internal/cli/repo/read_errors.go", "staleErr"}:                     {Rows: []string{"a change through a relay serving an older version: the read"}},
	{"internal/cli/repo/relay_bound.go", "relayBoundErr"}:                {Rows: []string{"a change whose relays are more than the bound: the read, and the change with --relay"}},
	{"internal/cli/repo/relay_discovery.go", "noRelaysErr"}:              {Rows: []string{"no relays to ask: --relay and --offline"}},
	{"internal/cli/repo/state/state.go", "localRefsErr"}:                 {Rows: []string{"repo state in a checkout whose refs cannot be read: git fsck, then publish"}},
	{"internal/cli/root/root.go", "checkRelaySettings"}:                  {Rows: []string{"a relay-URL typo keeps the user's --repo"}},
	{"internal/cli/root/root.go", "unknownCommandError"}:                 {Rows: []string{"an unknown subcommand: the one meant, with --help"}},
	{"internal/cli/workspace/journal.go", "ResumeCommand"}:               {Rows: []string{"pending resume of a workspace write naming no relay roster can read: discard it"}},
	{"internal/cli/workspace/list.go", "newWorkspaceListCmd"}:            {Rows: []string{"workspace list by a grantee: each workspace's show", "workspace list naming nobody: start yours with create"}},
	{"internal/cli/workspace/preview.go", "invalidCommand"}:              {Rows: []string{"revoking someone who holds no grant: show the readers"}},
	{"internal/cli/workspace/typed.go", "typedRetry"}:                    {Rows: []string{"a workspace write given no --relay: the command as typed, with one", "a workspace read or move by a grantee given no --relay: the command as typed, with one", "workspace import given two relays: import on the one", "a NIP-05 name that does not resolve: the command as typed, with the npub"}},
	{"internal/cli/workspace/write.go", "workspaceWrite"}:                {Rows: []string{"a workspace write: the whole workspace's show"}},
	{"journal/track/track.go", "Commands"}:                               {Rows: []string{"a change a relay lost the connection over: pending resume", "a change a relay lost the connection over: pending discard", "a change interrupted after sending: roster repo, then the resume"}},
	{"membership/errors.go", "stoppedAfterSending"}:                      {Rows: []string{"a change interrupted after sending: roster repo, then the resume"}},
	{"membership/handoff_objects.go", "handoffWayOut"}:                   {Rows: []string{"a handoff blocked by objects no server has: publish a served state, then the removal"}},
	{"membership/journal.go", "Pipeline.journalBegin"}:                   {Rows: []string{"a change the full journal cannot take: pending, a discard, then the rerun"}},
	{"membership/journal.go", "journalUnreadable"}:                       {Rows: []string{"a change whose journal directory cannot be read: the rerun once it can, never a pending that fails alike", "a change with an unreadable journal entry: pending lists it, the rerun once it is gone"}},
	{"membership/outcome.go", "recovery"}:                                {Rows: []string{"a forced state stored and the announcement refused: the rerun and repo state"}},
	{"membership/publish.go", "superseded"}:                              {Rows: []string{"a change superseded by a competing edit: the rerun over the winner"}},
	{"membership/resume.go", "Pipeline.Resume"}:                          {Rows: []string{"pending resume of a write the journal holds only part of: discard it"}},
	{"membership/resume.go", "rerunCommands"}:                            {Elsewhere: "TestResumeAfterACompetingEditSendsNothingAndOffersTheRerun"},
	{"preflight/actions.go", "compareActions"}:                           {Rows: []string{"a join that newly authorizes an old status: check-event of it"}},
	{"preflight/build_moderator.go", "buildRemoveModerator"}:             {Rows: []string{"removing a moderator one does not assign: who moderates it", "the lead removing themselves as moderator: repo leave, which says how to hand over"}},
	{"preflight/build_moderator.go", "selfModeratorRefusal"}:             {Rows: []string{"a maintainer appointing themselves moderator: who moderates it", "an invited moderator appointing themselves: accept --moderator"}},
	{"preflight/build_roster.go", "buildRemove"}:                         {Rows: []string{"removing a maintainer one does not list: who maintains it"}},
	{"preflight/build_roster.go", "selfAddRefusal"}:                      {Rows: []string{"adding oneself as a confirmed maintainer: who maintains it", "an invitee adding themselves: repo accept"}},
	{"preflight/build_self.go", "buildAcknowledge"}:                      {Rows: []string{"acknowledging someone with no pending transition: the pending ones"}},
	{"preflight/build_self.go", "buildLeave"}:                            {Rows: []string{"the lead leaving: the new lead prepares, then the lead points to them", "the legacy lead leaving: the lead made explicit first"}},
	{"preflight/force.go", "forceStateConflict"}:                         {Rows: []string{"an add over a conflicting state: the --force rerun from the checkout"}},
	{"preflight/gates.go", "leadPathRefusal"}:                            {Rows: []string{"a change on a conflicting lead path: roster repo"}},
	{"preflight/guidance.go", "guidance"}:                                {Rows: []string{"removing an invitee: the other co-maintainers' follow-lead", "a co-maintainer preparing to lead: the lead points to them, then follows"}},
	{"preflight/intent.go", "Intent.Suggest"}:                            {Rows: []string{"a change given --force where it means nothing: the same without it", "a co-maintainer preparing to lead: the lead points to them, then follows"}},
	{"preflight/invitee.go", "inviteeStep"}:                              {Rows: []string{"an invitee whose published state differs: publish on their own coordinate, then accept"}},
	{"preflight/plan.go", "Prepare"}:                                     {Rows: []string{"a change given --force with no state conflict: the same without it"}},
	{"preflight/plan.go", "baseInTheFuture"}:                             {Rows: []string{"a change over an announcement dated far ahead: roster repo, and the rerun once it is deleted"}},
	{"preflight/repair.go", "buildRepair"}:                               {Rows: []string{"repo repair with nothing to repair: repo health"}},
	{"preflight/state.go", "alignCommands"}:                              {Unpasted: "git fetch/merge/branch -f that change a checkout's refs (repo_state_test.go covers what they align)"},
	{"report/share.go", "Share.WithClone"}:                               {Elsewhere: "TestOrdinaryWorldJourney"},
	{"report/share.go", "ShareOf"}:                                       {Rows: []string{"an invitation's share: the accept command sent to the invitee", "an invitation's human output: the invitee's accept command"}},
	{"statepub/compare.go", "nextFor"}:                                   {Rows: []string{"repo state of a branch ahead of the published state: publish it", "repo state of a published commit this checkout lacks: fetch it, then fast-forward"}},
	{"statepub/interrupted.go", "stoppedAfterSending"}:                   {Rows: []string{"repo state publish interrupted after the relay accepted: repo state shows it"}},
	{"statepub/journal.go", "Pipeline.journalBegin"}:                     {Rows: []string{"repo state publish with a full journal: pending, then publish"}},
	{"statepub/journal.go", "journalUnreadable"}:                         {Rows: []string{"repo state publish with a journal that cannot be read: pending, then publish"}},
	{"statepub/recheck.go", "Pipeline.unchangedCut"}:                     {Rows: []string{"repo state publish whose recheck sees a newer state: compare, then publish"}},
	{"statepub/statepub.go", "Pipeline.Run"}:                             {Rows: []string{"repo state publish by someone who maintains nothing: who does"}},
	{"statepub/statepub.go", "Pipeline.plan"}:                            {Rows: []string{"repo state in a checkout whose refs cannot be read: git fsck, then publish", "repo state publish of a commit no Git server serves: push it, then publish"}},
	{"statepub/statepub.go", "Pipeline.publish"}:                         {Rows: []string{"repo state publish no relay accepts: the same, once one does", "repo state publish superseded by a newer state: compare, then publish"}},
	{"statepub/statepub.go", "publishCmd"}:                               {Rows: []string{"repo state publish of a commit no Git server serves: push it, then publish", "repo state publish no relay accepts: the same, once one does"}},
	{"statepub/statepub.go", "rewriteRefusal"}:                           {Rows: []string{"repo state publish of a rewritten history: fetch, compare, or --force"}},
	{"workspace/groups/journal.go", "journalErr"}:                        {Rows: []string{"a group moderation whose journal cannot be written: the rerun once it can", "a group join whose journal cannot be written: the rerun once it can", "a member's group join --save whose journal cannot be written: the save once it can"}},
	{"workspace/groups/moderate.go", "Prepared.Send"}:                    {Rows: []string{"a group moderation whose journal cannot be written: the rerun once it can"}},
	{"workspace/groups/moderate.go", "checkParent"}:                      {Rows: []string{"group create under a parent one does not administer: the parent's admins"}},
	{"workspace/groups/moderate.go", "prepare"}:                          {Rows: []string{"group create of a group the relay already hosts: show it"}},
	{"workspace/groups/moderate.go", "send"}:                             {Rows: []string{"a group moderation the relay refuses: the group as the relay has it", "a group create whose metadata the relay refuses: the edit that sets it"}},
	{"workspace/groups/moderate.go", "verify"}:                           {Rows: []string{"a group moderation that does not read back: show the group"}},
	{"workspace/groups/moved.go", "MoveSearch.Advice"}:                   {Rows: []string{"a group whose relay is down and whose admins list it elsewhere: read and join it there"}},
	{"workspace/groups/request.go", "hostOf"}:                            {Rows: []string{"a group moderation of an id two relays host: the command on the one meant", "a group join of an id no relay hosts: the groups they host", "a group join with the relay not answering: the same once it is back", "a group leave --dry-run of an id two relays host: the preview on the one meant", "a group add --dry-run of an id two relays host: the preview on the one meant"}},
	{"workspace/groups/request.go", "request"}:                           {Rows: []string{"a group join the relay refuses: your membership there", "a group join that does not read back: your membership there", "a group join whose journal cannot be written: the rerun once it can", "a group leave the relay accepts but still counts you in: your membership there"}},
	{"workspace/groups/resume.go", "Resume"}:                             {Rows: []string{"a group write whose journal lost an event: discard it"}},
	{"workspace/groups/resume.go", "rerun"}:                              {Rows: []string{"a resumed group write whose group changed meanwhile: the rerun, then the discard", "a resumed group write past the acceptance window: the rerun"}},
	{"workspace/groups/resume.go", "verifyRequest"}:                      {Rows: []string{"a resumed group join that does not read back: your membership there"}},
	{"workspace/groups/save.go", "SaveList"}:                             {Rows: []string{"a group join --save with a list relay not answering: the save once it is back", "a member's group join --save whose journal cannot be written: the save once it can", "a group join and leave without --save: the groups list update they offer"}},
	{"workspace/pipeline/journal.go", "Keep"}:                            {Rows: []string{"a workspace write with a full journal: roster pending"}},
	{"workspace/pipeline/journal.go", "PendingCommands"}:                 {Rows: []string{"an interrupted workspace write: pending resume", "an interrupted workspace write: pending discard"}},
	{"workspace/pipeline/journal.go", "Unfinished"}:                      {Rows: []string{"a workspace write with an unreadable journal entry: roster pending lists it", "a workspace write whose journal is not a directory: no roster pending, which fails the same way"}},
	{"workspace/pipeline/journal.go", "resumeNext"}:                      {Rows: []string{"a resumed workspace write after a competing change: rerun, show, discard"}},
	{"workspace/projects/check.go", "ChangeSuggestions"}:                 {Elsewhere: "TestProjectRefusalNamesTheOwnersCommandRunnableAsPrinted"},
	{"workspace/projects/check.go", "Check"}:                             {Rows: []string{"project relate of a channel already related: project show", "project relate by a stranger to a project with a home channel: the channel's members"}},
	{"workspace/projects/publish.go", "Create"}:                          {Rows: []string{"project create over a live project: update it, or show it"}},
	{"workspace/projects/publish.go", "IdentityInput.identityUnchanged"}: {Unpasted: "another device's identity landing inside this update's signing window (TestAnIdentityUpdatedElsewhereWhileSigningStopsTheUpdate provokes it); the command is the update as typed (Factory.RerunWords)"},
	{"workspace/projects/publish.go", "IdentityInput.currentIdentity"}:   {Rows: []string{"a deleted project: its owner's roster project create"}},
	{"workspace/projects/read.go", "NotFound"}:                           {Rows: []string{"project update on a relay that does not hold it: show it on the one hosting it"}},
	{"workspace/projects/read.go", "showOn"}:                             {Rows: []string{"project update by someone not its owner: project show", "project relate of a channel already related: project show", "project create over a live project: update it, or show it"}},
	{"workspace/projects/submit.go", "ChangeInput.confirm"}:              {Rows: []string{"a project change the relay does not confirm: project show"}},
	{"workspace/sections/importer.go", "Session.Create"}:                 {Rows: []string{"workspace create over a legacy event: import"}},
	{"workspace/sections/importer.go", "Session.Import"}:                 {Rows: []string{"workspace import with nothing to import: create"}},
	{"workspace/sections/importer.go", "Session.fetchLegacy"}:            {Rows: []string{"workspace import with the relay not answering for the legacy event: the same once it is back", "workspace create with the relay not answering for the legacy event: the same once it is back"}},
	{"workspace/sections/importer.go", "Session.resume"}:                 {Rows: []string{"a kept import another import overtook: show the workspace"}},
	{"workspace/sections/importer.go", "Session.revisionZero"}:           {Rows: []string{"workspace create over a workspace already there: show it"}},
	{"workspace/sections/importer.go", "Session.submitImport"}:           {Rows: []string{"workspace import whose answer is lost: the same import again, then show"}},
	{"workspace/sections/list.go", "Session.List"}:                       {Rows: []string{"workspace list with the relay not answering: the same once it is back"}},
	{"workspace/sections/session.go", "Session.Sync"}:                    {Rows: []string{"workspace show with no workspace: the owner creates it", "workspace show by a reader without a grant: the owner's grant", "workspace show of an owner who has none yet: their create, then their grant"}},
	{"workspace/sections/session.go", "Session.show"}:                    {Rows: []string{"a workspace write with the relay not answering: the cached workspace", "a move to a section the workspace lacks: show lists them"}},
	{"workspace/sections/write.go", "Session.RoleRefusal"}:               {Rows: []string{"a workspace move by a viewer: the owner's grant, run by the owner"}},
}
