package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// gateCase is one refusal of a membership write gate (maintainers.md's
// preflight refusals, docs/membership.md "Refusals"), end to end: exit 3,
// the message, the --json error object (code, message, details, commands)
// and, through mutWorld.refused, that no relay stored anything new.
type gateCase struct {
	name     string
	setup    func(t *testing.T) *mutWorld
	who, sel person
	now      int64
	args     []string
	code     string
	message  []string       // substrings of error.message
	details  map[string]any // error.details entries (compared as fmt %v)
	commands []string       // entries error.commands must contain
}

// leadlessThree: Alice, Bob and Carol leadless; Bob also assigns Carol.
func leadlessThree(t *testing.T) *mutWorld {
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--no-lead-maintainer")
	w.ok(bob, alice, 2000, "repo", "accept")
	w.ok(alice, alice, 2100, "repo", "edit", "--add-maintainer", carol.npub(), "--no-lead-maintainer")
	w.ok(bob, alice, 2200, "repo", "edit", "--add-maintainer", carol.npub(), "--no-lead-maintainer")
	w.ok(carol, alice, 2300, "repo", "accept")
	return w
}

// coMaintainerAssigns: Bob (co-maintainer of lead Alice) actively assigns
// Carol, who acknowledged Bob, written by another client.
func coMaintainerAssigns(t *testing.T) *mutWorld {
	w := twoMaintainers(t)
	w.seed(
		bob.announce(t, w.id, 2500, role("M", alice, "2000"), role("m", bob, "2000"), role("m", carol, "2500"), maintainersTag(alice, bob, carol)),
		carol.announce(t, w.id, 2600, role("M", bob, "2600"), role("m", carol, "2600"), maintainersTag(bob, carol)),
	)
	return w
}

func seeded(events func(t *testing.T, id string) []*nostr.Event) func(t *testing.T) *mutWorld {
	return func(t *testing.T) *mutWorld {
		w := newMutWorld(t, 1)
		w.seed(events(t, w.id)...)
		return w
	}
}

