package report

import (
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
)

// Identity is what roster knows of a person beyond their key: the name
// their own kind 0 profile gives (a self-declared label: anyone can claim
// any name) and their NIP-05 address when its domain lists their key.
type Identity struct {
	Name  string
	NIP05 string
}

// Names are the identities of the people a document shows, by npub; a
// person roster knows nothing about is absent.
type Names map[string]Identity

// NamesOf maps a discovery's profiles onto npubs.
func NamesOf(profiles map[string]discovery.Profile) Names {
	out := Names{}
	for pk, p := range profiles {
		if p.Name != "" || p.NIP05 != "" {
			out[graph.Npub(pk)] = Identity{Name: p.Name, NIP05: p.NIP05}
		}
	}
	return out
}

// Name is npub's name, nil when unknown (JSON null).
func (n Names) Name(npub string) *string {
	if id, ok := n[npub]; ok && id.Name != "" {
		s := id.Name
		return &s
	}
	return nil
}

// NIP05 is npub's verified NIP-05 address, nil when there is none.
func (n Names) NIP05(npub string) *string {
	if id, ok := n[npub]; ok && id.NIP05 != "" {
		s := id.NIP05
		return &s
	}
	return nil
}
