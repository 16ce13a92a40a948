// Package suggest holds the commands roster tells people to run next as
// values: the words of the command, what it is for and who must run it.
// Rules (graph, preflight, membership, workspace) build them; one renderer
// turns them into the text people paste, adding the user's own --repo,
// --relay and --home so a suggestion runs against what the command that
// made it used. Nothing ever parses a rendered suggestion back.
package suggest

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A Command is one suggested command line.
type Command struct {
	// Argv are the words, starting with the program ("roster", "git"), or
	// a flag alone ("--timeout", "30s") when the suggestion is to add it. A
	// placeholder the user fills in ("<npub>", "wss://<relay>") is not quoted
	// unless the rest of its word needs it.
	Argv []string
	// Tail are words that follow the user's selectors: what this
	// suggestion adds to the command it repeats ("--timeout 30s", a relay
	// of its own to check).
	Tail []string
	// RunBy names who must run it when that is not the user: a person
	// (Who), or a description such as "the new lead".
	RunBy Block
	// Comment says what the command is for, shown after it.
	Comment string
	// Pinned keeps the command exactly as written: no --repo, --relay or
	// --home is added.
	Pinned bool
	// Raw is a line shown exactly as written instead of Argv: shell that
	// is not one command ("cd <your clone> && roster repo", a pipeline).
	Raw string
}

// Roster is the command `roster <words...>`.
func Roster(words ...string) Command {
	return Command{Argv: append([]string{"roster"}, words...)}
}

// Shell is a suggestion that is not a roster command by itself ("git
// config ...", "export ROSTER_RELAYS=...", a pipeline), shown exactly as
// written and never given selectors.
func Shell(line string) Command { return Command{Raw: line, Pinned: true} }

// Git is the command `git <words...>`.
func Git(words ...string) Command {
	return Command{Argv: append([]string{"git"}, words...), Pinned: true}
}

// By returns c to be run by who.
func (c Command) By(who ...Part) Command { c.RunBy = Block(who); return c }

// ByPerson returns c to be run by the person npub.
func (c Command) ByPerson(npub string) Command { return c.By(Who(npub)) }

// Because returns c with its comment.
func (c Command) Because(why string) Command { c.Comment = why; return c }

// With returns c with more words after the selectors (see Tail).
func (c Command) With(words ...string) Command {
	c.Tail = append(slices.Clip(c.Tail), words...)
	return c
}

// Pin returns c rendered exactly as written.
func (c Command) Pin() Command { c.Pinned = true; return c }

// IsRoster reports whether c runs roster.
func (c Command) IsRoster() bool { return len(c.Argv) > 0 && c.Argv[0] == "roster" }

// Words are Argv then Tail.
func (c Command) Words() []string { return append(slices.Clip(c.Argv), c.Tail...) }

// Has reports whether c names flag (as "--flag" or "--flag=...").
func (c Command) Has(flag string) bool {
	for _, w := range c.Words() {
		if w == flag || strings.HasPrefix(w, flag+"=") {
			return true
		}
	}
	return false
}

// Equal reports whether two suggestions are the same command for the same
// person; the comment does not count.
func (c Command) Equal(d Command) bool {
	return slices.Equal(c.Words(), d.Words()) && c.Raw == d.Raw && c.RunBy.String() == d.RunBy.String()
}

// Extends reports whether c is d with more words after d's (the same
// command, perhaps with more flags), for the same person.
func (c Command) Extends(d Command) bool {
	cw, dw := c.Words(), d.Words()
	return c.Raw == "" && d.Raw == "" && c.RunBy.String() == d.RunBy.String() && len(dw) > 0 &&
		len(cw) >= len(dw) && slices.Equal(cw[:len(dw)], dw)
}

// IsZero reports whether c holds no command.
func (c Command) IsZero() bool { return len(c.Argv) == 0 && len(c.Tail) == 0 && c.Raw == "" }

// MarshalJSON is the command's text without selectors, so a JSON field
// that held a command line keeps holding one.
func (c Command) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }

// Line is the command alone, its words shell-quoted, without comment.
func (c Command) Line() string {
	if c.Raw != "" {
		return c.Raw
	}
	all := c.Words()
	words := make([]string, len(all))
	for i, w := range all {
		words[i] = Quote(w)
	}
	return strings.Join(words, " ")
}

// String renders c without selectors: "<command>  # run by <who>" or
// "<command>  # <comment>".
func (c Command) String() string { return c.Line() + c.trailer(Selectors{}) }

// trailer is the comment after the command, its runner named by sel.
func (c Command) trailer(sel Selectors) string {
	by := Block(c.RunBy).Render(sel)
	switch {
	case by != "" && c.Comment != "":
		return "  # run by " + by + ", " + c.Comment
	case by != "":
		return "  # run by " + by
	case c.Comment != "":
		return "  # " + c.Comment
	}
	return ""
}

// Quote returns s as one shell word: unchanged when it is made of safe
// characters (every npub, naddr and nostr:// URL is) around its
// placeholders ("<...>", which the user replaces), else single-quoted.
func Quote(s string) string {
	if s != "" && safeWord(placeholders().ReplaceAllString(s, "")) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// placeholders are the "<...>" parts of a word the user fills in. Compiled
// on first use: a command that suggests nothing does not pay for it at
// start-up.
var placeholders = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[^<>']*>`) })

func safeWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r)) {
			return false
		}
	}
	return true
}
