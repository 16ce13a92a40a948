package gitstate

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// The kind 30618 parser is pure and lives in graph (graph/state.go); these
// names stay so callers written against gitstate keep compiling.

// State is graph.State.
//
// Deprecated: use graph.State.
type State = graph.State

// InvalidRef is graph.InvalidRef.
//
// Deprecated: use graph.InvalidRef.
type InvalidRef = graph.InvalidRef

// ParseState is graph.ParseState.
//
// Deprecated: use graph.ParseState.
func ParseState(evt *nostr.Event) (*State, error) { return graph.ParseState(evt) }

func refNameProblem(name string) string { return graph.RefNameProblem(name) }

func isObjectID(s string) bool { return graph.IsObjectID(s) }
