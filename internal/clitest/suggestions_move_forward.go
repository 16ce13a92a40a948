package clitest

import (
	"strings"
	"testing"
)

// CommandStarting is the first of cmds starting with prefix.
func CommandStarting(t *testing.T, cmds []string, prefix string) string {
	t.Helper()
	for _, c := range cmds {
		if strings.HasPrefix(c, prefix) {
			return c
		}
	}
	t.Fatalf("no command starts with %q: %q", prefix, cmds)
	return ""
}
