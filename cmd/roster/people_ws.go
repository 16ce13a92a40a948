package main

import (
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/sections"
)

// wsPersonJSON names a pubkey both ways, with its workspace role.
type wsPersonJSON struct {
	Npub   string `json:"npub"`
	Pubkey string `json:"pubkey"`
	Role   string `json:"role"`
}

func wsPerson(pk string, role sections.Role) wsPersonJSON {
	return wsPersonJSON{Npub: graph.Npub(pk), Pubkey: pk, Role: string(role)}
}
