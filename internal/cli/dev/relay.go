package dev

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/reference"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
)

// NewDevCmd is `roster dev`: tools for trying roster without the internet.
func NewDevCmd(a *cmdutil.Factory) *cobra.Command {
	dev := &cobra.Command{
		Use:   "dev",
		Short: "Development tools: a local relay to try roster offline",
		Example: `  roster dev relay --seed demo                  # a local relay with a demo repository
  roster dev relay --addr 127.0.0.1:0 --json    # a free port, machine-readable`,
	}
	dev.AddCommand(NewCmdRelay(a, nil))
	return dev
}

// RelayOptions are `roster dev relay` as its flags gave it.
type RelayOptions struct {
	Factory     *cmdutil.Factory
	Addr        string
	Seed        string // "" or "demo"
	RequireAuth bool
}

// NewCmdRelay builds dev relay; runF, when given, runs instead of the relay
// with the parsed options (tests).
func NewCmdRelay(a *cmdutil.Factory, runF func(context.Context, *RelayOptions) error) *cobra.Command {
	f := &RelayOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "relay",
		Short: "Run a local Nostr relay (optionally seeded with a demo repository)",
		Long: `Run a local Nostr relay until interrupted (Ctrl-C or SIGTERM).

It supports NIP-01 (addressable replacement, lowest id wins ties), NIP-09
deletions, NIP-11 with the relay's own pubkey in "self", optional NIP-42
authentication, and the reference relay-side authorities of NIP-SW
workspaces, NIP-PC projects and NIP-29 groups. With --seed demo it publishes a realistic repository: a lead,
a confirmed co-maintainer, a pending invitation, a removed maintainer, a
moderator and a state event, its Git objects in a local bare repository
(main, release-1.x, a tag) the announcements advertise, an issue with a
status by the lead and one by the removed maintainer (check-event's two
verdicts); and the lead's NIP-29 group (with an admin),
her NIP-PC project with that group as home channel, and her NIP-SW
workspace (two sections, one grant). The demo keys are public: never reuse them.

As soon as it listens it prints its URL, the demo's naddrs and try: lines
(the clone of the demo's Git server linked to the repository, and each tour
command that can run against the demo) on stdout; with --json it prints one
line:
{"schema":"roster.dev-relay/v1","url":...,"self":...,"naddr":...,"project_naddr":...,"group_id":...}.`,
		Example: `  roster dev relay --seed demo
  roster repo --repo <naddr printed above> --relay ws://127.0.0.1:7777
  roster dev relay --addr 127.0.0.1:0 --json   # a free port, machine-readable`,
		Args: cobra.NoArgs,
		// The root context ends on SIGINT and SIGTERM (main).
		RunE: func(cmd *cobra.Command, _ []string) error { return runDevRelay(cmd.Context(), a, f, runF) },
	}
	cmd.Flags().StringVar(&f.Addr, "addr", devRelayDefaultAddr, "address to listen on (port 0 picks a free port)")
	cmd.Flags().StringVar(&f.Seed, "seed", "", `publish sample data: "demo"`)
	cmd.Flags().BoolVar(&f.RequireAuth, "require-auth", false, "refuse REQ and EVENT from clients that have not authenticated (NIP-42)")
	cmdutil.AddFlags(cmd, &a.Opts, cmdutil.OutputFlags)
	return cmd
}

// devRelayDefaultAddr is where the dev relay listens without --addr.
const devRelayDefaultAddr = "127.0.0.1:7777"

// DevRelayAuthorities are the reference relay-side authorities the dev relay
// runs, so workspace, project and group commands can be tried against it:
// devrelay/reference wires them (the NIP-29 groups are the NIP-SW channel
// table that imports and moves are checked against, and NIP-PC's home
// channels; NIP-SW claims kind 30623, NIP-PC leaves it).
func DevRelayAuthorities() []devrelay.Authority { return reference.Authorities() }

// again is the dev relay f asks for, with seed and the address addr: the
// way out of a refusal keeps the other flags the user gave (an --addr
// other than the default, whose port may be taken; --require-auth).
func (f *RelayOptions) again(seed, addr string) suggest.Command {
	c := suggest.Roster("dev", "relay")
	if seed != "" {
		c = c.With("--seed", seed)
	}
	if addr != devRelayDefaultAddr {
		c = c.With("--addr", addr)
	}
	if f.RequireAuth {
		c = c.With("--require-auth")
	}
	return c
}

