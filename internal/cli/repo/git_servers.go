package repo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
)

// Verdicts of a Git server compared with the published state
// (report.GitServer.Verdict) and of one of its refs.
const (
	ServerMatches    = "matches"
	serverAhead      = "ahead"
	serverBehind     = "behind-or-rewound"
	serverDiverged   = "diverged"
	serverDiffers    = "differs"
	serverUnreachble = "unreachable"

	refAhead    = "ahead"
	refBehind   = "behind"
	refDiverged = "diverged"
	refMissing  = "missing"
	refExtra    = "extra"
	refUnknown  = "unknown"
)

// maxGitServers bounds how many advertised clone servers one read lists
// (clone URLs come from announcements: attacker-controlled input).
const maxGitServers = 8

// Health codes of a Git server that does not serve the published state.
const (
	codeGitServerAhead    = "git-server-ahead"
	codeGitServerBehind   = "git-server-behind-or-rewound"
	codeGitServerDiverged = "git-server-diverged"
	codeGitServerDiffers  = "git-server-differs"
)

// listRefs is gitstate.ListRemoteRefs; tests may not replace it (they run
// real servers), but the comparison takes it as a value.
type listRefs func(ctx context.Context, url string) (gitstate.Advertised, error)

// GitServers lists what each advertised clone server of the confirmed
// component serves, all at once within the command's --timeout, and
// compares it with the resolved state. Nothing when there is no state or
// no server to list.
func GitServers(a *cmdutil.Factory, ctx context.Context, v *RepoView) []report.GitServer {
	out := []report.GitServer{}
	if v == nil || v.State == nil {
		return out
	}
	var urls []string
	for _, u := range gitstate.ComponentCloneServers(v.Resolution) {
		if strings.HasPrefix(strings.ToLower(u), "nostr:") {
			continue // names the repository, not a Git server
		}
		if len(urls) == maxGitServers {
			break
		}
		urls = append(urls, u)
	}
	if len(urls) == 0 {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, a.Opts.Timeout)
	defer cancel()
	var isAncestor func(string, string) (bool, error)
	if v.Checkout != nil {
		isAncestor = v.Checkout.IsAncestor
	}
	// A repair command carries the repository and relays this read used,
	// as every printed command does, but not the runner's --home: any
	// maintainer may run it, and the JSON is read by others.
	sel := render.Selectors(a)
	sel.Home = ""
	line := func(c suggest.Command) string { return sel.Apply(c).Line() }
	return compareGitServers(ctx, urls, v.State.Refs, gitstate.ListRemoteRefs, isAncestor, line)
}

// compareGitServers lists every server in parallel and compares each;
// line renders the repair commands.
func compareGitServers(ctx context.Context, urls []string, state map[string]string, list listRefs, isAncestor func(string, string) (bool, error), line func(suggest.Command) string) []report.GitServer {
	out := make([]report.GitServer, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			adv, err := list(ctx, u)
			if err != nil {
				reason := err.Error()
				var ue *gitstate.UnreachableError
				if errors.As(err, &ue) {
					reason = fmt.Sprintf("%s: %v", ue.Reason, ue.Err)
				}
				out[i] = report.GitServer{URL: u, Verdict: serverUnreachble, Reason: &reason, Refs: []report.GitServerRef{}}
				return
			}
			out[i] = compareGitServer(u, state, adv.Refs, isAncestor, line)
		}()
	}
	wg.Wait()
	return out
}

// comparedRef reports whether ref is one the comparison looks at: a branch
// or tag itself (peeled "^{}" entries and HEAD follow from them; other
// namespaces such as refs/pull/* are the server's own).
func comparedRef(ref string) bool {
	return (strings.HasPrefix(ref, "refs/heads/") || strings.HasPrefix(ref, "refs/tags/")) && !strings.HasSuffix(ref, "^{}")
}

// CompareGitServer compares one server's refs with the state's. Ancestry
// comes from isAncestor (this checkout's object store; nil outside one):
// where it cannot tell, the ref is unknown. The repair command is as
// built, without the runner's selectors.
func CompareGitServer(url string, state, served map[string]string, isAncestor func(string, string) (bool, error)) report.GitServer {
	return compareGitServer(url, state, served, isAncestor, suggest.Command.String)
}

