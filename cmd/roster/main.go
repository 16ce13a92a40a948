// Command roster maintains Git repositories announced on Nostr and works with
// relay-authoritative workspaces. See README.md and docs/.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// One signal-aware root context: an interrupt cancels relay waits and
	// the command returns through its ordinary error path.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runContext(ctx, os.Args[1:], newSystemIO(), seams{})
	stop()
	os.Exit(code)
}
