package repo

import (
	"github.com/roster-cli/roster/graph"
)

// ViewerNpub is the signed-in user of a view as an npub ("" for nobody).
func ViewerNpub(v *RepoView) string {
	if v == nil || v.Viewer == "" {
		return ""
	}
	return graph.Npub(v.Viewer)
}
