package change

import (
	"slices"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/preflight"
)

// withRewind adds --rewind's refs to a --force intent: each a full ref name
// (refs/heads/..., refs/tags/...), only with --force (exit 2 otherwise).
func withRewind(in preflight.Intent, refs []string) (preflight.Intent, error) {
	if len(refs) == 0 {
		return in, nil
	}
	if !in.Force {
		return in, cmdutil.UsageErr("--rewind only narrows a --force: add --force, or drop --rewind")
	}
	var clean []string
	for _, r := range refs {
		if !strings.HasPrefix(r, "refs/heads/") && !strings.HasPrefix(r, "refs/tags/") || strings.ContainsAny(r, ", \t\n") || strings.HasSuffix(r, "^{}") {
			return in, cmdutil.UsageErr("--rewind %q: name a full branch or tag ref (refs/heads/<branch>, refs/tags/<tag>)", r)
		}
		if !slices.Contains(clean, r) {
			clean = append(clean, r)
		}
	}
	slices.Sort(clean)
	in.Rewind = strings.Join(clean, ",")
	return in, nil
}
