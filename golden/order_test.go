package golden

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestGoldenScenariosIgnoreEventOrder: every scenario resolves to the same
// summary whatever order its signed events arrive in.
func TestGoldenScenariosIgnoreEventOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for file, s := range loadScenarios(t) {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			events, err := s.Build()
			if err != nil {
				t.Fatal(err)
			}
			want, err := s.Summarize(s.Run(events))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 10; i++ {
				perm := append([]*nostr.Event{}, events...)
				rng.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
				got, err := s.Summarize(s.Run(perm))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("event order changed the resolution:\n%s\nvs\n%s", want, got)
				}
			}
		})
	}
}
