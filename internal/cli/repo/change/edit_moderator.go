package change

import (
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/pflag"
)

// moderatorFlags are `repo edit --add-moderator` and `--remove-moderator`:
// one moderator relationship, with the same governance flags as a
// maintainer change (--lead-maintainer as the choice, --no-lead-maintainer).
type moderatorFlags struct{ add, remove string }

// registerModeratorFlags adds the two flags, bound to add and remove.
func registerModeratorFlags(f *pflag.FlagSet, add, remove *string) {
	f.StringVar(add, "add-moderator", "", "assign one moderator (npub, hex or NIP-05 name@domain)")
	f.StringVar(remove, "remove-moderator", "", "withdraw your assignment of one moderator")
}

func (m *moderatorFlags) set() bool { return m.add != "" || m.remove != "" }

// intent maps the moderator flags to one intent; another relationship
// action beside them (or both of them) is a usage error (exit 2).
func (m *moderatorFlags) intent(otherAction bool, lead string, noLead, force bool) (preflight.Intent, error) {
	in := preflight.Intent{NoLead: noLead, Force: force}
	if otherAction || m.add != "" && m.remove != "" {
		return in, cmdutil.UsageErr("change one relationship at a time: pass only one of --add-maintainer, --remove-maintainer, --add-moderator, --remove-moderator, --acknowledge-maintainer-change, --fix-maintainers")
	}
	flag, value := "add-moderator", m.add
	in.Action = preflight.ActAddModerator
	if m.remove != "" {
		flag, value, in.Action = "remove-moderator", m.remove, preflight.ActRemoveModerator
	}
	var err error
	if in.Subject, err = gitstate.DecodePubkey(value); err != nil {
		return in, cmdutil.UsageErr("--%s %q: %v", flag, value, err)
	}
	if lead != "" {
		if in.Lead, err = gitstate.DecodePubkey(lead); err != nil {
			return in, cmdutil.UsageErr("--%s %q: %v", "lead-maintainer", lead, err)
		}
	}
	return in, nil
}
