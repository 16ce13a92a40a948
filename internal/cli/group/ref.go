// How a group named on the command line becomes its id and the relays to ask.

package group

import (
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
)

// groupRefHelp is the one paragraph every group command's help shows.
const groupRefHelp = `A group is named by its id (asked of --relay, ROSTER_RELAYS or config.yaml
relays), as <relay>'<group-id> (a host such as groups.example means
wss://groups.example, a loopback host ws://; a full ws:// or wss:// URL works too), or as the naddr1...
of its kind 39000, optionally followed by ?invite=<code>. A reference that
names a relay is asked of that relay alone: the same id elsewhere is another
group (a fork).`

// groupTarget parses the group argument and returns it with the relays to
// ask for it (verb names the command for the no-relays hint).
func groupTarget(a *cmdutil.Factory, arg, verb string) (groups.Ref, []string, error) {
	ref, err := groups.ParseRef(arg)
	if err != nil {
		return ref, nil, cmdutil.UsageErr("%v", err)
	}
	relays := a.DefaultRelays()
	if ref.Relay != "" {
		relays = []string{ref.Relay}
	}
	relays = relaypool.NormalizeRelays(relays)
	if len(relays) == 0 {
		return ref, nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-relays",
			Err:      fmt.Errorf("no relay to ask for group %s: a group lives on a relay; pass --relay, set ROSTER_RELAYS or name it as <relay>'%s", ref.ID, ref.ID),
			Commands: []suggest.Command{suggest.Roster("group", verb, ref.ID).With("--relay", "wss://<relay>")}}
	}
	return ref, relays, nil
}

// groupSelfWarning warns when an naddr's author, which NIP-29 makes the
// hosting relay's self key, is not the key the relay signs with: the naddr
// may be stale (the group moved) or point at another relay's group.
func groupSelfWarning(a *cmdutil.Factory, ref groups.Ref, reads ...groups.RelayRead) {
	if ref.Self == "" {
		return
	}
	for _, r := range reads {
		if r.Self != "" && r.Self != ref.Self {
			fmt.Fprintf(a.Io.Err, "roster: warning: the naddr names relay key %s, but %s signs as %s; shown is what %s signed\n",
				ref.Self, termtext.Line(r.URL), r.Self, termtext.Line(r.URL))
		}
	}
}