// compareGitServer is CompareGitServer with the repair command rendered
// by line.
func compareGitServer(url string, state, served map[string]string, isAncestor func(string, string) (bool, error), line func(suggest.Command) string) report.GitServer {
	s := report.GitServer{URL: url, Refs: []report.GitServerRef{}}
	cmdPtr := func(c suggest.Command) *string {
		s.Suggested = &c
		l := line(c)
		return &l
	}
	names := map[string]bool{}
	for r := range state {
		if comparedRef(r) {
			names[r] = true
		}
	}
	for r := range served {
		if comparedRef(r) {
			names[r] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for r := range names {
		sorted = append(sorted, r)
	}
	sort.Strings(sorted)
	for _, r := range sorted {
		want, inState := state[r]
		have, onServer := served[r]
		if inState && onServer && strings.EqualFold(want, have) {
			continue
		}
		c := report.GitServerRef{Ref: r}
		if inState {
			c.State = &want
		}
		if onServer {
			c.Server = &have
		}
		switch {
		case !onServer:
			c.Verdict = refMissing
		case !inState:
			c.Verdict = refExtra
		default:
			c.Verdict = refAncestry(want, have, isAncestor)
		}
		s.Refs = append(s.Refs, c)
	}
	var ahead, behind, diverged, unknown bool
	for _, c := range s.Refs {
		switch c.Verdict {
		case refAhead, refExtra:
			ahead = true
		case refBehind, refMissing:
			behind = true
		case refDiverged:
			diverged = true
		default:
			unknown = true
		}
	}
	switch {
	case diverged || ahead && behind:
		s.Verdict = serverDiverged
		s.Command = cmdPtr(suggest.Roster("repo", "state"))
	case behind:
		s.Verdict = serverBehind
		for _, c := range s.Refs {
			if c.Verdict == refBehind || c.Verdict == refMissing {
				s.Command = cmdPtr(suggest.Git("push", url, *c.State+":"+c.Ref))
				break
			}
		}
	case unknown:
		s.Verdict = serverDiffers
		s.Command = cmdPtr(suggest.Git("fetch", url))
	case ahead:
		s.Verdict = serverAhead
		s.Command = cmdPtr(suggest.Roster("repo", "state", "publish"))
	default:
		s.Verdict = ServerMatches
	}
	return s
}

// refAncestry tells a differing ref's direction from the local store.
func refAncestry(state, server string, isAncestor func(string, string) (bool, error)) string {
	if isAncestor == nil {
		return refUnknown
	}
	fwd, err := isAncestor(state, server)
	if err != nil {
		return refUnknown
	}
	if fwd {
		return refAhead
	}
	back, err := isAncestor(server, state)
	switch {
	case err != nil:
		return refUnknown
	case back:
		return refBehind
	}
	return refDiverged
}

// GitServerFindings are the health findings of the servers that do not
// serve the published state: warnings any maintainer can act on (so
// `--strict` fails on them). An unreachable server is not a finding: it is
// incomplete evidence (exit 4 with --strict).
func GitServerFindings(servers []report.GitServer) []report.Finding {
	var out []report.Finding
	for _, s := range servers {
		var code, msg string
		switch s.Verdict {
		case serverAhead:
			code, msg = codeGitServerAhead, fmt.Sprintf("the Git server %s has commits or refs the published repository state does not name (%s): somebody pushed and did not publish; publish with roster repo state publish", s.URL, RefList(s.Refs))
		case serverBehind:
			code, msg = codeGitServerBehind, fmt.Sprintf("the Git server %s does not serve the published repository state (%s): it is behind or was rewound; push the state's commits back to it", s.URL, RefList(s.Refs))
		case serverDiverged:
			code, msg = codeGitServerDiverged, fmt.Sprintf("the Git server %s and the published repository state have diverged (%s): neither contains the other; compare with roster repo state and publish or push what the maintainers agree on", s.URL, RefList(s.Refs))
		case serverDiffers:
			code, msg = codeGitServerDiffers, fmt.Sprintf("the Git server %s serves other commits than the published repository state names (%s), and this checkout lacks the objects to tell ahead from behind; fetch the server here and run again", s.URL, RefList(s.Refs))
		default:
			continue
		}
		f := report.Finding{Severity: "warning", Code: code, Message: msg,
			Actor: report.ActorAnyMaintainer, ActorIsMaintainer: true}
		if s.Suggested != nil {
			// Bare, as every finding's command is; the value is pasted
			// with the reader's selectors where it is printed.
			bare := s.Suggested.String()
			f.Command, f.Suggested = &bare, s.Suggested
		}
		out = append(out, f)
	}
	return out
}

// RefList is "refs/heads/main ahead, refs/tags/v1 missing".
func RefList(refs []report.GitServerRef) string {
	parts := make([]string, 0, len(refs))
	for _, c := range refs {
		parts = append(parts, c.Ref+" "+c.Verdict)
	}
	return strings.Join(parts, ", ")
}

// UnreachableServers are the servers that could not be listed.
func UnreachableServers(servers []report.GitServer) []report.GitServer {
	var out []report.GitServer
	for _, s := range servers {
		if s.Verdict == serverUnreachble {
			out = append(out, s)
		}
	}
	return out
}
