package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/account"
	"github.com/roster-cli/roster/signer"
)

// concurrentWhoamiTrials is how many times TestConcurrentFirstRunsNeverLoseTheKey
// starts its six real processes. The rule's 100 trials of six movers run
// in-process in settings (TestConcurrentMovesNeverLoseAFileNorFail: the same
// MoveFiles and lock, 1.4 s); here each process start costs about 0.2 s on a
// loaded machine (10 trials took 15 s), so three trials keep the package's
// time bounded while still racing real processes. ROSTER_TEST_WHOAMI_TRIALS
// runs more (100 for the full campaign).
func concurrentWhoamiTrials(t *testing.T) int {
	if v := os.Getenv("ROSTER_TEST_WHOAMI_TRIALS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("ROSTER_TEST_WHOAMI_TRIALS=%q: want a positive number", v)
		}
		return n
	}
	return 3
}

// Rule: six first runs at once (`roster whoami` after an upgrade, started
// together on a home whose login is still in the old place, ~/.cache/roster)
// never lose the encrypted key and never fail: every process exits 0 naming
// the account, and afterwards key.ncryptsec and account.json are in the
// data directory with their bytes, gone from the old place, and no
// temporary copy is left behind.
func TestConcurrentFirstRunsNeverLoseTheKey(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	// One login (its key encrypted once), copied into each trial's old home.
	_, seedHome := xdgEnv(t)
	seed := oldHome(t, seedHome, k)
	files := map[string][]byte{}
	for _, n := range []string{signer.KeyFile, signer.AccountFile, "config.yaml"} {
		b, err := os.ReadFile(filepath.Join(seed, n))
		if err != nil {
			t.Fatal(err)
		}
		files[n] = b
	}
	start, trials := time.Now(), concurrentWhoamiTrials(t)
	for trial := range trials {
		env, home := xdgEnv(t)
		old := filepath.Join(home, ".cache", "roster")
		if err := os.MkdirAll(old, 0o700); err != nil {
			t.Fatal(err)
		}
		for n, b := range files {
			if err := os.WriteFile(filepath.Join(old, n), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		const procs = 6
		var wg sync.WaitGroup
		codes := make([]int, procs)
		outs, errs := make([]string, procs), make([]string, procs)
		for i := range procs {
			cmd, stdout, stderr := clitest.RosterProcess(t, env, home, "whoami", "--json")
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = cmd.Wait()
				codes[i], outs[i], errs[i] = cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
			}()
		}
		wg.Wait()
		for i := range procs {
			var who account.WhoamiResult
			if codes[i] != 0 || json.Unmarshal([]byte(outs[i]), &who) != nil || who.Npub != k.Npub {
				t.Fatalf("trial %d: process %d exit %d out %s err %q", trial, i, codes[i], outs[i], errs[i])
			}
		}
		data := filepath.Join(home, ".local", "share", "roster")
		for _, n := range []string{signer.KeyFile, signer.AccountFile} {
			b, err := os.ReadFile(filepath.Join(data, n))
			if err != nil || string(b) != string(files[n]) {
				t.Fatalf("trial %d: %s in the data directory: %v (%d bytes, want %d)", trial, n, err, len(b), len(files[n]))
			}
			if _, err := os.Lstat(filepath.Join(old, n)); !os.IsNotExist(err) {
				t.Fatalf("trial %d: %s still in the old home (%v)", trial, n, err)
			}
		}
		for _, dir := range []string{data, filepath.Join(home, ".config", "roster")} {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".moving") {
					t.Fatalf("trial %d: a temporary copy %s was left in %s", trial, e.Name(), dir)
				}
			}
		}
	}
	t.Logf("%d trials of 6 processes in %v", trials, time.Since(start).Round(time.Millisecond))
}
