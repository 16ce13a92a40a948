// Command roster maintains Git repositories announced on Nostr and works with
// relay-authoritative workspaces. See README.md and docs/.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	"github.com/roster-cli/roster/internal/cli/root"
)

func main() { os.Exit(runMain(cmdutil.Seams{})) }

// runMain runs the command line of this process. One signal-aware root
// context: an interrupt (SIGINT, SIGTERM) cancels relay waits and the
// command returns through its ordinary error path.
func runMain(sm cmdutil.Seams) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return root.RunContext(ctx, commands.All, os.Args[1:], cmdutil.NewSystemIO(), sm)
}
