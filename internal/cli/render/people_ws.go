package render

import (
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/sections"
)

// WsPersonJSON names a pubkey both ways, with its workspace role.
type WsPersonJSON struct {
	Npub   string `json:"npub"`
	Pubkey string `json:"pubkey"`
	Role   string `json:"role"`
}

func WsPerson(pk string, role sections.Role) WsPersonJSON {
	return WsPersonJSON{Npub: graph.Npub(pk), Pubkey: pk, Role: string(role)}
}
