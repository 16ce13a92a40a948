package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkStartupRepoOfflineVersusGitRevParse is docs/PERFORMANCE.md
// "Start-up" as a benchmark: the real binary (built once, as `make build`
// builds it) runs a warm `roster repo --offline --json` in a checkout whose
// git config nostr.repo selects the demo repository, alternately with
// `git rev-parse HEAD` in the same checkout, each as a separate process. It
// reports both medians (wall and CPU: user + system time, which load from
// other processes inflates far less than wall time) and their ratios, the
// goal being 3× or better. The cache is filled once from a `roster dev
// relay --seed demo` on loopback; the timed runs contact no relay.
//
//	go test -run '^$' -bench StartupRepoOffline -benchtime 50x ./cmd/roster
func BenchmarkStartupRepoOfflineVersusGitRevParse(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "roster")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as `make build` builds it
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(os.Environ(), "ROSTER_HOME="+filepath.Join(dir, "home"), "ROSTER_RELAYS=", "ROSTER_SECRET_KEY=")
	relay := exec.Command(bin, "dev", "relay", "--addr", "127.0.0.1:0", "--seed", "demo", "--json")
	relay.Env = env
	stdout, err := relay.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := relay.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = relay.Process.Kill(); _ = relay.Wait() }()
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		b.Fatalf("dev relay printed no banner: %v", err)
	}
	var banner struct{ URL, Naddr string }
	if err := json.Unmarshal(line, &banner); err != nil || banner.URL == "" || banner.Naddr == "" {
		b.Fatalf("dev relay banner %q: %v", line, err)
	}
	co := filepath.Join(dir, "co")
	run := func(name string, args ...string) *os.ProcessState {
		b.Helper()
		c := exec.Command(name, args...)
		c.Dir, c.Env = co, env
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return c.ProcessState
	}
	if err := os.Mkdir(co, 0o755); err != nil {
		b.Fatal(err)
	}
	run("git", "init", "-q")
	run("git", "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "--allow-empty", "-m", "root")
	run("git", "config", "nostr.repo", banner.Naddr)
	run(bin, "repo", "--relay", banner.URL, "--json") // fills the cache
	_ = relay.Process.Kill()
	_ = relay.Wait()
	run(bin, "repo", "--offline", "--json") // must answer from the cache alone

	var rosterWall, gitWall, rosterCPU, gitCPU []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		st := run(bin, "repo", "--offline", "--json")
		t1 := time.Now()
		gt := run("git", "rev-parse", "HEAD")
		t2 := time.Now()
		rosterWall, gitWall = append(rosterWall, t1.Sub(t0)), append(gitWall, t2.Sub(t1))
		rosterCPU, gitCPU = append(rosterCPU, st.UserTime()+st.SystemTime()), append(gitCPU, gt.UserTime()+gt.SystemTime())
	}
	b.StopTimer()
	median := func(d []time.Duration) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[len(s)/2]) / float64(time.Millisecond)
	}
	rw, gw, rc, gc := median(rosterWall), median(gitWall), median(rosterCPU), median(gitCPU)
	b.ReportMetric(rw, "roster-ms")
	b.ReportMetric(gw, "git-ms")
	b.ReportMetric(rw/gw, "wall-ratio")
	if gc > 0 {
		b.ReportMetric(rc, "roster-cpu-ms")
		b.ReportMetric(gc, "git-cpu-ms")
		b.ReportMetric(rc/gc, "cpu-ratio")
	}
}
