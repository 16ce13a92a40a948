package gitstate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// published is a work repository with main and an annotated tag pushed to
// a bare repository served over file:// and smart HTTP.
type published struct {
	work           *testRepo
	server         *gitServer
	fileURL        string
	httpURL        string
	main, tag, tgt string // main's commit, v1's tag object, v1's peeled commit
}

func newPublished(t *testing.T) *published {
	t.Helper()
	p := &published{work: newTestRepo(t), server: newGitServer(t)}
	p.work.commit("one")
	p.tgt = p.work.commit("two")
	p.work.git("tag", "-a", "-m", "release", "v1", p.tgt)
	p.tag = p.work.git("rev-parse", "v1")
	p.main = p.tgt
	p.server.push(p.work, "refs/heads/main", "refs/tags/v1")
	p.fileURL = p.server.fileURL()
	p.httpURL, _ = p.server.serveHTTP()
	return p
}

func (p *published) localRefs(t *testing.T) map[string]string {
	t.Helper()
	refs, err := p.work.open().LocalRefs()
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestListRemoteRefsAdvertisesRefsAndPeeledTagsOverFileAndSmartHTTP(t *testing.T) {
	p := newPublished(t)
	want := map[string]string{
		"refs/heads/main": p.main,
		"refs/tags/v1":    p.tag,
		"refs/tags/v1^{}": p.tgt,
		"HEAD":            p.main,
	}
	for _, u := range []string{p.fileURL, p.httpURL} {
		got, err := ListRemoteRefs(ctxFor(t, 10*time.Second), u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if got.URL != u || !reflect.DeepEqual(got.Refs, want) {
			t.Errorf("%s advertised %v, want %v", u, got.Refs, want)
		}
	}
}

func TestListRemoteRefsOverGitProtocol(t *testing.T) {
	p := newPublished(t)
	u := p.server.serveGitDaemon()
	got, err := ListRemoteRefs(ctxFor(t, 10*time.Second), u)
	if err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	if got.Refs["refs/tags/v1^{}"] != p.tgt || got.Refs["refs/heads/main"] != p.main {
		t.Fatalf("%s advertised %v", u, got.Refs)
	}
	if a := CheckAvailability(ctxFor(t, 10*time.Second), ServersOf([]string{u}, true), p.localRefs(t)); a.Verdict != Available {
		t.Fatalf("verdict %s, servers %+v", a.Verdict, a.Servers)
	}
}

func TestListRemoteRefsReadsAtMostMaxAdvertisementBytesOverHTTP(t *testing.T) {
	defer func(c int64) { advertisementCap = c }(advertisementCap)
	advertisementCap = 64 << 10 // the rule, at a size the race detector can stream quickly
	flood := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
		pkt := func(s string) string { return fmt.Sprintf("%04x%s", 4+len(s), s) }
		_, _ = io.WriteString(w, pkt("# service=git-upload-pack\n")+"0000"+pkt(strings.Repeat("a", 40)+" refs/heads/a\x00ofs-delta\n"))
		line := pkt(strings.Repeat("a", 40) + " refs/heads/b\n")
		chunk := strings.Repeat(line, 1024)
		for sent := 0; sent <= MaxAdvertisementBytes && r.Context().Err() == nil; sent += len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(flood.Close)
	_, err := ListRemoteRefs(ctxFor(t, 20*time.Second), flood.URL+"/r.git")
	var ue *UnreachableError
	if !errors.As(err, &ue) || ue.Reason != ReasonProtocol || !strings.Contains(err.Error(), "larger than 65536 bytes") {
		t.Fatalf("error %v, want a protocol error naming the size limit", err)
	}
}

func TestListRemoteRefsOfEmptyRepositoryIsListedWithNoRefs(t *testing.T) {
	s := newGitServer(t)
	httpURL, _ := s.serveHTTP()
	for _, u := range []string{s.fileURL(), httpURL} {
		got, err := ListRemoteRefs(ctxFor(t, 10*time.Second), u)
		if err != nil || len(got.Refs) != 0 {
			t.Errorf("%s: refs %v, err %v; want listed with no refs", u, got.Refs, err)
		}
	}
}

func TestListRemoteRefsErrorsAreTypedUnreachable(t *testing.T) {
	s := newGitServer(t)
	_, srv := s.serveHTTP()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "<html>a web page, not a Git server</html>")
	}))
	t.Cleanup(web.Close)
	private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(private.Close)
	// Servers that answer get a generous deadline (the machine may be
	// busy); the one that never answers shows the deadline is kept.
	const answers, hangs = 20 * time.Second, 500 * time.Millisecond
	cases := []struct {
		name, url string
		deadline  time.Duration
		want      Reason
	}{
		{"connection refused", downURL(t), answers, ReasonNetwork},
		{"no repository over HTTP", srv.URL + "/nothing.git", answers, ReasonNotRepository},
		{"no repository over file", "file://" + t.TempDir() + "/nothing.git", answers, ReasonNotRepository},
		{"not a Git server", web.URL + "/r.git", answers, ReasonProtocol},
		{"asks for credentials", private.URL + "/r.git", answers, ReasonAuth},
		{"answer never comes", hang.URL + "/slow.git", hangs, ReasonTimeout},
		{"nostr URL", "nostr://npub1x/repo", answers, ReasonUnsupported},
		{"scp-like", "git@example.com:repo.git", answers, ReasonUnsupported},
		{"bare path", s.dir(), answers, ReasonUnsupported},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := ListRemoteRefs(ctxFor(t, c.deadline), c.url)
			var ue *UnreachableError
			if !errors.As(err, &ue) {
				t.Fatalf("error %v (%T), want *UnreachableError", err, err)
			}
			if ue.Reason != c.want || ue.URL != c.url {
				t.Errorf("reason %q url %q (%v), want %q %q", ue.Reason, ue.URL, ue.Err, c.want, c.url)
			}
			if el := time.Since(start); el > c.deadline+2*time.Second {
				t.Errorf("took %v; the deadline was %v", el, c.deadline)
			}
		})
	}
}

