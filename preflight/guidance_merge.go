package preflight

import (
	"github.com/roster-cli/roster/suggest"
)

// mergeGuidance makes the guidance name each command once (errors and
// advice name the next command, and a list that repeats `roster repo
// follow-lead` per person reads as several runs): suggest.Group joins the
// advice that shares a command, and within it the per-person "record the
// <transition> of <npub>" parts become one "record the start of A and the
// end of B".
func mergeGuidance(advice []suggest.Advice) []suggest.Guidance {
	gs := suggest.Group(advice)
	for i := range gs {
		if gs[i].Command != nil {
			gs[i].Whats = mergeRecordAdvice(gs[i].Whats)
		}
	}
	return gs
}

// GuidanceText is the guidance as --json prints it, one line each:
// "<what>; also <what> with: <command>" (sel adds the user's selectors).
func GuidanceText(gs []suggest.Guidance, sel suggest.Selectors) []string {
	return suggest.Texts(gs, sel)
}

// mergeRecordAdvice folds "record the start of A", "record the end of B"
// into "record the start of A and the end of B", keeping the other advice
// (in order) around it. The parts are preflight's own phrases (guidance
// builds them), never text read back from a rendering.
func mergeRecordAdvice(whats []suggest.Block) []suggest.Block {
	const prefix = "record the "
	var records, out []suggest.Block
	at := -1
	for _, w := range whats {
		if rest, ok := w.TrimPrefix(prefix); ok {
			if at < 0 {
				at = len(out)
				out = append(out, nil)
			}
			if len(records) > 0 {
				rest = append(suggest.Block{suggest.Say("the ")}, rest...)
			}
			records = append(records, rest)
			continue
		}
		out = append(out, w)
	}
	if at >= 0 {
		out[at] = append(suggest.Block{suggest.Say(prefix)}, joinAnd(records)...)
	}
	return out
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(parts []suggest.Block) suggest.Block {
	if len(parts) <= 1 {
		return suggest.Join(parts, "")
	}
	return suggest.Join([]suggest.Block{suggest.Join(parts[:len(parts)-1], ", "), parts[len(parts)-1]}, " and ")
}
