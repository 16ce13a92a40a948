// Command roster maintains Git repositories announced on Nostr and works with
// relay-authoritative workspaces. See README.md and docs/.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(runMain(Seams{})) }

// runMain runs the command line of this process. One signal-aware root
// context: an interrupt (SIGINT, SIGTERM) cancels relay waits and the
// command returns through its ordinary error path.
func runMain(sm Seams) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return RunContext(ctx, os.Args[1:], NewSystemIO(), sm)
}
