package render

import (
	"regexp"
	"strings"
	"sync"

	"github.com/roster-cli/roster/suggest"
)

// The text graph and preflight build (advisories, health findings,
// guidance, refusals) names people by npub, because it is data for JSON
// too. On a terminal the prose of it names them the way the rest of the
// human output does (peopleText.Of); everything else keeps the npub as
// written: a command (it must paste as it is), a coordinate or nostr://
// URL (npub/identifier, also pasted), and all output to a pipe or file.

// npubWord is an npub as a whole word (bech32 data characters).
var npubWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`npub1[02-9ac-hj-np-z]{58}`) })

// commandStart is where a command written into prose begins: roster and
// one of its command groups, or git.
var commandStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s` + "`" + `(])(roster (repo|workspace|project|group|hooks|login|logout|whoami|cache|dev|config|version|completion|help)\b|git [a-z])`)
})

// Prose is s with each npub of its prose named.
func (n PeopleText) Prose(s string) string {
	if !n.NameProse || !strings.Contains(s, "npub1") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = n.line(l)
	}
	return strings.Join(lines, "\n")
}

// line names the npubs of one line outside the commands in it. A command
// runs from its start to the end of the clause: "; ", a closing backtick
// or the end of the line (its "# run by <npub>" comment is part of it).
func (n PeopleText) line(l string) string {
	var b strings.Builder
	for l != "" {
		m := commandStart().FindStringSubmatchIndex(l)
		prose, rest := l, ""
		if m != nil {
			start := m[4] // the command itself, after the boundary
			prose, rest = l[:start], l[start:]
		}
		b.WriteString(n.nameNpubs(prose))
		if rest == "" {
			break
		}
		end := len(rest)
		if i := strings.Index(rest, "; "); i >= 0 {
			end = i
		}
		if i := strings.IndexByte(rest, '`'); i >= 0 && i < end {
			end = i
		}
		b.WriteString(rest[:end])
		l = rest[end:]
	}
	return b.String()
}

// nameNpubs replaces each npub that stands alone (not part of a coordinate
// "npub/identifier" or a URL) with the person's name.
func (n PeopleText) nameNpubs(s string) string {
	idx := npubWord().FindAllStringIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		if !standalone(s, m[0], m[1]) {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(n.Of(s[m[0]:m[1]]))
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func standalone(s string, from, to int) bool {
	if from > 0 && strings.ContainsRune("/:=_-.@"+"abcdefghijklmnopqrstuvwxyz0123456789", rune(s[from-1])) {
		return false
	}
	if to < len(s) && strings.ContainsRune("/@_-"+"abcdefghijklmnopqrstuvwxyz0123456789", rune(s[to])) {
		return false
	}
	return true
}

// ProseBlock renders an advisory with its prose named and its commands, with
// the user's selectors, as they are.
func (n PeopleText) ProseBlock(b suggest.Block, sel suggest.Selectors) string {
	named := make(suggest.Block, len(b))
	for i, p := range b {
		if p.Command == nil {
			p.Text = n.Prose(p.Text)
		}
		named[i] = p
	}
	return named.Render(sel)
}
