package change_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// gateCase is one refusal of a membership write gate (maintainers.md's
// preflight refusals, docs/membership.md "Refusals"), end to end: exit 3,
// the message, the --json error object (code, message, details, commands)
// and, through mutWorld.refused, that no relay stored anything new.
type gateCase struct {
	name     string
	setup    func(t *testing.T) *clitest.MutWorld
	who, sel clitest.Person
	now      int64
	args     []string
	code     string
	message  []string       // substrings of error.message
	details  map[string]any // error.details entries (compared as fmt %v)
	commands []string       // entries error.commands must contain
}

// leadlessThree: Alice, Bob and Carol leadless; Bob also assigns Carol.
func leadlessThree(t *testing.T) *clitest.MutWorld {
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	w.Ok(clitest.Alice, clitest.Alice, 2100, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer")
	w.Ok(clitest.Bob, clitest.Alice, 2200, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer")
	w.Ok(clitest.Carol, clitest.Alice, 2300, "repo", "accept")
	return w
}

// coMaintainerAssigns: Bob (co-maintainer of lead Alice) actively assigns
// Carol, who acknowledged Bob, written by another client.
func coMaintainerAssigns(t *testing.T) *clitest.MutWorld {
	w := clitest.TwoMaintainers(t)
	w.Seed(
		clitest.Bob.Announce(t, w.Id, 2500, clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("m", clitest.Carol, "2500"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol)),
		clitest.Carol.Announce(t, w.Id, 2600, clitest.Role("M", clitest.Bob, "2600"), clitest.Role("m", clitest.Carol, "2600"), clitest.MaintainersTag(clitest.Bob, clitest.Carol)),
	)
	return w
}

func seeded(events func(t *testing.T, id string) []*nostr.Event) func(t *testing.T) *clitest.MutWorld {
	return func(t *testing.T) *clitest.MutWorld {
		w := clitest.NewMutWorld(t, 1)
		w.Seed(events(t, w.Id)...)
		return w
	}
}

func TestEveryGateRefusalEndToEnd(t *testing.T) {
	t.Parallel()
	cases := []gateCase{
		{name: "governance choice in a legacy-inferred view", who: clitest.Alice, sel: clitest.Alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{clitest.Alice.Announce(t, id, 100, clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol)),
					clitest.Bob.Announce(t, id, 110, clitest.MaintainersTag(clitest.Bob, clitest.Alice)), clitest.Carol.Announce(t, id, 120, clitest.MaintainersTag(clitest.Carol, clitest.Alice))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", clitest.Dave.Npub()}, code: "governance-choice-required",
			message: []string{"a lead maintainer must be assigned for this membership change", "choose one with: --lead-maintainer <npub>",
				"or keep the repository leadless with: --no-lead-maintainer", "the legacy maintainer listings infer " + clitest.Alice.Npub() + " as lead"},
			details: map[string]any{"lead_source": "legacy_inferred", "legacy_inferred_lead": clitest.Alice.Npub()},
			commands: []string{"roster repo edit --add-maintainer " + clitest.Dave.Npub() + " --lead-maintainer " + clitest.Alice.Npub(),
				"roster repo edit --add-maintainer " + clitest.Dave.Npub() + " --no-lead-maintainer"}},
		{name: "governance choice in an explicitly leadless view", setup: leadlessThree, who: clitest.Bob, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--remove-maintainer", clitest.Carol.Npub()}, code: "governance-choice-required",
			message: []string{"a lead maintainer must be assigned for this membership change"},
			details: map[string]any{"lead_source": "explicit_none"},
			commands: []string{"roster repo edit --remove-maintainer " + clitest.Carol.Npub() + " --lead-maintainer " + clitest.Bob.Npub() + "  # you become lead",
				"roster repo edit --remove-maintainer " + clitest.Carol.Npub() + " --no-lead-maintainer"}},
		{name: "only the resolved lead adds", setup: clitest.TwoMaintainers, who: clitest.Bob, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", clitest.Carol.Npub()}, code: "only-lead-manages-roster",
			message:  []string{"only the resolved lead should add maintainers to this repository", "ask " + clitest.Alice.Npub() + " to run:"},
			details:  map[string]any{"lead": clitest.Alice.Npub()},
			commands: []string{"roster repo edit --add-maintainer " + clitest.Carol.Npub() + "  # run by " + clitest.Alice.Npub()}},
		{name: "only the resolved lead removes", setup: clitest.TwoMaintainers, who: clitest.Bob, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--remove-maintainer", clitest.Alice.Npub()}, code: "only-lead-manages-roster",
			message:  []string{"only the resolved lead should remove maintainers from this repository"},
			commands: []string{"roster repo edit --remove-maintainer " + clitest.Alice.Npub() + "  # run by " + clitest.Alice.Npub()}},
		{name: "no-lead cannot remove an existing lead", setup: clitest.TwoMaintainers, who: clitest.Alice, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer"}, code: "lead-exists",
			message:  []string{"--no-lead-maintainer cannot remove an existing lead", "rerun without --no-lead-maintainer to keep the lead:"},
			details:  map[string]any{"lead": clitest.Alice.Npub()},
			commands: []string{"roster repo edit --add-maintainer " + clitest.Carol.Npub()}},
		{name: "a lead change and a roster change are separate decisions", setup: clitest.TwoMaintainers, who: clitest.Alice, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--lead-maintainer", clitest.Bob.Npub()}, code: "one-decision-per-command",
			message:  []string{"changing the lead and changing the roster are separate decisions"},
			commands: []string{"roster repo edit --add-maintainer " + clitest.Carol.Npub(), "roster repo edit --lead-maintainer " + clitest.Bob.Npub()}},
		{name: "an outsider in a leadless repository", setup: leadlessThree, who: clitest.Dave, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", clitest.Erin.Npub(), "--no-lead-maintainer"}, code: "not-a-maintainer",
			message: []string{"you (" + clitest.Dave.Npub() + ") are not a confirmed maintainer of this repository"},
			details: map[string]any{"you": clitest.Dave.Npub()}},
		{name: "a conflicting lead path blocks", who: clitest.Alice, sel: clitest.Alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{clitest.Alice.Announce(t, id, 100, clitest.Role("M", clitest.Bob, "100"), clitest.Role("m", clitest.Alice, "100"), clitest.Projection(clitest.Alice, clitest.Bob)),
					clitest.Bob.Announce(t, id, 110, clitest.Role("M", clitest.Alice, "110"), clitest.Role("m", clitest.Bob, "110"), clitest.Projection(clitest.Alice, clitest.Bob))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer"}, code: "lead-path-unresolved",
			message:  []string{"the lead path from the selected coordinate is conflict", "--no-lead-maintainer does not override it"},
			details:  map[string]any{"lead_source": "conflict"},
			commands: []string{"roster repo"}},
		{name: "a wrong projection gates every other edit", who: clitest.Alice, sel: clitest.Alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{clitest.Alice.Announce(t, id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "50"), clitest.MaintainersTag(clitest.Alice))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", clitest.Carol.Npub()}, code: "maintainers-projection-mismatch",
			message:  []string{"inconsistent `maintainers` compatibility tag", "missing active roles: " + clitest.Bob.Npub(), "this repair does not add or remove active maintainers"},
			details:  map[string]any{"missing": []string{clitest.Bob.Npub()}},
			commands: []string{"roster repo edit --fix-maintainers"}},
		{name: "co-maintainer with a third-party assignment", setup: coMaintainerAssigns, who: clitest.Bob, sel: clitest.Alice, now: 2700,
			args: []string{"repo", "leave"}, code: "third-party-assignment",
			message: []string{"your announcement directly assigns " + clitest.Carol.Npub() + ", but the lead does not", "ask " + clitest.Alice.Npub() + " to run:",
				"then repair your announcement with:"},
			details:  map[string]any{"lead": clitest.Alice.Npub(), "uncovered": []string{clitest.Carol.Npub()}},
			commands: []string{"roster repo edit --add-maintainer " + clitest.Carol.Npub() + "  # run by " + clitest.Alice.Npub(), "roster repo follow-lead"}},
		{name: "lead while a co-maintainer assigns a third party", setup: coMaintainerAssigns, who: clitest.Alice, sel: clitest.Alice, now: 2700,
			args: []string{"repo", "edit", "--remove-maintainer", clitest.Bob.Npub()}, code: "co-maintainer-third-party-assignment",
			message: []string{clitest.Bob.Npub() + " directly assigns " + clitest.Carol.Npub() + " instead of following your lead roster",
				"first retain them through the lead roster with:", "until then the only repository edit you can make is the add of an uncovered subject"},
			details:  map[string]any{"co_maintainers": []string{clitest.Bob.Npub()}},
			commands: []string{"roster repo edit --add-maintainer " + clitest.Carol.Npub(), "roster repo follow-lead  # run by " + clitest.Bob.Npub()}},
		{name: "self-defer gates the author", who: clitest.Bob, sel: clitest.Alice, now: 2600,
			setup: func(t *testing.T) *clitest.MutWorld {
				w := clitest.TwoMaintainers(t)
				w.Seed(clitest.Bob.Announce(t, w.Id, 2500, clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000", "defer"), clitest.MaintainersTag(clitest.Alice)))
				return w
			},
			args: []string{"repo", "leave"}, code: "invalid-self-role",
			message: []string{"your announcement's own role history is invalid and no later active self-role supersedes it",
				`["m","` + clitest.Bob.Pk + `","2000","defer"]`, "roster will not choose a numeric end for you"},
			details:  map[string]any{"records": []string{`["m","` + clitest.Bob.Pk + `","2000","defer"]`}},
			commands: []string{"roster repo accept"}},
		{name: "lead transfer while the proposed lead's roster omits a maintainer", who: clitest.Alice, sel: clitest.Alice, now: 5000,
			setup: func(t *testing.T) *clitest.MutWorld {
				w := threeMaintainers(t)
				w.Seed(clitest.Bob.Announce(t, w.Id, 4000, clitest.Role("M", clitest.Alice, "2000", "4000"), clitest.Role("m", clitest.Bob, "2000", "4000"), clitest.Role("M", clitest.Bob, "4000"),
					clitest.Role("m", clitest.Alice), clitest.Projection(clitest.Alice, clitest.Bob)))
				return w
			},
			args: []string{"repo", "edit", "--lead-maintainer", clitest.Bob.Npub()}, code: "lead-transfer-incomplete-roster",
			message: []string{"cannot transfer the lead to " + clitest.Bob.Npub() + " because their active roster would remove confirmed maintainers from the repository graph:",
				"  " + clitest.Carol.Npub(), "ask " + clitest.Bob.Npub() + " to publish the complete lead roster before retrying:",
				"or explicitly remove each person before changing the lead:", "--force is not available for a lead transfer"},
			details: map[string]any{"proposed_lead": clitest.Bob.Npub(), "missing_confirmed": []string{clitest.Carol.Npub()}},
			commands: []string{"roster repo edit --lead-maintainer " + clitest.Bob.Npub() + "  # run by " + clitest.Bob.Npub(),
				"roster repo edit --remove-maintainer " + clitest.Carol.Npub()}},
		{name: "lead transfer while the proposed lead's history misses a transition", who: clitest.Alice, sel: clitest.Alice, now: 5000,
			setup: func(t *testing.T) *clitest.MutWorld {
				w := threeMaintainers(t)
				w.Seed(clitest.Bob.Announce(t, w.Id, 4000, clitest.Role("M", clitest.Alice, "2000", "4000"), clitest.Role("m", clitest.Bob, "2000", "4000"), clitest.Role("M", clitest.Bob, "4000"),
					clitest.Role("m", clitest.Alice), clitest.Role("m", clitest.Carol, "2500"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol)))
				return w
			},
			args: []string{"repo", "edit", "--lead-maintainer", clitest.Bob.Npub()}, code: "lead-history-incomplete",
			message:  []string{"cannot transfer the lead to " + clitest.Bob.Npub() + " yet", clitest.Carol.Npub() + " (effective start 1970-01-01 00:50:00 UTC)"},
			details:  map[string]any{"proposed_lead": clitest.Bob.Npub(), "stale": []string{clitest.Carol.Npub()}},
			commands: []string{"roster repo edit --lead-maintainer " + clitest.Bob.Npub() + "  # run by " + clitest.Bob.Npub()}},
		{name: "removal while another real edge retains the person", setup: leadlessThree, who: clitest.Alice, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--remove-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer"}, code: "removal-retained",
			message: []string{"cannot remove " + clitest.Carol.Npub() + ": they stay confirmed through another real relationship",
				clitest.Bob.Npub() + " -> " + clitest.Carol.Npub() + " (active assignment by " + clitest.Bob.Npub() + ")"},
			details: map[string]any{"pubkey": clitest.Carol.Npub()},
			commands: []string{"roster repo edit --remove-maintainer " + clitest.Carol.Npub() + " --no-lead-maintainer  # run by " + clitest.Bob.Npub(),
				"roster repo edit --remove-maintainer " + clitest.Carol.Npub() + " --no-lead-maintainer"}},
		{name: "removal that disconnects somebody else", who: clitest.Alice, sel: clitest.Alice, now: 2300,
			setup: func(t *testing.T) *clitest.MutWorld {
				w := clitest.NewMutWorld(t, 1)
				w.Seed(clitest.Alice.Announce(t, w.Id, 100))
				w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
				w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
				w.Ok(clitest.Bob, clitest.Alice, 2100, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer")
				w.Seed(clitest.Carol.Announce(t, w.Id, 2200, clitest.Role("m", clitest.Bob, "2200"), clitest.Role("m", clitest.Carol, "2200"), clitest.MaintainersTag(clitest.Bob, clitest.Carol)))
				return w
			},
			args: []string{"repo", "edit", "--remove-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer"}, code: "removal-partitions",
			message: []string{"removing " + clitest.Bob.Npub() + " would also disconnect these maintainers from the repository graph:", "  " + clitest.Carol.Npub()},
			details: map[string]any{"pubkey": clitest.Bob.Npub(), "disconnected": []string{clitest.Carol.Npub()}},
			commands: []string{"roster repo edit --add-maintainer " + clitest.Carol.Npub() + " --no-lead-maintainer",
				"roster repo edit --remove-maintainer " + clitest.Carol.Npub() + " --no-lead-maintainer"}},
		{name: "an add that joins another component", who: clitest.Alice, sel: clitest.Alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{clitest.Alice.Announce(t, id, 100),
					clitest.Bob.Announce(t, id, 200, clitest.Role("m", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Dave, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Dave)),
					clitest.Dave.Announce(t, id, 300, clitest.Role("m", clitest.Bob, "300"), clitest.Role("m", clitest.Dave, "300"), clitest.MaintainersTag(clitest.Bob, clitest.Dave))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub()}, code: "repository-join",
			message: []string{"cannot add " + clitest.Bob.Npub() + " safely", clitest.Dave.Npub() + " via " + clitest.Bob.Npub() + " -> " + clitest.Dave.Npub(),
				"ask " + clitest.Bob.Npub() + " to preserve their repository under a new identifier", "--force is not available for a repository join"},
			details: map[string]any{"pubkey": clitest.Bob.Npub()}},
		{name: "--force outside add and accept", setup: clitest.TwoMaintainers, who: clitest.Alice, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--remove-maintainer", clitest.Bob.Npub(), "--force"}, code: "force-not-available",
			message: []string{"--force is not available for remove-maintainer",
				"no --force shortcut for combining several membership decisions"},
			details:  map[string]any{"action": "remove-maintainer"},
			commands: []string{"roster repo edit --remove-maintainer " + clitest.Bob.Npub()}},
		{name: "--force with no state-only conflict", setup: clitest.TwoMaintainers, who: clitest.Alice, sel: clitest.Alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--force"}, code: "force-not-applicable",
			message:  []string{"there is none"},
			commands: []string{"roster repo edit --add-maintainer " + clitest.Carol.Npub()}},
		{name: "--force on a state-only conflict outside a checkout", who: clitest.Alice, sel: clitest.Alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{clitest.Alice.Announce(t, id, 100), clitest.Alice.State(t, id, 110, strings.Repeat("a", 40)),
					clitest.Bob.Announce(t, id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
					clitest.Bob.State(t, id, 300, strings.Repeat("b", 40))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force"}, code: "force-needs-checkout",
			message:  []string{"--force keeps the complete branches and tags of the checkout running the command", "outside a checkout"},
			details:  map[string]any{"align": []any{map[string]any{"action": "update", "ref": "refs/heads/main", "from": strings.Repeat("a", 40), "to": strings.Repeat("b", 40)}}},
			commands: []string{"roster repo state publish", "roster repo edit --add-maintainer " + clitest.Bob.Npub()}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := c.setup(t)
			m := w.Refused(c.who, c.sel, c.now, cmdutil.ExitRefused, c.code, c.args...)
			e := m["error"].(map[string]any)
			msg := e["message"].(string)
			for _, s := range c.message {
				if !strings.Contains(msg, s) {
					t.Errorf("message lacks %q:\n%s", s, msg)
				}
			}
			details := e["details"].(map[string]any)
			for k, want := range c.details {
				if got := fmt.Sprint(details[k]); got != fmt.Sprint(want) {
					t.Errorf("details[%s] = %s, want %v", k, got, want)
				}
			}
			// Each suggested roster command names the repository and
			// relays this one was run with (outside a checkout it would
			// fail without --repo); the rest must be what the gate says.
			cmds := clitest.ToStrings(e["commands"])
			// One for another person carries no --home.
			for i, got := range cmds {
				sel := w.Selectors(c.sel)
				if strings.Contains(got, "  # run by ") {
					sel = w.SelectorsForOthers(c.sel)
				}
				if strings.HasPrefix(got, "roster ") && !strings.Contains(got, sel) {
					t.Errorf("command %q lacks %q", got, sel)
				}
				cmds[i], _, _ = strings.Cut(strings.Replace(got, sel, "", 1), "  # ")
			}
			for _, want := range c.commands {
				if want, _, _ = strings.Cut(want, "  # "); !slices.Contains(cmds, want) {
					t.Errorf("commands lack %q: %q", want, cmds)
				}
			}
			// The human form says the same, naming the signer "(you)"
			// (nobody here has a profile), and that nothing was published.
			r := w.Run(c.who, c.sel, c.now, c.args...)
			if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "nothing was published") || !strings.Contains(strings.ReplaceAll(r.Err, " (you)", ""), strings.SplitN(msg, "\n", 2)[0]) {
				t.Errorf("human refusal: exit %d\n%s", r.Code, r.Err)
			}
		})
	}
}
