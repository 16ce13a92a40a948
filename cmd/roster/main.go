// Command roster maintains Git repositories announced on Nostr and works with
// relay-authoritative workspaces. See README.md and docs/.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], newSystemIO()))
}