func TestAvailabilityEveryOIDAdvertisedIsAvailable(t *testing.T) {
	p := newPublished(t)
	refs := p.localRefs(t) // main, v1, v1^{}, and HEAD (not an object: unchecked)
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{p.fileURL, p.httpURL}, true), refs)
	if a.Verdict != Available || len(a.Missing) != 0 || len(a.Unreachable()) != 0 {
		t.Fatalf("verdict %s, missing %v, unreachable %v", a.Verdict, a.Missing, a.Unreachable())
	}
	var names []string
	for _, r := range a.Refs {
		names = append(names, r.Ref)
		if len(r.ServedBy) == 0 {
			t.Errorf("%s served by no server", r.Ref)
		}
	}
	if want := []string{"refs/heads/main", "refs/tags/v1", "refs/tags/v1^{}"}; !reflect.DeepEqual(names, want) {
		t.Errorf("checked %v, want %v", names, want)
	}
	// Each server served everything, or was stopped once the other had.
	for _, s := range a.Servers {
		if (s.Status != ServerAnswered || len(s.Served) != 2 || len(s.Lacks) != 0) && (s.Status != ServerSkipped || s.Reason != ReasonNotNeeded) {
			t.Errorf("server %+v, want answered with main's commit and v1's tag object, or not needed", s)
		}
	}
}

func TestAvailabilityOIDOnlyInLocalCheckoutIsMissingWithThePushThatFixesIt(t *testing.T) {
	p := newPublished(t)
	p.work.git("checkout", "-q", "-b", "feature")
	local := p.work.commit("not pushed")
	p.work.git("tag", "-a", "-m", "unpushed", "v2", local)
	v2 := p.work.git("rev-parse", "v2")
	for _, servers := range [][]string{{p.httpURL, p.fileURL}, {p.fileURL}} {
		a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf(servers, true), p.localRefs(t))
		if a.Verdict != Missing {
			t.Fatalf("verdict %s, want missing", a.Verdict)
		}
		// The tag and its peeled companion are one push.
		want := []MissingRef{
			{Ref: "refs/heads/feature", OID: local, LackedBy: servers, Push: suggest.Git("push", servers[0], "refs/heads/feature")},
			{Ref: "refs/tags/v2", OID: v2, LackedBy: servers, Push: suggest.Git("push", servers[0], "refs/tags/v2")},
		}
		if !reflect.DeepEqual(a.Missing, want) {
			t.Fatalf("missing %+v\nwant %+v", a.Missing, want)
		}
		if got := a.Missing[0].Push.Line(); got != "git push "+servers[0]+" refs/heads/feature" {
			t.Errorf("push line %q", got)
		}
	}
	// Running the suggested pushes makes everything available.
	p.work.git("push", "-q", p.fileURL, "refs/heads/feature")
	p.work.git("push", "-q", p.fileURL, "refs/tags/v2")
	if a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{p.httpURL}, true), p.localRefs(t)); a.Verdict != Available {
		t.Fatalf("after the pushes: verdict %s, missing %+v", a.Verdict, a.Missing)
	}
}

