package interop

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	// Bech32 data characters: everything but 1, b, i and o.
	bech32Re = regexp.MustCompile(`\b(?:npub|naddr|nevent|note|nprofile)1[02-9ac-hj-np-z]{6,}`)
	// A nostr:// URL ends at whitespace, a quote, or a closing bracket.
	nostrURLRe = regexp.MustCompile(`nostr://[^\s"'<>()\[\]{}` + "`" + `]+`)
)

type decoded struct {
	Value string `json:"value"`
	Type  string `json:"type"`
	Data  any    `json:"data"`
	URL   bool   `json:"url"`
	Error string `json:"error"`
}

// decodePrinted decodes with nostr-tools' nip19 every npub, naddr and
// nostr:// URL that roster printed in results (stdout and stderr, human and
// --json), and checks each names a person of the suite and, for a
// repository, a kind 30617 coordinate of identifier id (or of another
// identifier in ids). It returns how many values it decoded.
func decodePrinted(t testing.TB, id string, results ...result) int {
	t.Helper()
	seen := map[string]bool{}
	var values []string
	for _, r := range results {
		for _, s := range []string{r.Out, r.Err} {
			for _, v := range append(bech32Re.FindAllString(s, -1), nostrURLRe.FindAllString(s, -1)...) {
				v = strings.TrimRight(v, ".,;:")
				if !seen[v] {
					seen[v] = true
					values = append(values, v)
				}
			}
		}
	}
	if len(values) == 0 {
		t.Errorf("roster printed no npub, naddr or nostr:// URL in %d results", len(results))
		return 0
	}
	var resp struct {
		Decoded []decoded `json:"decoded"`
	}
	node(t, "nip19", map[string]any{"values": values}, &resp)
	known := func(pk any) bool {
		return slices.ContainsFunc(everyone, func(p person) bool { return p.pk == pk })
	}
	for _, d := range resp.Decoded {
		if d.Error != "" {
			t.Errorf("nostr-tools cannot decode %q that roster printed: %s", d.Value, d.Error)
			continue
		}
		data, _ := d.Data.(map[string]any)
		switch d.Type {
		case "npub":
			if !known(d.Data) {
				t.Errorf("%s decodes to %v, nobody in this test", d.Value, d.Data)
			}
		case "naddr", "nostr-url":
			kind, hasKind := data["kind"].(float64)
			if !known(data["pubkey"]) || data["identifier"] != id || (hasKind && kind != 30617) || (d.Type == "naddr" && !hasKind) {
				t.Errorf("%s decodes to %v, want a kind 30617 coordinate of %q by someone in this test", d.Value, data, id)
			}
		default:
			t.Errorf("%s decodes as %s: roster prints no such value", d.Value, d.Type)
		}
	}
	return len(resp.Decoded)
}