func runDevRelay(ctx context.Context, a *cmdutil.Factory, f *RelayOptions, runF func(context.Context, *RelayOptions) error) error {
	if f.Seed != "" && f.Seed != "demo" {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: fmt.Errorf("unknown seed %q: the only seed is \"demo\"", f.Seed),
			Commands: []suggest.Command{f.again("demo", f.Addr)}}
	}
	if runF != nil {
		return runF(ctx, f)
	}
	r, err := devrelay.New(devrelay.Options{Addr: f.Addr, RequireAuth: f.RequireAuth, Authorities: DevRelayAuthorities()})
	if err != nil {
		return err
	}
	if err := r.Start(); err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: "listen", Err: err,
			Commands: []suggest.Command{f.again(f.Seed, "127.0.0.1:0").Because("any free port")}}
	}
	defer r.Close()
	started := report.DevRelay{Schema: "roster.dev-relay/v1", URL: r.URL(), Self: r.Self()}
	var demo devrelay.DemoInfo
	if f.Seed == "demo" {
		var cleanup func()
		if demo, cleanup, err = SeedDemo(r, a.Io.Now(), func(msg string) { fmt.Fprintf(a.Io.Err, "roster dev relay: %s\n", msg) }); err != nil {
			return err
		}
		defer cleanup()
		started.Naddr, started.Coordinate = demo.Naddr, demo.Coordinate.ATag()
		for _, p := range demo.People {
			started.People = append(started.People, report.DevRelayPerson{Name: p.Name, Role: p.Role, Pubkey: p.Pubkey, Npub: p.Npub})
		}
		started.WorkspaceOwner, started.ProjectNaddr, started.ProjectCoordinate, started.GroupID =
			demo.Workspace.Owner, demo.Project.Naddr, demo.Project.Coordinate, demo.Group.ID
		started.CloneURL, started.StatusByMaintainer, started.StatusByRemoved = demo.CloneURL, demo.Issue.ByMaintainer, demo.Issue.ByRemoved
		started.Try = DemoTryLines(started, demo)
	}
	if a.Opts.JSON {
		if err := a.EmitJSON(started, false); err != nil {
			return err
		}
	} else {
		printDevRelay(a, started, demo)
	}
	<-ctx.Done()
	if !a.Opts.JSON {
		fmt.Fprintln(a.Io.Err, "roster dev relay: stopped")
	}
	return nil
}

func printDevRelay(a *cmdutil.Factory, s report.DevRelay, demo devrelay.DemoInfo) {
	out := a.Io.Out
	fmt.Fprintf(out, "relay listening on %s\n", s.URL)
	fmt.Fprintf(out, "relay pubkey (NIP-11 self): %s\n", s.Self)
	if s.Naddr != "" {
		fmt.Fprintf(out, "demo repository %s\n", demo.NostrURL)
		fmt.Fprintf(out, "  naddr: %s\n", s.Naddr)
		for _, p := range demo.People {
			fmt.Fprintf(out, "  %-6s %-14s %s\n", p.Name, p.Role, p.Npub)
		}
		fmt.Fprintln(out, "  (demo keys are public: sha256(\"roster-demo-<name>\"), e.g. to act as carol:")
		fmt.Fprintln(out, "   ROSTER_SECRET_KEY=$(printf roster-demo-carol | sha256sum | cut -c1-64) roster ...)")
		fmt.Fprintf(out, "demo workspace of alice: sections %s, granted %s\n", strings.Join(demo.Workspace.Sections, ", "), strings.Join(demo.Workspace.Grants, ", "))
		fmt.Fprintf(out, "demo project %s (home channel %s)\n", s.ProjectCoordinate, demo.Project.HomeChannel)
		fmt.Fprintf(out, "demo group %s: %s\n", s.GroupID, strings.Join(demo.Group.Admins, ", "))
		for _, l := range s.Try {
			fmt.Fprintf(out, "try: %s\n", l)
		}
	}
	fmt.Fprintln(out, "press Ctrl-C to stop")
}

// SeedDemo seeds r with the demo, its Git objects in a bare repository made
// for it (gitstate.DemoRepository) and served over smart HTTP on loopback
// (gitstate.ServeSmartHTTP), as a forge serves a clone URL, so that a
// previewed change checks every object the demo's state names the way it
// does a user's, and the demo's clone is an ordinary `git clone` of an
// http:// URL. Without git http-backend the repository is advertised over
// file:// (warn says so); without the git command the demo advertises no
// reachable server, and warn says that changes will then stop at the
// object check. cleanup stops the server and removes the repository.
func SeedDemo(r *devrelay.Relay, now time.Time, warn func(string)) (devrelay.DemoInfo, func(), error) {
	dir, err := os.MkdirTemp("", "roster-demo-git-")
	if err != nil {
		return devrelay.DemoInfo{}, func() {}, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	url, refs, err := gitstate.DemoRepository(dir)
	if err != nil {
		warn(fmt.Sprintf("%v; the demo's Git objects are on no reachable server, so previewed changes stop at the object check", err))
		demo, err := devrelay.SeedDemo(r, now)
		return demo, cleanup, err
	}
	if httpURL, stop, err := gitstate.ServeSmartHTTP(strings.TrimPrefix(url, "file://")); err != nil {
		warn(fmt.Sprintf("%v; the demo's Git repository is advertised over file:// instead", err))
	} else {
		url, cleanup = httpURL, func() { stop(); os.RemoveAll(dir) }
	}
	demo, err := devrelay.SeedDemoWith(r, now, devrelay.DemoGit{CloneURL: url, Refs: refs})
	return demo, cleanup, err
}
