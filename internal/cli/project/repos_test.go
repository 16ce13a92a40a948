package project_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/projects"
)

// discoveryREQs are the REQs among reqs that ask for repository
// announcements, with the identifiers each asks about.
func discoveryREQs(reqs [][]nostr.Filter) [][]string {
	var out [][]string
	for _, req := range reqs {
		var ids []string
		asks := false
		for _, f := range req {
			if slices.Contains(f.Kinds, graph.KindAnnouncement) {
				asks = true
				ids = append(ids, f.Tags["d"]...)
			}
		}
		if asks {
			slices.Sort(ids)
			out = append(out, slices.Compact(ids))
		}
	}
	return out
}

type projectHealthOut struct {
	Schema       string                     `json:"schema"`
	Healthy      bool                       `json:"healthy"`
	Unhealthy    int                        `json:"unhealthy"`
	Unresolved   int                        `json:"unresolved"`
	Repositories []report.ProjectRepository `json:"repositories"`
}

// Rule (a project's repositories with their maintainers and health, read
// with one discovery round per relay for all of them): `project show` of a
// project with three member repositories lists each with its lead, its
// confirmed maintainers by name and its health verdict, from ONE request
// to the relay that asks for repository announcements, naming all three
// (counted at the relay); `project health` exits as `repo health` does:
// 0 with a warning, 5 under --strict when one member is unhealthy, and its
// GitHub format names the member.
func TestProjectShowsItsRepositoriesFromOneDiscoveryRound(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Profiles()
	addrs := []string{w.MemberRepo("alpha", false), w.MemberRepo("beta", false), w.MemberRepo("gamma", true)}
	var tags []nostr.Tag
	for _, a := range addrs {
		tags = append(tags, nostr.Tag{"a", a})
	}
	w.Identity(nostr.Now()-10, tags...)

	before := w.Relay.ReqCount()
	r := w.As(clitest.PcStrangerSK, "project", "show", w.Coord.String(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("show: exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	reqs := w.Relay.Requests()[before:]
	if got := discoveryREQs(reqs); len(got) != 1 || !reflect.DeepEqual(got[0], []string{"alpha", "beta", "gamma"}) {
		t.Fatalf("repository discovery REQs %v, want one naming alpha, beta and gamma (all REQs: %d)", got, len(reqs))
	}
	show := clitest.DecodeOut[struct {
		Schema       string                     `json:"schema"`
		Repositories []report.ProjectRepository `json:"repositories"`
	}](t, r)
	if show.Schema != "roster.project/v2" || len(show.Repositories) != 3 {
		t.Fatalf("show: %+v", show)
	}
	lead, co := gitstate.EncodeNpub(clitest.PubOf(t, clitest.PrLeadSK)), gitstate.EncodeNpub(clitest.PubOf(t, clitest.PrCoSK))
	for i, repo := range show.Repositories {
		if repo.Address != addrs[i] || repo.Status != report.RepositoryResolved || repo.Lead == nil || repo.Lead.Npub != lead ||
			repo.Lead.Name == nil || *repo.Lead.Name != "Lena" || len(repo.Maintainers) != 2 || repo.Health.Verdict != report.VerdictHealthy {
			t.Fatalf("repository %d: %+v", i, repo)
		}
		var names []string
		for _, m := range repo.Maintainers {
			if m.Name != nil && (m.Npub == lead || m.Npub == co) {
				names = append(names, *m.Name)
			}
		}
		if slices.Sort(names); !slices.Equal(names, []string{"Cole", "Lena"}) {
			t.Fatalf("repository %d maintainers: %v", i, names)
		}
	}
	if show.Repositories[2].Health.Warnings == 0 {
		t.Fatalf("gamma has no warning: %+v", show.Repositories[2].Findings)
	}
	// The human view names the maintainers too.
	if h := w.As(clitest.PcStrangerSK, "project", "show", w.Coord.String()); h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "Lena") || !strings.Contains(h.Out, "Cole") || strings.Count(h.Out, "repository ") != 3 {
		t.Fatalf("human show: exit %d\n%s%s", h.Code, h.Out, h.Err)
	}

	// project health: one discovery with complete evidence (the deletion
	// round too), still one request per round for the three.
	before = w.Relay.ReqCount()
	ok := w.As(clitest.PcStrangerSK, "project", "health", w.Coord.String(), "--json")
	if ok.Code != cmdutil.ExitOK || !clitest.DecodeOut[projectHealthOut](t, ok).Healthy {
		t.Fatalf("health: exit %d: %s %s", ok.Code, ok.Out, ok.Err)
	}
	if got := discoveryREQs(w.Relay.Requests()[before:]); len(got) != 1 || len(got[0]) != 3 {
		t.Fatalf("health's repository discovery REQs: %v", got)
	}
	strict := w.As(clitest.PcStrangerSK, "project", "health", w.Coord.String(), "--strict", "--json")
	out := clitest.DecodeOut[projectHealthOut](t, strict)
	if strict.Code != cmdutil.ExitUnhealthy || out.Healthy || out.Unhealthy != 1 || out.Repositories[2].Health.Verdict != report.VerdictUnhealthy ||
		out.Repositories[0].Health.Verdict != report.VerdictHealthy || out.Schema != "roster.project-health/v1" {
		t.Fatalf("health --strict: exit %d: %+v", strict.Code, out)
	}
	gh := w.As(clitest.PcStrangerSK, "project", "health", w.Coord.String(), "--strict", "--format", "github")
	if gh.Code != cmdutil.ExitUnhealthy || !strings.Contains(gh.Out, "::warning title=roster%3A maintainers-projection-mismatch (gamma)::") || !strings.Contains(gh.Out, "::error title=roster%3A project health::") {
		t.Fatalf("health --format github: exit %d\n%s%s", gh.Code, gh.Out, gh.Err)
	}
}

// Rule: a member repository no relay holds cannot be judged: `project
// health` exits 4 (project-repositories-incomplete) and names it.
func TestProjectHealthWithAnUnresolvedMemberIsIncomplete(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	good := w.MemberRepo("alpha", false)
	missing := "30617:" + clitest.PubOf(t, clitest.PrLeadSK) + ":nowhere"
	w.Identity(nostr.Now()-10, nostr.Tag{"a", good}, nostr.Tag{"a", missing})
	r := w.As(clitest.PcStrangerSK, "project", "health", w.Coord.String(), "--json")
	out := clitest.DecodeOut[projectHealthOut](t, r)
	if r.Code != cmdutil.ExitIncomplete || out.Unresolved != 1 || out.Repositories[1].Status != report.RepositoryNotFound || out.Repositories[0].Status != report.RepositoryResolved {
		t.Fatalf("exit %d: %+v\n%s", r.Code, out, r.Err)
	}
}

// Rule (NIP-PC does not widen kind 30621's owner-only authority; every
// other tag kept): the owner's --add-repo and --remove-repo edit the `a`
// tags of the owner's latest kind 30621, keeping every other tag byte for
// byte and not folding the related channels into it; anyone else is
// refused before signing; a repository that does not resolve is refused
// unless --force-unresolved; each refusal leaves the relay untouched.
func TestProjectMemberRepositoriesAreEditedByTheOwnerOnly(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	alpha, beta := w.MemberRepo("alpha", false), w.MemberRepo("beta", false)
	odd := []nostr.Tag{{"x-extension", " spaced ", "", "more"}, {"a", "30023:" + clitest.PubOf(t, clitest.PcOwnerSK) + ":article"}, {"t", "go"}}
	w.Identity(nostr.Now()-10, append(odd, nostr.Tag{"a", alpha})...)
	if r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("relate: exit %d: %s", r.Code, r.Err)
	}
	identities := func() int {
		return len(w.Relay.Stored(nostr.Filter{Kinds: []int{projects.KindIdentity}, Authors: []string{w.Coord.Owner}}))
	}
	n := identities()

	betaURL := "nostr://" + gitstate.EncodeNpub(clitest.PubOf(t, clitest.PrLeadSK)) + "/beta"
	if r := w.As(clitest.PcStrangerSK, "project", "update", w.Coord.String(), "--add-repo", betaURL, "--json"); r.Code != cmdutil.ExitRefused || clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "not-owner" || identities() != n {
		t.Fatalf("stranger: exit %d %s", r.Code, r.Out)
	}
	nowhere := "30617:" + clitest.PubOf(t, clitest.PrLeadSK) + ":nowhere"
	if r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--add-repo", nowhere, "--json"); r.Code != cmdutil.ExitRefused || clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "repository-unresolved" || identities() != n {
		t.Fatalf("unresolved: exit %d %s", r.Code, r.Out)
	}
	if r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--add-repo", alpha, "--json"); r.Code != cmdutil.ExitRefused || clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "already-member" || identities() != n {
		t.Fatalf("already a member: exit %d %s", r.Code, r.Out)
	}

	r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--add-repo", betaURL, "--remove-repo", alpha, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("owner: exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	latest := w.Relay.Stored(nostr.Filter{Kinds: []int{projects.KindIdentity}, Authors: []string{w.Coord.Owner}})[0]
	want := append(nostr.Tags{{"d", w.Coord.D}, {"name", "Demo"}}, odd...)
	want = append(want, nostr.Tag{"a", beta})
	if !reflect.DeepEqual(latest.Tags, want) {
		t.Fatalf("identity tags\n got %q\nwant %q", latest.Tags, want)
	}
	if st := w.Stored(); len(st.Document.Members) != 1 || st.Document.Members[0].Address != beta || !st.Document.Related(clitest.PcChanA) {
		t.Fatalf("state: members %+v related %v", st.Document.Members, st.Document.RelatedChannels)
	}
	if r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--add-repo", nowhere, "--force-unresolved"); r.Code != cmdutil.ExitOK {
		t.Fatalf("--force-unresolved: exit %d: %s", r.Code, r.Err)
	}
	if st := w.Stored(); len(st.Document.Members) != 2 {
		t.Fatalf("after --force-unresolved: %+v", st.Document.Members)
	}
}

