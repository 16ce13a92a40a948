package render

import (
	"strconv"
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
)

// PeopleText names people in human output: "alice (npub1mfm…unuf)",
// "(you)" after the signer. A profile name is a label anyone can claim, so
// when two people shown claim names a reader cannot tell apart (the same
// termtext.Skeleton: "alice", "Alice", "alice\u200b", a Cyrillic "аlice"),
// a name that looks like a key (its skeleton holds "npub1", a zero-width
// space before a whole npub included) or a deceptive name (invisible
// characters, Latin mixed with Greek or Cyrillic: termtext.Deceptive),
// each is printed with its full npub; on a terminal npubs are otherwise
// shortened unless --full, and in a pipe or file they are full.
type PeopleText struct {
	names  report.Names
	Viewer string `json:"-"` // npub, "" for nobody
	short  bool
	shared map[string]bool // names (folded) claimed by more than one npub
	// prose: npubs in graph's and preflight's text are named too (on a
	// terminal only, people_prose.go).
	NameProse bool `json:"-"`
}

// People is the namer for this invocation's output of names.
func People(a *cmdutil.Factory, names report.Names, viewer string) PeopleText {
	pt := NewPeopleText(names, viewer, a.Io.OutTTY && !a.Full)
	pt.NameProse = a.Io.OutTTY
	return pt
}

func NewPeopleText(names report.Names, viewer string, short bool) PeopleText {
	pt := PeopleText{names: names, Viewer: viewer, short: short, shared: map[string]bool{}}
	claimed := map[string]string{}
	for npub, id := range names {
		if id.Name == "" {
			continue
		}
		k := foldName(id.Name)
		if other, ok := claimed[k]; ok && other != npub {
			pt.shared[k] = true
		}
		claimed[k] = npub
	}
	return pt
}

// foldName is the form two names are compared in: case, spacing,
// invisible characters and look-alike letters do not make a different
// person (termtext.Skeleton).
func foldName(n string) string { return termtext.Skeleton(n) }

// ambiguous reports whether a name needs its full npub beside it: another
// person shown claims a name that folds alike, it looks like a key, or it
// is deceptive.
func (pt PeopleText) ambiguous(name string) bool {
	k := foldName(name)
	return pt.shared[k] || strings.Contains(k, "npub1") || termtext.Deceptive(name)
}

// Key is npub shortened on a terminal: npub1 and three characters, an
// ellipsis, and the last four.
func (pt PeopleText) Key(npub string, full bool) string {
	if full || !pt.short || !strings.HasPrefix(npub, "npub1") || len(npub) < 20 {
		return npub
	}
	return npub[:8] + "…" + npub[len(npub)-4:]
}

// Of names one person, given as npub or 64-hex.
func (pt PeopleText) Of(who string) string {
	npub := graph.Npub(who)
	id := pt.names[npub]
	var b strings.Builder
	if id.Name != "" {
		name := termtext.Line(id.Name)
		ambiguous := pt.ambiguous(id.Name)
		b.WriteString(name)
		if id.NIP05 != "" {
			b.WriteString(" <" + termtext.Line(id.NIP05) + ">")
		}
		b.WriteString(" (" + pt.Key(npub, ambiguous) + ")")
	} else if id.NIP05 != "" {
		// A verified NIP-05 address is bound to the key by its domain.
		b.WriteString(termtext.Line(id.NIP05) + " (" + pt.Key(npub, false) + ")")
	} else {
		b.WriteString(pt.Key(npub, false))
	}
	if pt.Viewer != "" && npub == pt.Viewer {
		b.WriteString(" (you)")
	}
	return b.String()
}

// List names several people, separated by sep.
func (pt PeopleText) List(who []string, sep string) string {
	out := make([]string, len(who))
	for i, w := range who {
		out[i] = pt.Of(w)
	}
	return strings.Join(out, sep)
}

// TerminalWidth is $COLUMNS on a terminal (human rows are wrapped to it),
// else 0: a pipe or file gets one line per row.
func TerminalWidth(a *cmdutil.Factory) int {
	if !a.Io.OutTTY {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(a.Io.Getenv("COLUMNS"))); err == nil && n >= 40 {
		return n
	}
	if a.Io.Columns >= 40 {
		return a.Io.Columns
	}
	return 80
}
