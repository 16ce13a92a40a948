package report

import (
	"strings"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/termtext"
)

// Target sources (Target.Source, docs/json.md): what selected the
// repository a write changes.
const (
	TargetFlag            = "--repo"
	TargetEnv             = "ROSTER_REPO"
	TargetGitConfig       = "nostr.repo"
	TargetRemote          = "remote"
	TargetMaintainersYAML = "maintainers.yaml"
)

// Target is the repository a write changes and where that choice came
// from, named before its preview: `target repository: <name> <naddr>
// (from …)`.
type Target struct {
	Name  string `json:"name"` // the announcement's name; "" when it has none
	Naddr string `json:"naddr"`
	// Source is one of the Target* constants.
	Source string `json:"source"`
	// Remote is the remote the coordinate came from (the checkout's
	// tracked remote, origin, the sole nostr:// remote, or the one --repo
	// named); null otherwise.
	Remote *string `json:"remote"`
	// From is the source in the words of the target line.
	From string `json:"from"`
	// Overridden are the coordinates (naddrs) the checkout's git config
	// nostr.repo names that --repo (or ROSTER_REPO) overrode: the write
	// uses --repo and says so.
	Overridden []string `json:"overridden"`
}

// TargetOf names the selection of v as a write's target.
func TargetOf(v *discovery.View) Target {
	sel := v.Selection
	t := Target{Naddr: gitstate.EncodeNaddr(sel.Coordinate, nil), From: sel.From(), Overridden: []string{}}
	if v.Resolution != nil {
		t.Name = graph.RepositoryDataOf(v.Resolution).Name
	}
	switch sel.Source {
	case gitstate.SourceFlag:
		t.Source = TargetFlag
		if sel.Via == TargetEnv {
			t.Source = TargetEnv
		}
	case gitstate.SourceGitConfig:
		t.Source = TargetGitConfig
	case gitstate.SourceMaintainersYAML:
		t.Source = TargetMaintainersYAML
	default:
		t.Source = TargetRemote
	}
	if rest, ok := strings.CutPrefix(sel.Detail, "remote "); ok {
		rest, _, _ = strings.Cut(rest, ", ") // the same coordinate on several remotes: the first
		t.Remote = &rest
	}
	for _, c := range sel.Disagrees {
		if c.Coordinate.Pubkey != "" {
			t.Overridden = append(t.Overridden, gitstate.EncodeNaddr(c.Coordinate, nil))
		} else {
			t.Overridden = append(t.Overridden, c.Display())
		}
	}
	return t
}

// Lines are the target as a person reads it: the target line, then one
// line per coordinate nostr.repo names that --repo overrode.
func (t Target) Lines() []string {
	name := termtext.Line(t.Name)
	if name == "" {
		name = "(unnamed)"
	}
	out := []string{"target repository: " + name + " " + t.Naddr + " (from " + t.From + ")"}
	for _, o := range t.Overridden {
		out = append(out, "note: this checkout's git config nostr.repo names another repository, "+o+"; "+t.From+" wins, so the write uses "+t.Naddr)
	}
	return out
}