// Rule: `project create --add-repo` writes each repository's `a` tag after
// roster's own tags (an naddr's first relay hint as the tag's hint), and an
// unresolved one is refused with nothing stored and the command that adds
// it anyway.
func TestProjectCreateWritesItsMemberRepositories(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	alpha := w.MemberRepo("alpha", false)
	naddr := gitstate.EncodeNaddr(graph.NewCoordinate(clitest.PubOf(t, clitest.PrLeadSK), "alpha"), []string{w.Relay.URL()})
	w.Coord.D = "fresh"
	r := w.As(clitest.PcOwnerSK, "project", "create", "fresh", "--name", "Fresh", "--add-repo", naddr, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("create: exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	got := w.Relay.Stored(nostr.Filter{Kinds: []int{projects.KindIdentity}, Authors: []string{w.Coord.Owner}, Tags: nostr.TagMap{"d": {"fresh"}}})
	if want := (nostr.Tags{{"d", "fresh"}, {"name", "Fresh"}, {"a", alpha, w.Relay.URL()}}); len(got) != 1 || !reflect.DeepEqual(got[0].Tags, want) {
		t.Fatalf("created identity %v, want tags %q", got, want)
	}
	r = w.As(clitest.PcOwnerSK, "project", "create", "other", "--name", "Other", "--add-repo", "30617:"+clitest.PubOf(t, clitest.PrCoSK)+":nowhere", "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitRefused || e.Error.Code != "repository-unresolved" || len(e.Error.Commands) < 2 || !strings.Contains(e.Error.Commands[1], "--force-unresolved") {
		t.Fatalf("unresolved create: exit %d: %+v", r.Code, e)
	}
	if n := len(w.Relay.Stored(nostr.Filter{Kinds: []int{projects.KindIdentity}, Tags: nostr.TagMap{"d": {"other"}}})); n != 0 {
		t.Fatalf("%d identities stored for the refused create", n)
	}
}

// Rule (a comparison that could not be made is a failure, not a pass): a
// relay that does not answer for the project itself may hold a newer
// revision listing other repositories, so `project health` of a project
// whose members were all judged healthy still exits 4 (incomplete) and
// prints the health object.
func TestProjectHealthWithAnUnansweredProjectReadIsIncomplete(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	r := w.As(clitest.PcStrangerSK, "project", "health", w.Coord.String(), "--json", "--relay", "ws://127.0.0.1:1")
	out := clitest.DecodeOut[projectHealthOut](t, r)
	if r.Code != cmdutil.ExitIncomplete || out.Unresolved != 0 || out.Unhealthy != 0 || out.Healthy {
		t.Fatalf("exit %d: %+v\n%s", r.Code, out, r.Err)
	}
}

// Rule (an incomplete verdict says why and what to run next): the human
// report of `project health` whose project read was incomplete says that
// not every relay answered for the project and prints the command to see
// what each relay answered, since the report stands in for the error.
func TestProjectHealthSaysWhyItIsIncompleteAndWhatToRunNext(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	r := w.As(clitest.PcStrangerSK, "project", "health", w.Coord.String(), "--relay", "ws://127.0.0.1:1")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, "not every relay answered for the project itself") ||
		!strings.Contains(r.Out, "next:") || !strings.Contains(r.Out, "roster project show") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}
