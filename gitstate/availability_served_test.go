package gitstate

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A commit in the history of a server's branch is fetchable by id: a
// state naming main at c2 passes when the server's main moved on to c3.
func TestAvailabilityCommitBehindAMovedBranchIsServed(t *testing.T) {
	p := newPublished(t)
	c2 := p.main
	p.work.commit("three")
	p.server.push(p.work, "refs/heads/main") // the server's main is now c3
	daemon := p.server.serveGitDaemon()
	for _, u := range []string{p.fileURL, p.httpURL, daemon} {
		a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{u}, true), map[string]string{"refs/heads/main": c2})
		if a.Verdict != Available || len(a.Refs) != 1 || !slices.Equal(a.Refs[0].ServedBy, []string{u}) {
			t.Errorf("%s: verdict %s, refs %+v, servers %+v; want c2 served", u, a.Verdict, a.Refs, a.Servers)
		}
	}
}

// liar wraps a smart-HTTP server so that it speaks protocol v0 only (it
// serves by id nothing it does not advertise) and, when ghost is set,
// advertises refs/heads/ghost at an OID it does not have.
func liar(t *testing.T, s *gitServer, ghost string) string {
	t.Helper()
	_, real := s.serveHTTP()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := http.NewRequestWithContext(r.Context(), r.Method, real.URL+r.URL.RequestURI(), r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.ContentLength = r.ContentLength
		for k, v := range r.Header {
			if !strings.EqualFold(k, "Git-Protocol") {
				req.Header[k] = v
			}
		}
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		var body bytes.Buffer
		_, _ = body.ReadFrom(res.Body)
		b := body.Bytes()
		if ghost != "" && strings.HasSuffix(r.URL.Path, "/info/refs") && bytes.HasSuffix(b, []byte("0000")) {
			line := ghost + " refs/heads/ghost\n"
			b = append(append(slices.Clone(b[:len(b)-4]), fmt.Sprintf("%04x%s", 4+len(line), line)...), "0000"...)
		}
		for k, v := range res.Header {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(res.StatusCode)
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/" + s.name
}

// An advertisement is no evidence: a server that advertises an OID it does
// not have is named as lacking it, and the state is missing.
func TestAvailabilityServerAdvertisingAnOIDItLacksDoesNotServeIt(t *testing.T) {
	p := newPublished(t)
	ghost := strings.Repeat("ab", 20)
	u := liar(t, p.server, ghost)
	ad, err := ListRemoteRefs(ctxFor(t, 10*time.Second), u)
	if err != nil || ad.Refs["refs/heads/ghost"] != ghost {
		t.Fatalf("the case needs the ghost advertised: %v %v", ad.Refs, err)
	}
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{u}, true), map[string]string{"refs/heads/main": p.main, "refs/heads/ghost": ghost})
	if a.Verdict != Missing || len(a.Missing) != 1 || a.Missing[0].OID != ghost || !slices.Equal(a.Missing[0].LackedBy, []string{u}) {
		t.Fatalf("verdict %s, missing %+v, servers %+v", a.Verdict, a.Missing, a.Servers)
	}
	if s := a.Servers[0]; s.Status != ServerAnswered || !slices.Equal(s.Served, []string{p.main}) || !slices.Equal(s.Lacks, []string{ghost}) {
		t.Fatalf("server %+v: want main served and the ghost lacked", s)
	}
	f := a.Failure()
	if f == nil || !strings.Contains(strings.Join(f.Lines, "\n"), "refs/heads/ghost at "+ghost+": "+u+" does not serve it") {
		t.Fatalf("failure %+v: want the line naming the server that lacks the ghost", f)
	}
}

