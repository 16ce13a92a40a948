// A project's member repositories: the `a` tags of its owner-signed kind
// 30621 naming kind 30617 addresses (NIP-MP). Only the owner writes them
// (NIP-PC does not widen kind 30621's owner-only authority), and they are
// edited on the owner's latest kind 30621, never on the relay's Project
// State, whose tags also carry the collaboratively related channels.

package projects

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/pipeline"
)

// MaxRepositories bounds a project's member repositories: an edit may not
// leave more, and `project show` and `project health` read at most this
// many (the first, by address) in their one discovery of them all; the
// rest are listed as not read. Each member adds filters to every relay's
// request, and the project's tags are the owner's (or, through the relay's
// projection, anyone's who can get a projection signed), so the cost is
// bounded here.
const MaxRepositories = 16

// KindRepository is the kind of a member repository's address (NIP-34
// repository announcement).
const KindRepository = 30617

// RepositoryEdit adds and removes member repositories. Add carries the
// address and an optional relay hint; Remove names addresses.
type RepositoryEdit struct {
	Add    []Member
	Remove []string
}

// Empty reports whether the edit changes nothing.
func (e RepositoryEdit) Empty() bool { return len(e.Add) == 0 && len(e.Remove) == 0 }

// ParseRepository reads a repository coordinate 30617:<owner-hex>:<d>.
func ParseRepository(s string) (Member, error) {
	m, ok := parseMember([]string{TagMember, s})
	if !ok {
		return Member{}, fmt.Errorf("%q is not a repository coordinate 30617:<64 lowercase hex owner>:<d>", s)
	}
	return m, nil
}

// NewMember is the member repository of owner's identifier d, with an
// optional relay hint.
func NewMember(owner, d, relay string) Member {
	return Member{Address: fmt.Sprintf("%d:%s:%s", KindRepository, owner, d), Owner: owner, D: d, Relay: relay}
}

// Tag is the member's `a` tag: ["a", "30617:<owner>:<d>", <relay hint>?].
func (m Member) Tag() nostr.Tag {
	t := nostr.Tag{TagMember, m.Address}
	if m.Relay != "" {
		t = append(t, m.Relay)
	}
	return t
}

// EditRepositories returns tags with e applied: every `a` tag naming a
// removed address is dropped (whatever its relay hint), each added
// repository's `a` tag is appended after the other tags, in the order
// given; every other tag, known or unknown, is kept byte for byte and in
// order. Adding a member already there, removing one that is not, naming
// one address in both lists, or ending with more than MaxRepositories
// members is refused before anything is signed (a *pipeline.Error).
func EditRepositories(tags nostr.Tags, e RepositoryEdit) (nostr.Tags, error) {
	present := map[string]bool{}
	count := 0
	for _, t := range tags {
		if m, ok := parseMember(t); ok && len(t) > 0 && t[0] == TagMember && !present[m.Address] {
			present[m.Address] = true
			count++
		}
	}
	removing := map[string]bool{}
	for _, addr := range e.Remove {
		removing[addr] = true
	}
	var both []string
	for _, m := range e.Add {
		if removing[m.Address] {
			both = append(both, m.Address)
		}
	}
	if len(both) > 0 {
		return nil, &pipeline.Error{Class: pipeline.Usage, Code: "usage",
			Msg: fmt.Sprintf("%s is both added and removed: give each repository once", strings.Join(both, ", "))}
	}
	var notMember []string
	for _, addr := range e.Remove {
		if !present[addr] {
			notMember = append(notMember, addr)
		}
	}
	if len(notMember) > 0 {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "not-member",
			Msg:     fmt.Sprintf("refused before signing, nothing was published: %s %s not a member repository of the project", strings.Join(notMember, ", "), isAre(len(notMember))),
			Details: map[string]any{"repositories": notMember}}
	}
	adding := map[string]bool{}
	var already []string
	for _, m := range e.Add {
		if present[m.Address] || adding[m.Address] {
			already = append(already, m.Address)
		}
		adding[m.Address] = true
	}
	if len(already) > 0 {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "already-member",
			Msg:     fmt.Sprintf("refused before signing, nothing was published: %s %s already a member repository of the project (or given twice)", strings.Join(already, ", "), isAre(len(already))),
			Details: map[string]any{"repositories": already}}
	}
	if n := count - len(removing) + len(e.Add); n > MaxRepositories {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "too-many-repositories",
			Msg:     fmt.Sprintf("refused before signing, nothing was published: the project would have %d member repositories, more than the %d roster reads and writes (remove some with --remove-repo)", n, MaxRepositories),
			Details: map[string]any{"repositories": n, "max": MaxRepositories}}
	}
	out := make(nostr.Tags, 0, len(tags)+len(e.Add))
	for _, t := range tags {
		if m, ok := parseMember(t); ok && len(t) > 0 && t[0] == TagMember && removing[m.Address] {
			continue
		}
		out = append(out, append(nostr.Tag(nil), t...))
	}
	for _, m := range e.Add {
		out = append(out, m.Tag())
	}
	return out, nil
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
