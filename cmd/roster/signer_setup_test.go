package main

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// One invocation opens its signer once: concurrent callers (one NIP-42
// challenge per relay) share it, so an ncryptsec passphrase is read once.
func TestSignerIsOpenedOncePerInvocation(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	if r := (clitest.Invocation{Env: env, Stdin: k.Nsec + "\npw\npw\n", Seams: clitest.NoKeyring}).Roster(t, "login", "--nsec"); r.Code != 0 {
		t.Fatalf("login: %d %s", r.Code, r.Err)
	}
	// Exactly one passphrase line: a second read would hit the end of stdin.
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{In: strings.NewReader("pw\n"), Out: new(strings.Builder), Err: new(strings.Builder),
		Getenv: func(key string) string { return env[key] }}, Seams: clitest.NoKeyring}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := a.Signer(context.Background())
			if err != nil {
				errs <- err
				return
			}
			evt := nostr.Event{Kind: 22242, CreatedAt: 1}
			errs <- s.SignEvent(context.Background(), &evt)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a concurrent caller failed: %v", err)
		}
	}
}