// A server that serves by id only what it advertises (protocol v0) still
// counts a commit behind its branch: its advertised branches are fetched
// and the commit is found in what arrived.
func TestAvailabilityAdvertisedOnlyServerCountsHistoryItDelivered(t *testing.T) {
	p := newPublished(t)
	c2 := p.main
	p.work.commit("three")
	p.server.push(p.work, "refs/heads/main")
	u := liar(t, p.server, "")
	unknown := strings.Repeat("cd", 20)
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{u}, true), map[string]string{"refs/heads/main": c2, "refs/heads/gone": unknown})
	if a.Verdict != Missing || len(a.Missing) != 1 || a.Missing[0].OID != unknown {
		t.Fatalf("verdict %s, missing %+v, servers %+v; want c2 served and only the unknown OID missing", a.Verdict, a.Missing, a.Servers)
	}
	if !slices.Equal(a.Servers[0].Served, []string{c2}) {
		t.Fatalf("server %+v", a.Servers[0])
	}
}

// Another maintainer's file:// URL or path names the reader's own disk: it
// is shown but never asked, so objects only there are not available.
func TestAvailabilityAnotherAuthorsLocalURLIsNeverEvidence(t *testing.T) {
	p := newPublished(t)
	for _, u := range []string{p.fileURL, p.server.dir()} {
		a := CheckAvailability(ctxFor(t, 10*time.Second), ServersOf([]string{u}, false), p.localRefs(t))
		if a.Verdict == Available || len(a.Servers) != 1 || a.Servers[0].Status != ServerSkipped || a.Servers[0].Reason != ReasonLocalURL {
			t.Fatalf("%s: verdict %s, servers %+v; want it skipped as a local URL", u, a.Verdict, a.Servers)
		}
		f := a.Failure()
		if f == nil || f.Code != ObjectsUnavailable || f.Evidence || !strings.Contains(strings.Join(f.Lines, "\n"), p.fileURL) {
			t.Fatalf("%s: failure %+v; want objects-unavailable naming the URL", u, f)
		}
	}
	// The author's own path counts, as the file:// URL it normalizes to.
	a := CheckAvailability(ctxFor(t, 10*time.Second), []Server{{URL: p.server.dir(), Own: true}}, p.localRefs(t))
	if a.Verdict != Available || a.Servers[0].URL != p.fileURL || a.Servers[0].Announced != p.server.dir() {
		t.Fatalf("own path: verdict %s, servers %+v", a.Verdict, a.Servers)
	}
}

// A hanging server costs nothing beside one that serves everything, and
// alone it costs the caller's budget, not a fixed per-server wait.
func TestAvailabilityHangingServerIsBoundByTheCallersBudget(t *testing.T) {
	p := newPublished(t)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	slow := hang.URL + "/r.git"
	start := time.Now()
	a := CheckAvailability(ctxFor(t, 30*time.Second), ServersOf([]string{slow, p.httpURL}, true), p.localRefs(t))
	if el := time.Since(start); a.Verdict != Available || el > 15*time.Second {
		t.Fatalf("verdict %s after %v, servers %+v", a.Verdict, el, a.Servers)
	}
	if s := a.Servers[0]; s.Status != ServerSkipped || s.Reason != ReasonNotNeeded {
		t.Fatalf("hanging server %+v: want not needed", s)
	}
	const budget = 800 * time.Millisecond
	start = time.Now()
	a = CheckAvailability(ctxFor(t, budget), ServersOf([]string{slow}, true), p.localRefs(t))
	if el := time.Since(start); el > budget+2*time.Second {
		t.Fatalf("took %v with a budget of %v", el, budget)
	}
	if a.Verdict != Unknown || a.Servers[0].Reason != ReasonTimeout {
		t.Fatalf("verdict %s, servers %+v", a.Verdict, a.Servers)
	}
}

