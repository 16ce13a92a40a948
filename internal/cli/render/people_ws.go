package render

import (
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections"
)

func WsPerson(pk string, role sections.Role) report.WorkspacePerson {
	return report.WorkspacePerson{Npub: graph.Npub(pk), Pubkey: pk, Role: string(role)}
}
