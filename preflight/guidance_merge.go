package preflight

import "strings"

// mergeGuidance makes the guidance name each command once (errors and
// advice name the next command, and a list that repeats `roster repo
// follow-lead` per person reads as several runs). Identical lines are kept
// once; advice of the form "<what> with: <command>" that shares its command
// with earlier advice is folded into that advice's line, as
// "<what>; also <what> with: <command>", where the per-person "record the
// <transition> of <npub>" parts become one "record the start of A and the
// end of B". Lines without a command stay as written, in order.
func mergeGuidance(lines []string) []string {
	type group struct {
		command string
		whats   []string
	}
	var order []*group // first-seen order; an empty command is a plain line
	byCommand := map[string]*group{}
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l] {
			continue
		}
		seen[l] = true
		what, command, ok := GuidanceCommand(l)
		if !ok {
			order = append(order, &group{whats: []string{l}})
			continue
		}
		if g := byCommand[command]; g != nil {
			g.whats = append(g.whats, what)
			continue
		}
		g := &group{command: command, whats: []string{what}}
		byCommand[command] = g
		order = append(order, g)
	}
	out := make([]string, 0, len(order))
	for _, g := range order {
		if g.command == "" {
			out = append(out, g.whats[0])
			continue
		}
		out = append(out, strings.Join(mergeRecordAdvice(g.whats), GuidanceSeparator)+guidanceWith+g.command)
	}
	return out
}

// GuidanceSeparator joins the advice that shares one command in a merged
// guidance line, so a renderer can list it again one part per line.
const GuidanceSeparator = "; also "

const guidanceWith = " with: "

// GuidanceCommand splits a guidance line "<what> with: <command>"; ok is
// false for advice that names no command (or ends in "with:" and puts the
// command on the next line).
func GuidanceCommand(line string) (what, command string, ok bool) {
	i := strings.LastIndex(line, guidanceWith)
	if i <= 0 || strings.TrimSpace(line[i+len(guidanceWith):]) == "" {
		return "", "", false
	}
	return line[:i], strings.TrimSpace(line[i+len(guidanceWith):]), true
}

// mergeRecordAdvice folds "record the start of A", "record the end of B"
// into "record the start of A and the end of B", keeping the other advice
// (in order) around it.
func mergeRecordAdvice(whats []string) []string {
	const prefix = "record the "
	var records, out []string
	at := -1
	for _, w := range whats {
		if strings.HasPrefix(w, prefix) {
			if at < 0 {
				at = len(out)
				out = append(out, "")
			}
			rest := strings.TrimPrefix(w, prefix)
			if len(records) > 0 {
				rest = "the " + rest
			}
			records = append(records, rest)
			continue
		}
		out = append(out, w)
	}
	if at >= 0 {
		out[at] = prefix + joinAnd(records)
	}
	return out
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