// What a server sends into the quarantine is bounded.
func TestAvailabilityFetchIsBoundedInSize(t *testing.T) {
	defer func(c int64) { fetchCap = c }(fetchCap)
	fetchCap = 4 << 10
	w := newTestRepo(t)
	big := make([]byte, 256<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(filepath.Join(w.dir, "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	w.git("add", "big.bin")
	oid := w.commit("big")
	s := newGitServer(t)
	s.push(w, "refs/heads/main")
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{s.fileURL()}, true), map[string]string{"refs/heads/main": oid})
	if a.Verdict != Unknown || a.Servers[0].Status != ServerUnreachable || !strings.Contains(a.Servers[0].Detail, "more than 4096 bytes") {
		t.Fatalf("verdict %s, servers %+v; want the server stopped past the byte bound", a.Verdict, a.Servers)
	}
}

// sshScript is a GIT_SSH_COMMAND that records its arguments and fails
// the way ssh does, with message on stderr and exit 255.
func sshScript(t *testing.T, message string) (cmd, argsFile string) {
	t.Helper()
	dir := t.TempDir()
	argsFile = filepath.Join(dir, "args")
	script := filepath.Join(dir, "fake-ssh")
	body := fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$@\" > %s\necho %s >&2\nexit 255\n", shellQuote(argsFile), shellQuote(message))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, argsFile
}

// ssh:// (and scp-like) servers are asked with the git command and the
// user's GIT_SSH_COMMAND, in BatchMode; a server that cannot be reached is
// named with the cause in plain words.
func TestAvailabilityOverSSHNamesTheServerAndTheCause(t *testing.T) {
	p := newPublished(t)
	refs := map[string]string{"refs/heads/main": p.main}
	cases := []struct {
		message, words string
		reason         Reason
	}{
		{"git@127.0.0.1: Permission denied (publickey).", "permission denied (publickey)", ReasonAuth},
		{"ssh: Could not resolve hostname git.invalid: Name or service not known", "host unknown", ReasonNetwork},
		{"Host key verification failed.", "host key unknown", ReasonAuth},
	}
	for _, c := range cases {
		cmd, argsFile := sshScript(t, c.message)
		t.Setenv("GIT_SSH_COMMAND", cmd)
		a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{"git@127.0.0.1:o/r.git"}, false), refs)
		s := a.Servers[0]
		if a.Verdict != Unknown || s.URL != "ssh://git@127.0.0.1/o/r.git" || s.Announced != "git@127.0.0.1:o/r.git" || s.Status != ServerUnreachable || s.Reason != c.reason || !strings.HasPrefix(s.Detail, c.words) {
			t.Errorf("%q: verdict %s, server %+v; want unreachable, %s, %q", c.message, a.Verdict, s, c.reason, c.words)
		}
		f := a.Failure()
		if f == nil || !f.Evidence || !strings.Contains(strings.Join(f.Lines, "\n"), "ssh://git@127.0.0.1/o/r.git (announced as git@127.0.0.1:o/r.git) unreachable: "+c.words) {
			t.Errorf("%q: failure %+v", c.message, f)
		}
		args, err := os.ReadFile(argsFile)
		if err != nil || !strings.Contains(string(args), "BatchMode=yes") || !strings.Contains(string(args), "git@127.0.0.1") {
			t.Errorf("ssh was run with %q (%v); want -o BatchMode=yes and the server", args, err)
		}
	}
}

// The real ssh client against a loopback port nothing listens on: the
// connection is refused, said so.
func TestAvailabilityOverSSHConnectionRefused(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Fatalf("this test needs the ssh client: %v", err)
	}
	// Port 1: nothing listens there, and no listener asking for a free
	// port is given it (a port just closed can be another test's next).
	port := 1
	t.Setenv("GIT_SSH_COMMAND", "ssh -F /dev/null -o UserKnownHostsFile=/dev/null")
	u := fmt.Sprintf("ssh://git@127.0.0.1:%d/o/r.git", port)
	a := CheckAvailability(ctxFor(t, 20*time.Second), ServersOf([]string{u}, false), map[string]string{"refs/heads/main": strings.Repeat("a", 40)})
	if s := a.Servers[0]; a.Verdict != Unknown || s.Status != ServerUnreachable || s.Reason != ReasonNetwork || !strings.HasPrefix(s.Detail, "connection refused") {
		t.Fatalf("verdict %s, server %+v", a.Verdict, s)
	}
}
