package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Rule: moves made at once by several processes (the first commands after
// an upgrade, run in parallel) never lose a file and never fail: in each of
// 100 trials six movers start together on the same old place; afterwards
// the key and the account are in the new place with their bytes, none is
// left in the old one, no temporary copy is left behind, and every mover
// returned without an error, the files in the place it would use.
func TestConcurrentMovesNeverLoseAFileNorFail(t *testing.T) {
	const trials, movers = 100, 6
	for trial := range trials {
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			t.Parallel()
			concurrentMoveTrial(t, trial, movers)
		})
	}
}

func concurrentMoveTrial(t *testing.T, trial, movers int) {
	base := t.TempDir()
	from, to := filepath.Join(base, "old"), filepath.Join(base, "new", "roster")
	writeFiles(t, from, map[string]string{"key.ncryptsec": "ncryptsec1key\n", "bunker-client.ncryptsec": "ncryptsec1bunker\n", "account.json": "{\"a\":1}\n"})
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, movers)
	moved := make([]Move, movers)
	for i := range movers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			moved[i], errs[i] = MoveFiles(from, to, keyFiles)
		}()
	}
	close(start)
	wg.Wait()
	movedBy := 0
	for i, err := range errs {
		if err != nil {
			t.Fatalf("trial %d: mover %d failed: %v", trial, i, err)
		}
		if len(moved[i].Kept)+len(moved[i].Leftover) > 0 {
			t.Fatalf("trial %d: mover %d kept or left files: %+v", trial, i, moved[i])
		}
		if len(moved[i].Moved) > 0 {
			movedBy++
		}
	}
	if movedBy == 0 {
		t.Fatalf("trial %d: nobody moved the files", trial)
	}
	wantFile(t, filepath.Join(to, "key.ncryptsec"), "ncryptsec1key\n")
	wantFile(t, filepath.Join(to, "bunker-client.ncryptsec"), "ncryptsec1bunker\n")
	wantFile(t, filepath.Join(to, "account.json"), "{\"a\":1}\n")
	for _, n := range keyFiles {
		wantNoFile(t, filepath.Join(from, n))
	}
	entries, err := os.ReadDir(to)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".moving") {
			t.Fatalf("trial %d: a temporary copy %s was left in %s", trial, e.Name(), to)
		}
	}
}