func TestEveryGateRefusalEndToEnd(t *testing.T) {
	t.Parallel()
	cases := []gateCase{
		{name: "governance choice in a legacy-inferred view", who: alice, sel: alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{alice.announce(t, id, 100, maintainersTag(alice, bob, carol)),
					bob.announce(t, id, 110, maintainersTag(bob, alice)), carol.announce(t, id, 120, maintainersTag(carol, alice))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", dave.npub()}, code: "governance-choice-required",
			message: []string{"a lead maintainer must be assigned for this membership change", "choose one with: --lead-maintainer <npub>",
				"or keep the repository leadless with: --no-lead-maintainer", "the legacy maintainer listings infer " + alice.npub() + " as lead"},
			details: map[string]any{"lead_source": "legacy_inferred", "legacy_inferred_lead": alice.npub()},
			commands: []string{"roster repo edit --add-maintainer " + dave.npub() + " --lead-maintainer " + alice.npub(),
				"roster repo edit --add-maintainer " + dave.npub() + " --no-lead-maintainer"}},
		{name: "governance choice in an explicitly leadless view", setup: leadlessThree, who: bob, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--remove-maintainer", carol.npub()}, code: "governance-choice-required",
			message: []string{"a lead maintainer must be assigned for this membership change"},
			details: map[string]any{"lead_source": "explicit_none"},
			commands: []string{"roster repo edit --remove-maintainer " + carol.npub() + " --lead-maintainer " + bob.npub() + "  # you become lead",
				"roster repo edit --remove-maintainer " + carol.npub() + " --no-lead-maintainer"}},
		{name: "only the resolved lead adds", setup: twoMaintainers, who: bob, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", carol.npub()}, code: "only-lead-manages-roster",
			message:  []string{"only the resolved lead should add maintainers to this repository", "ask " + alice.npub() + " to run:"},
			details:  map[string]any{"lead": alice.npub()},
			commands: []string{"roster repo edit --add-maintainer " + carol.npub() + "  # run by " + alice.npub()}},
		{name: "only the resolved lead removes", setup: twoMaintainers, who: bob, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--remove-maintainer", alice.npub()}, code: "only-lead-manages-roster",
			message:  []string{"only the resolved lead should remove maintainers from this repository"},
			commands: []string{"roster repo edit --remove-maintainer " + alice.npub() + "  # run by " + alice.npub()}},
		{name: "no-lead cannot remove an existing lead", setup: twoMaintainers, who: alice, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", carol.npub(), "--no-lead-maintainer"}, code: "lead-exists",
			message:  []string{"--no-lead-maintainer cannot remove an existing lead", "rerun without --no-lead-maintainer to keep the lead:"},
			details:  map[string]any{"lead": alice.npub()},
			commands: []string{"roster repo edit --add-maintainer " + carol.npub()}},
		{name: "a lead change and a roster change are separate decisions", setup: twoMaintainers, who: alice, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", carol.npub(), "--lead-maintainer", bob.npub()}, code: "one-decision-per-command",
			message:  []string{"changing the lead and changing the roster are separate decisions"},
			commands: []string{"roster repo edit --add-maintainer " + carol.npub(), "roster repo edit --lead-maintainer " + bob.npub()}},
		{name: "an outsider in a leadless repository", setup: leadlessThree, who: dave, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", erin.npub(), "--no-lead-maintainer"}, code: "not-a-maintainer",
			message: []string{"you (" + dave.npub() + ") are not a confirmed maintainer of this repository"},
			details: map[string]any{"you": dave.npub()}},
		{name: "a conflicting lead path blocks", who: alice, sel: alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{alice.announce(t, id, 100, role("M", bob, "100"), role("m", alice, "100"), projection(alice, bob)),
					bob.announce(t, id, 110, role("M", alice, "110"), role("m", bob, "110"), projection(alice, bob))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", carol.npub(), "--no-lead-maintainer"}, code: "lead-path-unresolved",
			message:  []string{"the lead path from the selected coordinate is conflict", "--no-lead-maintainer does not override it"},
			details:  map[string]any{"lead_source": "conflict"},
			commands: []string{"roster repo"}},
		{name: "a wrong projection gates every other edit", who: alice, sel: alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{alice.announce(t, id, 100, role("M", alice), role("m", bob, "50"), maintainersTag(alice))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", carol.npub()}, code: "maintainers-projection-mismatch",
			message:  []string{"inconsistent `maintainers` compatibility tag", "missing active roles: " + bob.npub(), "this repair does not add or remove active maintainers"},
			details:  map[string]any{"missing": []string{bob.npub()}},
			commands: []string{"roster repo edit --fix-maintainers"}},
		{name: "co-maintainer with a third-party assignment", setup: coMaintainerAssigns, who: bob, sel: alice, now: 2700,
			args: []string{"repo", "leave"}, code: "third-party-assignment",
			message: []string{"your announcement directly assigns " + carol.npub() + ", but the lead does not", "ask " + alice.npub() + " to run:",
				"then repair your announcement with:"},
			details:  map[string]any{"lead": alice.npub(), "uncovered": []string{carol.npub()}},
			commands: []string{"roster repo edit --add-maintainer " + carol.npub() + "  # run by " + alice.npub(), "roster repo follow-lead"}},
		{name: "lead while a co-maintainer assigns a third party", setup: coMaintainerAssigns, who: alice, sel: alice, now: 2700,
			args: []string{"repo", "edit", "--remove-maintainer", bob.npub()}, code: "co-maintainer-third-party-assignment",
			message: []string{bob.npub() + " directly assigns " + carol.npub() + " instead of following your lead roster",
				"first retain them through the lead roster with:", "until then the only repository edit you can make is the add of an uncovered subject"},
			details:  map[string]any{"co_maintainers": []string{bob.npub()}},
			commands: []string{"roster repo edit --add-maintainer " + carol.npub(), "roster repo follow-lead  # run by " + bob.npub()}},
		{name: "self-defer gates the author", who: bob, sel: alice, now: 2600,
			setup: func(t *testing.T) *mutWorld {
				w := twoMaintainers(t)
				w.seed(bob.announce(t, w.id, 2500, role("M", alice, "2000"), role("m", bob, "2000", "defer"), maintainersTag(alice)))
				return w
			},
			args: []string{"repo", "leave"}, code: "invalid-self-role",
			message: []string{"your announcement's own role history is invalid and no later active self-role supersedes it",
				`["m","` + bob.pk + `","2000","defer"]`, "roster will not choose a numeric end for you"},
			details:  map[string]any{"records": []string{`["m","` + bob.pk + `","2000","defer"]`}},
			commands: []string{"roster repo accept"}},
		{name: "lead transfer while the proposed lead's roster omits a maintainer", who: alice, sel: alice, now: 5000,
			setup: func(t *testing.T) *mutWorld {
				w := threeMaintainers(t)
				w.seed(bob.announce(t, w.id, 4000, role("M", alice, "2000", "4000"), role("m", bob, "2000", "4000"), role("M", bob, "4000"),
					role("m", alice), projection(alice, bob)))
				return w
			},
			args: []string{"repo", "edit", "--lead-maintainer", bob.npub()}, code: "lead-transfer-incomplete-roster",
			message: []string{"cannot transfer the lead to " + bob.npub() + " because their active roster would remove confirmed maintainers from the repository graph:",
				"  " + carol.npub(), "ask " + bob.npub() + " to publish the complete lead roster before retrying:",
				"or explicitly remove each person before changing the lead:", "--force is not available for a lead transfer"},
			details: map[string]any{"proposed_lead": bob.npub(), "missing_confirmed": []string{carol.npub()}},
			commands: []string{"roster repo edit --lead-maintainer " + bob.npub() + "  # run by " + bob.npub(),
				"roster repo edit --remove-maintainer " + carol.npub()}},
		{name: "lead transfer while the proposed lead's history misses a transition", who: alice, sel: alice, now: 5000,
			setup: func(t *testing.T) *mutWorld {
				w := threeMaintainers(t)
				w.seed(bob.announce(t, w.id, 4000, role("M", alice, "2000", "4000"), role("m", bob, "2000", "4000"), role("M", bob, "4000"),
					role("m", alice), role("m", carol, "2500"), projection(alice, bob, carol)))
				return w
			},
			args: []string{"repo", "edit", "--lead-maintainer", bob.npub()}, code: "lead-history-incomplete",
			message:  []string{"cannot transfer the lead to " + bob.npub() + " yet", carol.npub() + " (effective start 1970-01-01 00:50:00 UTC)"},
			details:  map[string]any{"proposed_lead": bob.npub(), "stale": []string{carol.npub()}},
			commands: []string{"roster repo edit --lead-maintainer " + bob.npub() + "  # run by " + bob.npub()}},
		{name: "removal while another real edge retains the person", setup: leadlessThree, who: alice, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--remove-maintainer", carol.npub(), "--no-lead-maintainer"}, code: "removal-retained",
			message: []string{"cannot remove " + carol.npub() + ": they stay confirmed through another real relationship",
				bob.npub() + " -> " + carol.npub() + " (active assignment by " + bob.npub() + ")"},
			details: map[string]any{"pubkey": carol.npub()},
			commands: []string{"roster repo edit --remove-maintainer " + carol.npub() + " --no-lead-maintainer  # run by " + bob.npub(),
				"roster repo edit --remove-maintainer " + carol.npub() + " --no-lead-maintainer"}},
		{name: "removal that disconnects somebody else", who: alice, sel: alice, now: 2300,
			setup: func(t *testing.T) *mutWorld {
				w := newMutWorld(t, 1)
				w.seed(alice.announce(t, w.id, 100))
				w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--no-lead-maintainer")
				w.ok(bob, alice, 2000, "repo", "accept")
				w.ok(bob, alice, 2100, "repo", "edit", "--add-maintainer", carol.npub(), "--no-lead-maintainer")
				w.seed(carol.announce(t, w.id, 2200, role("m", bob, "2200"), role("m", carol, "2200"), maintainersTag(bob, carol)))
				return w
			},
			args: []string{"repo", "edit", "--remove-maintainer", bob.npub(), "--no-lead-maintainer"}, code: "removal-partitions",
			message: []string{"removing " + bob.npub() + " would also disconnect these maintainers from the repository graph:", "  " + carol.npub()},
			details: map[string]any{"pubkey": bob.npub(), "disconnected": []string{carol.npub()}},
			commands: []string{"roster repo edit --add-maintainer " + carol.npub() + " --no-lead-maintainer",
				"roster repo edit --remove-maintainer " + carol.npub() + " --no-lead-maintainer"}},
		{name: "an add that joins another component", who: alice, sel: alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{alice.announce(t, id, 100),
					bob.announce(t, id, 200, role("m", alice, "200"), role("m", bob, "200"), role("m", dave, "200"), maintainersTag(alice, bob, dave)),
					dave.announce(t, id, 300, role("m", bob, "300"), role("m", dave, "300"), maintainersTag(bob, dave))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", bob.npub()}, code: "repository-join",
			message: []string{"cannot add " + bob.npub() + " safely", dave.npub() + " via " + bob.npub() + " -> " + dave.npub(),
				"ask " + bob.npub() + " to preserve their repository under a new identifier", "--force is not available for a repository join"},
			details: map[string]any{"pubkey": bob.npub()}},
		{name: "--force outside add and accept", setup: twoMaintainers, who: alice, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--remove-maintainer", bob.npub(), "--force"}, code: "force-not-available",
			message: []string{"--force is not available for remove-maintainer",
				"no --force shortcut for combining several membership decisions"},
			details:  map[string]any{"action": "remove-maintainer"},
			commands: []string{"roster repo edit --remove-maintainer " + bob.npub()}},
		{name: "--force with no state-only conflict", setup: twoMaintainers, who: alice, sel: alice, now: 3000,
			args: []string{"repo", "edit", "--add-maintainer", carol.npub(), "--force"}, code: "force-not-applicable",
			message:  []string{"there is none"},
			commands: []string{"roster repo edit --add-maintainer " + carol.npub()}},
		{name: "--force on a state-only conflict outside a checkout", who: alice, sel: alice, now: 1000,
			setup: seeded(func(t *testing.T, id string) []*nostr.Event {
				return []*nostr.Event{alice.announce(t, id, 100), alice.state(t, id, 110, strings.Repeat("a", 40)),
					bob.announce(t, id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
					bob.state(t, id, 300, strings.Repeat("b", 40))}
			}),
			args: []string{"repo", "edit", "--add-maintainer", bob.npub(), "--force"}, code: "force-needs-checkout",
			message:  []string{"--force keeps the complete branches and tags of the checkout running the command", "outside a checkout"},
			details:  map[string]any{"align": []any{map[string]any{"action": "update", "ref": "refs/heads/main", "from": strings.Repeat("a", 40), "to": strings.Repeat("b", 40)}}},
			commands: []string{"roster repo state publish", "roster repo edit --add-maintainer " + bob.npub()}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := c.setup(t)
			m := w.refused(c.who, c.sel, c.now, cmdutil.ExitRefused, c.code, c.args...)
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
			cmds := toStrings(e["commands"])
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
			r := w.run(c.who, c.sel, c.now, c.args...)
			if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "nothing was published") || !strings.Contains(strings.ReplaceAll(r.Err, " (you)", ""), strings.SplitN(msg, "\n", 2)[0]) {
				t.Errorf("human refusal: exit %d\n%s", r.Code, r.Err)
			}
		})
	}
}
