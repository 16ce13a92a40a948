package dev

import (
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
)

// demoCloneDir is the directory the demo's clone line clones into.
const demoCloneDir = "roster-demo"

// DemoTryLines are the banner's try: lines: one for each README tour command
// that can run against the demo (a change with --dry-run, so nothing is
// published), as one of the demo's people where it needs a key, and first
// the line that clones the announced URL and links the checkout. Each is
// paste-ready in a POSIX shell.
func DemoTryLines(s report.DevRelay, demo devrelay.DemoInfo) []string {
	as := func(name string) string {
		return "ROSTER_SECRET_KEY=$(printf roster-demo-" + name + " | sha256sum | cut -c1-64) "
	}
	npub := func(name string) string {
		for _, p := range demo.People {
			if p.Name == name {
				return p.Npub
			}
		}
		return ""
	}
	sel := []string{"--repo", s.Naddr, "--relay", s.URL}
	roster := func(args ...string) string { return suggest.Roster(append(args, sel...)...).Line() }
	var out []string
	if s.CloneURL != "" {
		out = append(out, suggest.Git("clone", "-q", s.CloneURL, demoCloneDir).Line()+" && cd "+demoCloneDir+" && "+
			suggest.Git("config", "nostr.repo", s.Naddr).Line()+" && roster repo")
	}
	out = append(out,
		roster("repo"),
		roster("repo", "--json"),
		roster("repo", "--jq", ".maintainers[].npub"),
		roster("repo", "health"))
	if s.StatusByMaintainer != "" {
		out = append(out,
			suggest.Roster("repo", "check-event", s.StatusByMaintainer, "--relay", s.URL).Line()+"   # alice's status: authorized (exit 0)",
			suggest.Roster("repo", "check-event", s.StatusByRemoved, "--relay", s.URL).Line()+"   # dave's, after his removal: not authorized (exit 5)")
	}
	out = append(out,
		roster("repo", "graph", "--history"),
		roster("repo", "history"),
		roster("repo", "state"),
		as("alice")+suggest.Roster("whoami").Line(),
		as("alice")+roster("repo", "edit", "--add-maintainer", npub("erin"), "--dry-run"),
		as("alice")+roster("repo", "edit", "--add-moderator", npub("dave"), "--dry-run"),
		as("alice")+roster("repo", "edit", "--description", "Makes widgets", "--dry-run"),
		as("carol")+roster("repo", "accept", "--dry-run"),
		as("bob")+roster("repo", "leave", "--dry-run"),
		as("bob")+roster("repo", "follow-lead", "--dry-run"),
		as("alice")+suggest.Roster("workspace", "show", "--relay", s.URL).Line(),
		suggest.Roster("project", "show", s.ProjectNaddr, "--relay", s.URL).Line(),
		suggest.Roster("group", "show", s.GroupID, "--relay", s.URL).Line(),
		// Alice owns the demo group: she can give erin a role and mint
		// an invite code (previewed).
		as("alice")+suggest.Roster("group", "add", s.GroupID, npub("erin"), "--role", "moderator", "--dry-run", "--relay", s.URL).Line(),
		as("alice")+suggest.Roster("group", "invite", s.GroupID, "--dry-run", "--relay", s.URL).Line(),
		// Dave is not in the demo group: he can join it (and save it to
		// his kind 10009 groups list).
		as("dave")+suggest.Roster("group", "join", s.GroupID, "--save", "--relay", s.URL).Line())
	return out
}
