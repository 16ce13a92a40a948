package report

import "github.com/roster-cli/roster/graph"

// ActorAnyMaintainer is the `actor` of a finding that names no one person
// (docs/json.md).
const ActorAnyMaintainer = "any-maintainer"

// findingIn is FindingOf with who can act on the finding: its affected
// signer (an npub) when it has one, else any current maintainer. A finding
// whose actor is a confirmed maintainer of the resolution, or any
// maintainer, is one the current maintainers can act on (`repo health
// --strict` counts its warnings); an author-scoped finding about somebody
// outside the current roster (a removed maintainer, an invitee) is not.
func findingIn(r *graph.Resolution, f graph.Finding) Finding {
	out := FindingOf(f)
	switch {
	case f.Author == "":
		out.Actor, out.ActorIsMaintainer = ActorAnyMaintainer, true
	default:
		out.Actor = graph.Npub(f.Author)
		out.ActorIsMaintainer = r != nil && r.Confirmed(f.Author)
		if out.Suggested != nil && len(out.Suggested.RunBy) == 0 {
			// The author runs it: in their own home when that is not the reader.
			c := out.Suggested.ByPerson(out.Actor)
			out.Suggested = &c
		}
	}
	return out
}

// CountFindings counts findings by severity; gating counts the warnings
// that fail `repo health --strict` (all of them with all, else those the
// current maintainers can act on).
func CountFindings(fs []Finding, all bool) (errs, warns, gating int) {
	for _, f := range fs {
		if f.Severity == graph.SeverityError {
			errs++
			continue
		}
		warns++
		if all || f.ActorIsMaintainer {
			gating++
		}
	}
	return errs, warns, gating
}
