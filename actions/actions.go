// Package actions computes the effective results of NIP-34 role-scoped
// events (maintainers.md "Authorization summary", "Pre-existing role-scoped
// actions become newly visible"): for each issue, patch and pull request,
// its current status, label set, subject and cover note, counting only the
// events whose author was authorized at their created_at (a maintainer or
// moderator whose effective role covered that time, per graph) or is the
// target's own author. Pure: events and an authority in, results out.
package actions

import (
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// The kinds this package reads (NIP-34, NIP-32).
const (
	KindPatch         = 1617
	KindPullRequest   = 1618
	KindIssue         = 1621
	KindCoverNote     = 1624
	KindStatusOpen    = 1630
	KindStatusApplied = 1631 // applied / merged / resolved
	KindStatusClosed  = 1632
	KindStatusDraft   = 1633
	KindLabel         = 1985
)

// TargetKinds are the events role-scoped actions apply to; EventKinds the
// role-scoped actions themselves.
var (
	TargetKinds = []int{KindPatch, KindPullRequest, KindIssue}
	EventKinds  = []int{KindStatusOpen, KindStatusApplied, KindStatusClosed, KindStatusDraft, KindLabel, KindCoverNote}
)

// IsTarget reports whether kind is an issue, patch or pull request.
func IsTarget(kind int) bool {
	return kind == KindPatch || kind == KindPullRequest || kind == KindIssue
}

// The label namespaces ngit reads: hashtags and the subject.
const (
	NamespaceHashtag = "#t"
	NamespaceSubject = "#subject"
)

// ActionOf is the graph action an event is (status, label, subject, cover
// note), and false for any other event. A kind 1985 is a subject when it
// labels in the `#subject` namespace (an `L` tag and an `l` tag naming it),
// a label when it does so in `#t`, and no action otherwise.
func ActionOf(e *nostr.Event) (graph.Action, bool) {
	switch e.Kind {
	case KindStatusOpen, KindStatusApplied, KindStatusClosed, KindStatusDraft:
		return graph.ActionStatus, true
	case KindCoverNote:
		return graph.ActionCoverNote, true
	case KindLabel:
		if len(labelValues(e, NamespaceSubject)) > 0 {
			return graph.ActionSubject, true
		}
		if len(labelValues(e, NamespaceHashtag)) > 0 {
			return graph.ActionLabel, true
		}
	}
	return "", false
}

// StatusName names a status kind.
func StatusName(kind int) string {
	switch kind {
	case KindStatusApplied:
		return "applied"
	case KindStatusClosed:
		return "closed"
	case KindStatusDraft:
		return "draft"
	}
	return "open"
}

// labelValues are e's `l` values in namespace ns, when e declares ns in an
// `L` tag (NIP-32; ngit reads both).
func labelValues(e *nostr.Event, ns string) []string {
	declared := false
	for _, t := range e.Tags {
		if len(t) >= 2 && t[0] == "L" && t[1] == ns {
			declared = true
		}
	}
	if !declared {
		return nil
	}
	var out []string
	for _, t := range e.Tags {
		if len(t) >= 3 && t[0] == "l" && t[2] == ns && t[1] != "" {
			out = append(out, t[1])
		}
	}
	return out
}

// TargetRefs are the event ids e refers to with lowercase `e` tags, the
// root first (NIP-34 statuses mark it "root"; ngit's labels and cover
// notes use plain `e` tags), each once.
func TargetRefs(e *nostr.Event) []string {
	var root, rest []string
	seen := map[string]bool{}
	for _, t := range e.Tags {
		if len(t) < 2 || t[0] != "e" || !isHex64(t[1]) || seen[t[1]] {
			continue
		}
		seen[t[1]] = true
		if len(t) >= 4 && t[3] == "root" {
			root = append(root, t[1])
		} else {
			rest = append(rest, t[1])
		}
	}
	return append(root, rest...)
}

// RepositoryRefs are the repository coordinates (`30617:<pubkey>:<d>`) e
// names in `a` tags, each once.
func RepositoryRefs(e *nostr.Event) []graph.Coordinate {
	var out []graph.Coordinate
	seen := map[string]bool{}
	for _, t := range e.Tags {
		if len(t) < 2 || t[0] != "a" || seen[t[1]] {
			continue
		}
		parts := strings.SplitN(t[1], ":", 3)
		if len(parts) != 3 || parts[0] != "30617" || !isHex64(parts[1]) || parts[2] == "" {
			continue
		}
		seen[t[1]] = true
		out = append(out, graph.NewCoordinate(parts[1], parts[2]))
	}
	return out
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
