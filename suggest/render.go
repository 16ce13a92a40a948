package suggest

import (
	"slices"
	"strings"
)

// Selectors are the flags the user chose for the repository, the relays and
// the roster home. A suggested roster command repeats them: outside a
// checkout `roster repo accept` without --repo fails with "no --repo given",
// without --relay it asks other relays than the user chose, and without
// --home `roster cache clear` clears another cache than the broken one.
type Selectors struct {
	Repo   string
	Relays []string
	Home   string
	// Shared is the repository as anyone can name it (a nostr:// URL or an
	// naddr), "" when none was resolved: a command for another person
	// carries it as --repo instead of the user's --repo when that is a
	// remote name or a path only their checkout knows.
	Shared string
	// Me is the user's npub, "" when nobody is signed in: a command whose
	// RunBy names only them is theirs.
	Me string
	// Name names a person (an npub) in human output; nil leaves the npub
	// (JSON, and the plain text of a message).
	Name func(npub string) string
}

// Apply returns c with the selectors it lacks and uses, placed after its
// Argv and before its Tail. A pinned or non-roster command is unchanged.
// --repo goes to `roster repo ...` commands, --relay to the commands that
// read relays (repo, project, workspace, group, hooks), --home to every command
// that uses the roster home; each only when c does not name that flag
// itself (a command naming its own relay is a deliberate check of that
// relay, one naming its own repository means that one).
//
// A command for another person (RunBy names someone other than Me) runs
// in that person's own roster home with their own key: it carries the
// repository (a --repo that names a coordinate, else Shared for a remote
// name or path) and the relays, never the user's --home.
func (s Selectors) Apply(c Command) Command {
	if c.Pinned || !c.IsRoster() || len(c.Argv) < 2 {
		return c
	}
	group := c.Argv[1]
	own := s.isMine(c.RunBy)
	repo := s.Repo
	if !own && repo != "" && !portableRepo(repo) {
		// A remote name or path of the user's checkout: the coordinate
		// instead (no --repo at all stays none: each runs in their clone).
		repo = s.Shared
	}
	var add []string
	if repo != "" && group == "repo" && !c.Has("--repo") {
		add = append(add, "--repo", repo)
	}
	if len(s.Relays) > 0 && readsRelays[group] && !c.Has("--relay") {
		for _, r := range s.Relays {
			add = append(add, "--relay", r)
		}
	}
	if own && s.Home != "" && !homeless[group] && !c.Has("--home") {
		add = append(add, "--home", s.Home)
	}
	if len(add) == 0 {
		return c
	}
	c.Argv = append(slices.Clip(c.Argv), add...)
	return c
}

// isMine reports whether a command run by who is the user's own: nobody
// named, or only the user.
func (s Selectors) isMine(who Block) bool {
	if len(who) == 0 {
		return true
	}
	return s.Me != "" && len(who) == 1 && who[0].Person == Person(s.Me)
}

// ForOther reports whether c is a command for someone else than the user.
func (s Selectors) ForOther(c Command) bool { return !s.isMine(c.RunBy) }

// portableRepo reports whether a --repo value names the repository itself
// (an naddr or a nostr:// URL), not a remote or path of one checkout.
func portableRepo(repo string) bool {
	return strings.HasPrefix(repo, "naddr1") || strings.HasPrefix(repo, "nostr://")
}

// readsRelays are the command groups that ask relays (hooks: the relays
// the installed pre-push hook asks are install's --relay flags).
var readsRelays = map[string]bool{"repo": true, "project": true, "workspace": true, "group": true, "hooks": true}

// homeless are the commands that never touch the roster home.
var homeless = map[string]bool{"version": true, "completion": true, "help": true, "dev": true}

// Render is c with the selectors, as the text people paste.
func (s Selectors) Render(c Command) string {
	c = s.Apply(c)
	return c.Line() + c.trailer(s)
}

// RenderAll renders each command once: a command equal to an earlier one
// (same words, same person) is dropped.
func (s Selectors) RenderAll(cs []Command) []string {
	out := make([]string, 0, len(cs))
	for _, c := range Unique(cs) {
		out = append(out, s.Render(c))
	}
	return out
}

// Unique keeps the first of each equal command, in order.
func Unique(cs []Command) []Command {
	var out []Command
	for _, c := range cs {
		if !slices.ContainsFunc(out, c.Equal) {
			out = append(out, c)
		}
	}
	return out
}
