package graph

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// State is a parsed kind 30618 repository state event (maintainers.md
// "Repository state"): pure data, read by ParseState.
type State struct {
	EventID    string
	Author     string
	CreatedAt  int64
	Identifier string
	// Head is the branch HEAD points at ("refs/heads/main" from
	// "ref: refs/heads/main"), or "" when the event has none.
	Head string
	// Refs holds refs/heads/* and refs/tags/* (peeled "^{}" entries included)
	// mapped to lowercase hex object ids.
	Refs map[string]string
	// Invalid lists ref tags that were skipped, with the reason, so callers
	// can report them (health) instead of silently trusting a partial map.
	Invalid []InvalidRef
}

// InvalidRef is one skipped tag of a state event.
type InvalidRef struct {
	Name, Value, Reason string
}

// ParseState reads a kind 30618 event the way ngit writes it: `d`, then one
// [refname, value] tag per ref in no fixed order. Tags whose names do not start
// with refs/heads/, refs/tags/ or HEAD are ignored; ref tags with values that
// are not object ids are skipped and listed in Invalid. It does not verify
// the signature: callers pass verified events.
func ParseState(evt *nostr.Event) (*State, error) {
	if evt == nil {
		return nil, errors.New("no state event")
	}
	if evt.Kind != KindState {
		return nil, fmt.Errorf("event %s is kind %d, not a kind %d repository state", evt.ID, evt.Kind, KindState)
	}
	s := &State{EventID: evt.ID, Author: evt.PubKey, CreatedAt: int64(evt.CreatedAt), Refs: map[string]string{}}
	haveD := false
	for _, tag := range evt.Tags {
		if len(tag) < 2 {
			continue
		}
		name, value := tag[0], tag[1]
		switch {
		case name == "d":
			if !haveD {
				s.Identifier, haveD = value, true
			}
		case name == "HEAD":
			target, ok := strings.CutPrefix(value, "ref: ")
			switch {
			case !ok || !strings.HasPrefix(target, "refs/heads/") || len(target) == len("refs/heads/"):
				s.Invalid = append(s.Invalid, InvalidRef{name, value, `HEAD must be "ref: refs/heads/<branch>"`})
			case s.Head != "" && s.Head != target:
				s.Invalid = append(s.Invalid, InvalidRef{name, value, "second HEAD tag ignored"})
			default:
				s.Head = target
			}
		case strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/tags"):
			if reason := RefNameProblem(name); reason != "" {
				s.Invalid = append(s.Invalid, InvalidRef{name, value, reason})
				continue
			}
			if !IsObjectID(value) {
				s.Invalid = append(s.Invalid, InvalidRef{name, value, "value is not a 40- or 64-hex object id"})
				continue
			}
			if prev, dup := s.Refs[name]; dup {
				if prev != value {
					s.Invalid = append(s.Invalid, InvalidRef{name, value, "duplicate ref with a different value; the first is kept"})
				}
				continue
			}
			s.Refs[name] = value
		}
	}
	if !haveD || s.Identifier == "" {
		return nil, fmt.Errorf("state event %s has no d tag naming the repository", evt.ID)
	}
	return s, nil
}

// RefNameProblem says why name cannot be a ref of a state event ("" when it
// can): it rejects names that cannot be refs: an empty branch or tag
// name, "^{}" on anything but a tag, and the "refs/tags" prefix without its
// slash.
func RefNameProblem(name string) string {
	base := strings.TrimSuffix(name, "^{}")
	peeled := base != name
	switch {
	case strings.HasPrefix(base, "refs/heads/"):
		if peeled {
			return "only tags have peeled ^{} entries"
		}
		if len(base) == len("refs/heads/") {
			return "empty branch name"
		}
	case strings.HasPrefix(base, "refs/tags/"):
		if len(base) == len("refs/tags/") {
			return "empty tag name"
		}
	default:
		return "not a refs/heads/ or refs/tags/ name"
	}
	if strings.ContainsAny(base, " \t\n~:?*[\\") || strings.Contains(base, "..") {
		return "not a valid Git ref name"
	}
	return ""
}

// IsObjectID accepts lowercase SHA-1 or SHA-256 hex object ids.
func IsObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
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
