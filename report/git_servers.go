package report

import "github.com/roster-cli/roster/suggest"

// GitServer is one advertised clone server compared with the published
// kind 30618 state (`git_servers` in roster.repo-health/v1 and
// roster.state/v1; docs/json.md).
type GitServer struct {
	URL string `json:"url"`
	// Verdict is matches, ahead (the server has commits or refs the state
	// does not name: pushed, not published), behind-or-rewound (the state
	// names commits the server does not serve at that ref), diverged (both),
	// differs (the values differ and this checkout cannot tell how: the
	// objects are not in it), or unreachable (no listing: incomplete
	// evidence).
	Verdict string `json:"verdict"`
	// Reason is why an unreachable server could not be listed (null else).
	Reason *string `json:"reason"`
	// Refs compares each branch and tag of the state or the server that
	// differs; [] when the server matches or was not listed.
	Refs []GitServerRef `json:"refs"`
	// Command is what repairs the drift (null for matches and unreachable).
	Command *string `json:"command"`
	// Suggested is the repair as a value: a finding built from this
	// server carries it bare, to be pasted by the reader's selectors.
	Suggested *suggest.Command `json:"-"`
}

// GitServerRef is one ref of the state compared with the server's value.
type GitServerRef struct {
	Ref string `json:"ref"`
	// State and Server are the oids (null where the ref is absent).
	State  *string `json:"state"`
	Server *string `json:"server"`
	// Verdict is ahead, behind, diverged, missing (the server lacks a ref
	// the state has), extra (the server has a branch or tag the state
	// lacks), or unknown (the ancestry cannot be told here).
	Verdict string `json:"verdict"`
}