func TestAvailabilityOIDAdvertisedOnlyAsPeeledTagCounts(t *testing.T) {
	work := newTestRepo(t)
	work.commit("one")
	released := work.commit("release")
	work.git("tag", "-a", "-m", "release", "v1", released)
	srv := newGitServer(t)
	srv.push(work, "refs/tags/v1") // no branch points at the release commit
	httpURL, _ := srv.serveHTTP()
	ad, err := ListRemoteRefs(ctxFor(t, 10*time.Second), httpURL)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range ad.Refs {
		if v == released && name != "refs/tags/v1^{}" {
			t.Fatalf("the release commit is advertised as %s too; the case needs it only peeled", name)
		}
	}
	state := map[string]string{"refs/heads/release": released}
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{httpURL}, true), state)
	if a.Verdict != Available || !reflect.DeepEqual(a.Refs[0].ServedBy, []string{httpURL}) {
		t.Fatalf("verdict %s, refs %+v, missing %+v", a.Verdict, a.Refs, a.Missing)
	}
}

func TestAvailabilityNoReachableServerIsUnknown(t *testing.T) {
	p := newPublished(t)
	down1, down2 := downURL(t), downURL(t)
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{down1, "nostr://npub1x/r", down2, "ftp://127.0.0.1:1/r.git"}, true), p.localRefs(t))
	if a.Verdict != Unknown || len(a.Missing) != 0 {
		t.Fatalf("verdict %s, missing %+v; want unknown and nothing called missing", a.Verdict, a.Missing)
	}
	un := a.Unreachable()
	if len(un) != 2 || un[0].URL != down1 || un[1].URL != down2 || un[0].Reason != ReasonNetwork || un[0].Detail == "" {
		t.Fatalf("unreachable %+v", un)
	}
	if len(a.Servers) != 3 || a.Servers[2].Status != ServerSkipped || a.Servers[2].Reason != ReasonUnsupported {
		t.Fatalf("servers %+v: want the nostr:// URL dropped and the ftp:// one skipped", a.Servers)
	}
	// No server at all is no evidence either.
	if a := CheckAvailability(ctxFor(t, time.Second), ServersOf(nil, true), p.localRefs(t)); a.Verdict != Unknown {
		t.Fatalf("no servers: verdict %s", a.Verdict)
	}
}

func TestAvailabilityUnreachableServerIsNotedWhenAnotherHasEverything(t *testing.T) {
	p := newPublished(t)
	down := downURL(t)
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{down, p.httpURL}, true), p.localRefs(t))
	if a.Verdict != Available {
		t.Fatalf("verdict %s, missing %+v", a.Verdict, a.Missing)
	}
	// A refused connection is said long before the other server has
	// served everything; on a machine so loaded that it is not, the
	// server is stopped as not needed, and said so.
	if s := a.Servers[0]; s.URL != down || !(s.Status == ServerUnreachable && s.Reason == ReasonNetwork && strings.HasPrefix(s.Detail, "connection refused")) &&
		!(s.Status == ServerSkipped && s.Reason == ReasonNotNeeded) {
		t.Fatalf("server %+v, want %s noted as refusing connections", s, down)
	}
	if f := a.Failure(); f != nil {
		t.Fatalf("failure %+v", f)
	}
}

