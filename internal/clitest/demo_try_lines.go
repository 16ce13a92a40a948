package clitest

import (
	"strings"
	"testing"
)

// ShellWords splits a printed command as a POSIX shell does the forms
// roster prints: words plain or single-quoted, and a backslashed quote
// outside quotes (the middle of a quoted word that holds a quote).
func ShellWords(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	in, started := false, false
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\'':
			in, started = !in, true
		case r == '\\' && !in && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			started = true
		case r == ' ' && !in:
			if started {
				words = append(words, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if in {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if started {
		words = append(words, cur.String())
	}
	return words
}
