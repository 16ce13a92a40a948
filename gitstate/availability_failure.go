package gitstate

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/suggest"
)

// The stable codes of a write refused for object availability.
const (
	// ObjectsUnavailable: some OID is advertised by no Git server that
	// answered, or the repository advertises no Git server at all. Exit 3.
	ObjectsUnavailable = "objects-unavailable"
	// ObjectsUnknown: there were OIDs to check and Git servers to ask, but
	// none could be listed. Exit 4.
	ObjectsUnknown = "objects-unknown"
)

// AvailabilityFailure is why a write that needs every OID fetchable may not
// proceed, in the words and commands the user needs.
type AvailabilityFailure struct {
	Code string
	// Evidence is true for ObjectsUnknown: not enough evidence (exit 4)
	// rather than a refusal (exit 3).
	Evidence bool
	// Lines are the message, one line each; Commands what to run.
	Lines    []string
	Commands []suggest.Command
	// Missing are the refs to push (ObjectsUnavailable with servers).
	Missing []MissingRef
}

// Failure is nil when every OID is available (or there was nothing to
// check). With OIDs to check and no Git server others can fetch from
// (the announcements have no clone URL, nostr:// ones aside, or only
// URLs that cannot be asked: another maintainer's file:// path, a form git
// does not clone from) the OIDs cannot be fetched from any advertised
// server: that is ObjectsUnavailable, fixed by advertising a server and
// pushing to it, not a lack of evidence that a retry could cure.
func (a Availability) Failure() *AvailabilityFailure {
	switch {
	case a.Verdict == Available:
		return nil
	case !a.contacted():
		f := &AvailabilityFailure{Code: ObjectsUnavailable}
		if len(a.Servers) == 0 {
			f.Lines = []string{"the repository's announcements advertise no Git server (no clone URL), so no object of the state can be fetched:"}
		} else {
			f.Lines = []string{"the repository's announcements advertise no Git server others can fetch from, so no object of the state can be fetched:"}
		}
		for _, r := range a.Refs {
			f.Lines = append(f.Lines, fmt.Sprintf("  %s at %s", r.Ref, r.OID))
		}
		f.Lines = append(f.Lines, serverLines(a)...)
		f.Lines = append(f.Lines, "add a clone URL others can fetch from (https://, ssh://, git://) to your announcement, push these refs to that server, then rerun")
		f.Commands = []suggest.Command{suggest.Roster("repo", "edit", "--clone", "<git-server-url>").Because("advertise the Git server that serves these objects in your announcement")}
		return f
	case a.Verdict == Missing:
		f := &AvailabilityFailure{Code: ObjectsUnavailable, Missing: a.Missing,
			Lines: []string{"these objects of the state cannot be fetched from any of the repository's Git servers that answered:"}}
		for _, m := range a.Missing {
			f.Lines = append(f.Lines, fmt.Sprintf("  %s at %s: %s", m.Ref, m.OID, lackLine(m.LackedBy)))
			f.Commands = append(f.Commands, m.Push.Because("from the checkout that has "+m.OID))
		}
		f.Lines = append(f.Lines, serverLines(a)...)
		f.Lines = append(f.Lines, "push them (the commands below, run in a checkout that has the objects), then rerun")
		return f
	default:
		f := &AvailabilityFailure{Code: ObjectsUnknown, Evidence: true,
			Lines: []string{"cannot tell whether the state's objects can be fetched: no Git server of the repository answered"}}
		f.Lines = append(f.Lines, serverLines(a)...)
		f.Lines = append(f.Lines, "rerun once a Git server answers (--timeout bounds the wait), or advertise one others can fetch from (https://, ssh://, git://)")
		return f
	}
}

func lackLine(servers []string) string {
	switch len(servers) {
	case 0:
		return "no server that answered serves it"
	case 1:
		return servers[0] + " does not serve it"
	}
	return "none of " + strings.Join(servers, ", ") + " serves it"
}

// serverLines name each server that did not answer or was not asked, and
// why, in plain words.
func serverLines(a Availability) []string {
	var out []string
	for _, s := range a.Servers {
		name := s.URL
		if s.Announced != "" {
			name = fmt.Sprintf("%s (announced as %s)", s.URL, s.Announced)
		}
		switch {
		case s.Status == ServerUnreachable:
			out = append(out, fmt.Sprintf("  %s unreachable: %s", name, s.Detail))
		case s.Status == ServerSkipped && s.Reason != ReasonNotNeeded:
			out = append(out, fmt.Sprintf("  %s not asked (%s): %s", name, s.Reason, s.Detail))
		}
	}
	return out
}

// AvailabilityDetails are the facts of a for a --json error's details:
// each checked ref, each server's outcome, and the refs to push.
func AvailabilityDetails(a Availability) map[string]any {
	refs := []map[string]any{}
	for _, r := range a.Refs {
		refs = append(refs, map[string]any{"ref": r.Ref, "oid": r.OID, "served_by": orEmpty(r.ServedBy)})
	}
	servers := []map[string]any{}
	for _, s := range a.Servers {
		servers = append(servers, map[string]any{"url": s.URL, "announced": s.Announced, "status": string(s.Status), "reason": string(s.Reason), "detail": s.Detail,
			"served": orEmpty(s.Served), "lacks": orEmpty(s.Lacks)})
	}
	missing := []map[string]any{}
	for _, m := range a.Missing {
		missing = append(missing, map[string]any{"ref": m.Ref, "oid": m.OID, "lacked_by": orEmpty(m.LackedBy), "push": m.Push.Line()})
	}
	return map[string]any{"verdict": string(a.Verdict), "refs": refs, "servers": servers, "missing": missing}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Notes are what a passing check still has to say: each server that did
// not answer or was not asked (another maintainer's local path, an
// unsupported form), and why, one line each.
func (a Availability) Notes() []string {
	var out []string
	for _, l := range serverLines(a) {
		out = append(out, strings.TrimSpace(l))
	}
	return out
}