func TestAvailabilityMissingIsJudgedByTheReachableServersAndPushesToTheFirst(t *testing.T) {
	p := newPublished(t)
	p.work.git("checkout", "-q", "-b", "feature")
	p.work.commit("not pushed")
	down := downURL(t)
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{down, p.httpURL}, true), p.localRefs(t))
	if a.Verdict != Missing || len(a.Missing) != 1 || !a.Missing[0].Push.Equal(suggest.Git("push", p.httpURL, "refs/heads/feature")) {
		t.Fatalf("verdict %s, missing %+v", a.Verdict, a.Missing)
	}
}

func TestAvailabilityEmptyServerIsListedSoEveryOIDIsMissing(t *testing.T) {
	p := newPublished(t)
	empty := newGitServer(t)
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{empty.fileURL()}, true), p.localRefs(t))
	if a.Verdict != Missing || len(a.Missing) != 2 {
		t.Fatalf("verdict %s, missing %+v; want main and v1 to push", a.Verdict, a.Missing)
	}
}

func TestAvailabilityWithNothingToCheckContactsNoServer(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	a := CheckAvailability(ctxFor(t, time.Second), ServersOf([]string{srv.URL + "/r.git"}, true), map[string]string{"HEAD": "ref: refs/heads/main"})
	if a.Verdict != Available || hits.Load() != 0 || len(a.Refs) != 0 {
		t.Fatalf("verdict %s, hits %d, refs %v", a.Verdict, hits.Load(), a.Refs)
	}
}

func TestAvailabilityContactsAtMostMaxServersWithinOneServerTimeout(t *testing.T) {
	var servers []string
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	for i := 0; i < MaxServers+3; i++ {
		servers = append(servers, fmt.Sprintf("%s/r%d.git", hang.URL, i))
	}
	start := time.Now()
	a := CheckAvailability(ctxFor(t, 700*time.Millisecond), ServersOf(servers, true), map[string]string{"refs/heads/main": strings.Repeat("a", 40)})
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("took %v: servers were not asked in parallel within the deadline", el)
	}
	if a.Verdict != Unknown || len(a.Servers) != MaxServers+3 {
		t.Fatalf("verdict %s, %d servers", a.Verdict, len(a.Servers))
	}
	for i, s := range a.Servers {
		want, reason := ServerUnreachable, ReasonTimeout
		if i >= MaxServers {
			want, reason = ServerSkipped, ReasonOverLimit
		}
		if s.Status != want || s.Reason != reason {
			t.Errorf("server %d: %s %s, want %s %s", i, s.Status, s.Reason, want, reason)
		}
	}
}

func TestCloneServersIsTheOrderedUnionOfCloneTags(t *testing.T) {
	anns := []*graph.Announcement{
		{Clone: []string{"https://a.example/r.git", "nostr://npub1x/r"}},
		nil,
		{Clone: []string{" https://a.example/r.git", "git://b.example/r.git"}},
	}
	want := []string{"https://a.example/r.git", "nostr://npub1x/r", "git://b.example/r.git"}
	if got := CloneServers(anns); !reflect.DeepEqual(got, want) {
		t.Fatalf("CloneServers = %v, want %v", got, want)
	}
}

// BenchmarkCheckAvailability is one check of a checkout's refs (main, an
// annotated tag and its peeled entry) against one bare repository over
// file:// and over smart HTTP (git http-backend), listed in parallel: what
// one state check adds to a write.
func BenchmarkCheckAvailability(b *testing.B) {
	work := newTestRepo(b)
	work.commit("one")
	work.git("tag", "-a", "-m", "release", "v1", work.commit("two"))
	srv := newGitServer(b)
	srv.push(work, "refs/heads/main", "refs/tags/v1")
	httpURL, _ := srv.serveHTTP()
	refs, err := work.open().LocalRefs()
	if err != nil {
		b.Fatal(err)
	}
	for _, servers := range [][]string{{srv.fileURL()}, {httpURL}, {srv.fileURL(), httpURL}} {
		name := strings.Join(strings.Fields(strings.NewReplacer(srv.fileURL(), "file", httpURL, "http").Replace(strings.Join(servers, " "))), "+")
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if a := CheckAvailability(context.Background(), ServersOf(servers, true), refs); a.Verdict != Available {
					b.Fatalf("verdict %s", a.Verdict)
				}
			}
		})
	}
}
