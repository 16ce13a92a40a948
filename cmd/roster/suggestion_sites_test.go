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
// provoke and paste what it builds, the other test that pastes it, why it
// cannot be pasted, or NotYet: what would provoke it (a backlog, never
// counted as done). A site missing from the table, a row naming a site
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
		t.Errorf("%s builds a suggestion and is not in suggestionSites (name the row or test that pastes it, why it cannot be pasted, or NotYet: what provokes it)", m)
	}
	var counts [4]int
	for s, c := range suggestionSites {
		if !found[s] {
			t.Errorf("suggestionSites names %s %s, which builds no suggestion", s.File, s.Func)
		}
		set := 0
		for i, ok := range []bool{len(c.Rows) > 0, c.Elsewhere != "", c.Unpasted != "", c.NotYet != ""} {
			if ok {
				set++
				counts[i]++
			}
		}
		if set != 1 {
			t.Errorf("%s %s: want exactly one of Rows, Elsewhere, Unpasted, NotYet, got %+v", s.File, s.Func, c)
		}
		for _, r := range c.Rows {
			if !rows[r] {
				t.Errorf("%s %s: suggestionRows has no row %q", s.File, s.Func, r)
			}
		}
		if c.Elsewhere != "" && !tests[c.Elsewhere] {
			t.Errorf("%s %s: no test %s in cmd/roster", s.File, s.Func, c.Elsewhere)
		}
	}
	t.Logf("%d suggestion sites: %d pasted by suggestionRows, %d by other tests, %d not pastable, %d not yet provoked",
		len(found), counts[0], counts[1], counts[2], counts[3])
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
	// Elsewhere is the test in cmd/roster that pastes it as printed.
	Elsewhere string
	// Unpasted is why no test can paste it.
	Unpasted string
	// NotYet is what provokes it: a row still to write.
	NotYet string
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
	paths, err := filepath.Glob("*_test.go")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no test files: %v", err)
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
	{"gitstate/availability.go", "EvaluateAvailability"}:                 {NotYet: "repo state with the git servers not serving the state's commits"},
	{"gitstate/availability_failure.go", "Availability.Failure"}:         {NotYet: "repo state whose commits no git server holds"},
	{"graph/commands.go", "CommandAccept"}:                               {Rows: []string{"an invited viewer's advisory: accept"}},
	{"graph/commands.go", "CommandAcceptModerator"}:                      {NotYet: "an invited moderator's advisory: accept --moderator"},
	{"graph/commands.go", "CommandAcknowledge"}:                          {Elsewhere: "TestMutationSuggestedCommandsRunAsPrinted"},
	{"graph/commands.go", "CommandAddMaintainer"}:                        {NotYet: "a lead roster that misses a co-maintainer's maintainers (health's ask-to-list finding)"},
	{"graph/commands.go", "CommandAddModerator"}:                         {NotYet: "a moderator invitation's guidance"},
	{"graph/commands.go", "CommandFixMaintainers"}:                       {NotYet: "health of an announcement whose maintainers tag needs fixing"},
	{"graph/commands.go", "CommandFollowLead"}:                           {NotYet: "a co-maintainer whose announcement does not follow the lead (health, advisories, guards)"},
	{"graph/roleloss.go", "CommandRepair"}:                               {NotYet: "a role loss health finding's repair"},
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
	{"internal/cli/dev/relay.go", "devRelayFlags.again"}:                 {Rows: []string{"dev relay on a busy port: a free one, keeping --require-auth", "dev relay with an unknown seed: the demo, on the address given"}},
	{"internal/cli/dev/relay_try.go", "DemoTryLines"}:                    {Elsewhere: "TestDemoTryLinesRunAsPrinted"},
	{"internal/cli/group/group.go", "groupOutage"}:                       {NotYet: "a group command with the group relay not answering"},
	{"internal/cli/group/group.go", "groupReadErr"}:                      {NotYet: "a group read that fails"},
	{"internal/cli/group/group.go", "groupShowOffline"}:                  {NotYet: "group show --offline with nothing cached"},
	{"internal/cli/group/journal.go", "noticeUnfinished"}:                {NotYet: "a group command with an unfinished group write pending"},
	{"internal/cli/group/list.go", "groupShowMe"}:                        {NotYet: "group show of a group the reader is not in"},
	{"internal/cli/group/list.go", "newGroupListCmd"}:                    {NotYet: "group list with no relays or an empty answer"},
	{"internal/cli/group/mine.go", "groupListMine"}:                      {NotYet: "group list --mine with no groups"},
	{"internal/cli/group/moderate.go", "groupConfirmDelete"}:             {NotYet: "group delete without --yes"},
	{"internal/cli/group/moderate.go", "groupModerate"}:                  {NotYet: "group moderation refused (not an admin, relay refusal)"},
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
	{"internal/cli/project/cache.go", "projectReadCached"}:               {NotYet: "project show --offline with nothing cached"},
	{"internal/cli/project/health.go", "newProjectHealthCmd"}:            {NotYet: "project health with an unjudged member or an incomplete project read (the commands are built but, Printed, never rendered)"},
	{"internal/cli/project/health.go", "unresolvedCommands"}:             {NotYet: "project health with an unjudged member (built, but the error is Printed and its commands never rendered)"},
	{"internal/cli/project/identity.go", "projectIdentityWrite"}:         {NotYet: "project create/update/delete given two relays"},
	{"internal/cli/project/list.go", "newProjectListCmd"}:                {NotYet: "project list with no relays, a timeout, or nothing found"},
	{"internal/cli/project/preview.go", "deleteStep"}:                    {NotYet: "project delete --dry-run"},
	{"internal/cli/project/preview.go", "retryWithYes"}:                  {NotYet: "project delete without --yes"},
	{"internal/cli/project/project.go", "newProjectChangeCmd"}:           {Rows: []string{"project relate given two relays: the one hosting the project"}},
	{"internal/cli/project/render.go", "projectNoRelays"}:                {Rows: []string{"project show with no relay to ask: --relay"}},
	{"internal/cli/project/render.go", "projectNotFound"}:                {Rows: []string{"project show of a project the relay does not hold: another relay"}},
	{"internal/cli/project/render.go", "projectRecreate"}:                {NotYet: "project show of a deleted project (its create line; the relate row pastes the refusal's create only)"},
	{"internal/cli/project/repos.go", "projectRepoCheck"}:                {NotYet: "project update --add-repo of a repository that does not resolve"},
	{"internal/cli/repo/change/change.go", "mutationFailure"}:            {NotYet: "a repo edit/accept/leave refused or incomplete"},
	{"internal/cli/repo/change/change.go", "runMutation"}:                {NotYet: "a repo change's dry run"},
	{"internal/cli/repo/change/init.go", "reportRepoInit"}:               {Rows: []string{"repo init that a relay refuses: init again, or read the repository", "an interrupted first repo init resumed too late: init again, then discard"}},
	{"internal/cli/repo/change/init.go", "runRepoInit"}:                  {Rows: []string{"repo init outside a checkout"}},
	{"internal/cli/repo/checkevent/check_event.go", "checkEvents"}:       {Rows: []string{"check-event with no relay to ask: the same with --relay"}},
	{"internal/cli/repo/checkevent/check_event.go", "offlineRefusal"}:    {Rows: []string{"check-event --offline: the same, asking the relays"}},
	{"internal/cli/repo/checkout_link.go", "HooksNeedCoordinate"}:        {Rows: []string{"hooks install in a checkout that names no repository: link it, then install"}},
	{"internal/cli/repo/checkout_link.go", "LinkAcceptedCheckout"}:       {Rows: []string{"repo accept in a checkout that selects another repository: select the accepted one"}},
	{"internal/cli/repo/coordinate.go", "SelectCoordinate"}:              {Rows: []string{"a repo read outside a checkout without --repo: the --repo, or the clone", "a repo read in a checkout that names no repository: --repo, or link it", "a NIP-05 coordinate that does not resolve: the naddr instead", "a NIP-05 coordinate --offline: the naddr --offline, or the lookup"}},
	{"internal/cli/repo/coordinate.go", "ambiguityChoices"}:              {Rows: []string{"a checkout whose remotes name two repositories: each, and choosing one"}},
	{"internal/cli/repo/coordinate.go", "coordinateUsageCommands"}:       {Rows: []string{"a --repo remote name outside a checkout: the nostr:// URL or the naddr"}},
	{"internal/cli/repo/git_servers.go", "CompareGitServer"}:             {NotYet: "repo state with a git server behind or unreachable"},
	{"internal/cli/repo/reach_bound.go", "reachBoundErr"}:                {Rows: []string{"a change whose announcements name more people than the bound: the graph"}},
	{"internal/cli/repo/read_errors.go", "incompleteErr"}:                {Rows: []string{"repo health with no relay answering", "an unreachable relay: no --timeout, another relay instead"}},
	{"internal/cli/repo/read_errors.go", "notFoundErr"}:                  {Rows: []string{"an --offline cache miss keeps the naddr's relay hints", "not found: ask other relays"}},
	{"internal/cli/repo/read_errors.go", "staleErr"}:                     {Rows: []string{"a change through a relay serving an older version: the read"}},
	{"internal/cli/repo/relay_bound.go", "relayBoundErr"}:                {Rows: []string{"a change whose relays are more than the bound: the read, and the change with --relay"}},
	{"internal/cli/repo/relay_discovery.go", "noRelaysErr"}:              {Rows: []string{"no relays to ask: --relay and --offline"}},
	{"internal/cli/repo/state/state.go", "localRefsErr"}:                 {NotYet: "repo state publish in a checkout whose refs cannot be read"},
	{"internal/cli/root/root.go", "checkRelaySettings"}:                  {Rows: []string{"a relay-URL typo keeps the user's --repo"}},
	{"internal/cli/root/root.go", "unknownCommandError"}:                 {Rows: []string{"an unknown subcommand: the one meant, with --help"}},
	{"internal/cli/workspace/import.go", "workspaceMigrate"}:             {NotYet: "workspace import's next steps"},
	{"internal/cli/workspace/journal.go", "ResumeCommand"}:               {NotYet: "a workspace write left unfinished"},
	{"internal/cli/workspace/list.go", "newWorkspaceListCmd"}:            {NotYet: "workspace list with no relays, a timeout, or nothing found"},
	{"internal/cli/workspace/preview.go", "invalidCommand"}:              {NotYet: "a workspace change that does not validate"},
	{"internal/cli/workspace/preview.go", "workspaceDryRun"}:             {NotYet: "a workspace change's --dry-run"},
	{"internal/cli/workspace/workspace.go", "newWorkspaceGrantCmd"}:      {NotYet: "workspace grant refused"},
	{"internal/cli/workspace/workspace.go", "newWorkspaceRevokeCmd"}:     {NotYet: "workspace revoke refused"},
	{"internal/cli/workspace/workspace.go", "newWorkspaceShowCmd"}:       {NotYet: "workspace show's next steps"},
	{"internal/cli/workspace/write.go", "workspaceWrite"}:                {NotYet: "a workspace write refused or not confirmed"},
	{"journal/track/track.go", "Commands"}:                               {NotYet: "an unfinished write's resume and discard"},
	{"membership/errors.go", "stoppedAfterSending"}:                      {NotYet: "a repo change stopped after sending"},
	{"membership/handoff_objects.go", "handoffWayOut"}:                   {NotYet: "a lead handoff refused"},
	{"membership/journal.go", "Pipeline.journalBegin"}:                   {NotYet: "a repo change whose journal cannot be written"},
	{"membership/journal.go", "journalUnreadable"}:                       {NotYet: "a repo change with an unreadable journal"},
	{"membership/outcome.go", "recovery"}:                                {NotYet: "a repo change published to some relays only"},
	{"membership/publish.go", "superseded"}:                              {NotYet: "a repo change superseded by a competing edit"},
	{"membership/resume.go", "Pipeline.Resume"}:                          {NotYet: "pending resume of a repo change whose base moved"},
	{"membership/resume.go", "rerunCommands"}:                            {Elsewhere: "TestResumeAfterACompetingEditSendsNothingAndOffersTheRerun"},
	{"preflight/actions.go", "compareActions"}:                           {NotYet: "a repo change the relays already hold, or that conflicts"},
	{"preflight/build_moderator.go", "buildRemoveModerator"}:             {NotYet: "repo edit --remove-moderator of someone who is none"},
	{"preflight/build_moderator.go", "selfModeratorRefusal"}:             {NotYet: "a moderator adding or removing themselves"},
	{"preflight/build_roster.go", "buildRemove"}:                         {Rows: []string{"removing a maintainer one does not list: who maintains it"}},
	{"preflight/build_roster.go", "selfAddRefusal"}:                      {NotYet: "repo edit --add-maintainer of oneself"},
	{"preflight/build_self.go", "buildAcknowledge"}:                      {NotYet: "repo acknowledge with nothing to acknowledge"},
	{"preflight/build_self.go", "buildLeave"}:                            {NotYet: "repo leave by a non-maintainer"},
	{"preflight/force.go", "forceStateConflict"}:                         {NotYet: "a --force change over a conflicting state"},
	{"preflight/gates.go", "leadPathRefusal"}:                            {NotYet: "a change refused on the lead path"},
	{"preflight/guidance.go", "guidance"}:                                {NotYet: "a repo change's guidance (the accept and acknowledgement lines are pasted by TestMutationSuggestedCommandsRunAsPrinted; the follow-lead lines are not)"},
	{"preflight/intent.go", "Intent.Suggest"}:                            {NotYet: "a change's own command line, retried"},
	{"preflight/invitee.go", "inviteeStep"}:                              {NotYet: "an invitation's next step"},
	{"preflight/plan.go", "Prepare"}:                                     {NotYet: "a change with a missing base or announcement"},
	{"preflight/plan.go", "baseInTheFuture"}:                             {NotYet: "a change over a base dated in the future"},
	{"preflight/repair.go", "buildRepair"}:                               {NotYet: "repo repair"},
	{"preflight/state.go", "alignCommands"}:                              {Unpasted: "git fetch/merge/branch -f that change a checkout's refs (repo_state_test.go covers what they align)"},
	{"report/share.go", "Share.WithClone"}:                               {Elsewhere: "TestOrdinaryWorldJourney"},
	{"report/share.go", "ShareOf"}:                                       {Rows: []string{"an invitation's share: the accept command sent to the invitee", "an invitation's human output: the invitee's accept command"}},
	{"statepub/compare.go", "nextFor"}:                                   {NotYet: "repo state publish of a state equal to, behind or diverged from the relays'"},
	{"statepub/journal.go", "Pipeline.journalBegin"}:                     {NotYet: "repo state publish whose journal cannot be written"},
	{"statepub/journal.go", "journalUnreadable"}:                         {NotYet: "repo state publish with an unreadable journal"},
	{"statepub/recheck.go", "Pipeline.recheck"}:                          {NotYet: "repo state publish whose recheck sees a newer state"},
	{"statepub/statepub.go", "Pipeline.Run"}:                             {NotYet: "repo state publish refused"},
	{"statepub/statepub.go", "Pipeline.plan"}:                            {NotYet: "repo state publish by a non-maintainer or with no refs"},
	{"statepub/statepub.go", "Pipeline.publish"}:                         {NotYet: "repo state publish not confirmed by every relay"},
	{"statepub/statepub.go", "publishCmd"}:                               {NotYet: "repo state publish's own retry"},
	{"statepub/statepub.go", "rewriteRefusal"}:                           {NotYet: "repo state publish of a rewritten history without --force"},
	{"workspace/groups/journal.go", "journalErr"}:                        {NotYet: "a group write whose journal cannot be written"},
	{"workspace/groups/moderate.go", "Prepared.Send"}:                    {NotYet: "a group moderation not confirmed"},
	{"workspace/groups/moderate.go", "checkParent"}:                      {NotYet: "a group moderation of a group with a missing parent"},
	{"workspace/groups/moderate.go", "prepare"}:                          {NotYet: "a group moderation refused before signing"},
	{"workspace/groups/moderate.go", "send"}:                             {NotYet: "a group moderation the relay rejects"},
	{"workspace/groups/moderate.go", "verify"}:                           {NotYet: "a group moderation that does not read back"},
	{"workspace/groups/moved.go", "MoveSearch.Advice"}:                   {NotYet: "a group moved to another relay"},
	{"workspace/groups/request.go", "hostOf"}:                            {NotYet: "a group join request with no host relay"},
	{"workspace/groups/request.go", "request"}:                           {NotYet: "a group join request refused"},
	{"workspace/groups/resume.go", "Resume"}:                             {NotYet: "pending resume of a group write"},
	{"workspace/groups/resume.go", "rerun"}:                              {NotYet: "a group write whose base moved"},
	{"workspace/groups/resume.go", "verifyRequest"}:                      {NotYet: "a resumed join request that does not read back"},
	{"workspace/groups/save.go", "SaveList"}:                             {NotYet: "group save not confirmed"},
	{"workspace/pipeline/journal.go", "Keep"}:                            {NotYet: "a workspace write kept in the journal"},
	{"workspace/pipeline/journal.go", "PendingCommands"}:                 {NotYet: "an unfinished workspace write's resume and discard"},
	{"workspace/pipeline/journal.go", "Unfinished"}:                      {NotYet: "a workspace command with an unfinished write"},
	{"workspace/pipeline/journal.go", "resumeNext"}:                      {NotYet: "a resumed workspace write"},
	{"workspace/projects/check.go", "ChangeSuggestions"}:                 {Elsewhere: "TestProjectRefusalNamesTheOwnersCommandRunnableAsPrinted"},
	{"workspace/projects/check.go", "Check"}:                             {NotYet: "a project change refused by the check"},
	{"workspace/projects/publish.go", "Create"}:                          {NotYet: "project create over an existing project"},
	{"workspace/projects/publish.go", "IdentityInput.currentIdentity"}:   {Rows: []string{"a deleted project: its owner's roster project create"}},
	{"workspace/projects/read.go", "NotFound"}:                           {NotYet: "a project no relay holds (pipeline form)"},
	{"workspace/projects/read.go", "showOn"}:                             {NotYet: "project writes' project show line"},
	{"workspace/projects/submit.go", "ChangeInput.confirm"}:              {NotYet: "a project change not confirmed"},
	{"workspace/sections/importer.go", "Session.Create"}:                 {Rows: []string{"workspace create over a legacy event: import"}},
	{"workspace/sections/importer.go", "Session.Import"}:                 {Rows: []string{"workspace import with nothing to import: create"}},
	{"workspace/sections/importer.go", "Session.fetchLegacy"}:            {NotYet: "workspace import with the relay not answering"},
	{"workspace/sections/importer.go", "Session.resume"}:                 {NotYet: "a resumed workspace import"},
	{"workspace/sections/importer.go", "Session.revisionZero"}:           {Rows: []string{"workspace create over a workspace already there: show it"}},
	{"workspace/sections/importer.go", "Session.submitImport"}:           {NotYet: "workspace import not confirmed"},
	{"workspace/sections/list.go", "Session.List"}:                       {NotYet: "workspace list with the relay not answering"},
	{"workspace/sections/session.go", "Session.Sync"}:                    {Rows: []string{"workspace show with no workspace: the owner creates it", "workspace show by a reader without a grant: the owner's grant", "workspace show of an owner who has none yet: their create, then their grant"}},
	{"workspace/sections/session.go", "Session.show"}:                    {NotYet: "a workspace write's show line"},
	{"workspace/sections/write.go", "Session.RoleRefusal"}:               {NotYet: "a workspace write by someone without the role"},
}
