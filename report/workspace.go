package report

// WorkspacePerson names a pubkey both ways, with its workspace role.
type WorkspacePerson struct {
	Npub   string `json:"npub"`
	Pubkey string `json:"pubkey"`
	Role   string `json:"role"`
}
