package repo

import (
	"strconv"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/termtext"
)

// TagTime is a role tag's boundary at index i as a date, "" when absent,
// "defer" kept as the word.
func TagTime(t []string, i int) string {
	if len(t) <= i || t[i] == "" {
		return ""
	}
	if t[i] == "defer" {
		return "defer"
	}
	n, err := strconv.ParseInt(t[i], 10, 64)
	if err != nil {
		return termtext.Line(t[i])
	}
	return graph.HumanTime(n)
}
