// Package gitstate reads and writes the local side of a NIP-34 repository: which
// coordinate a checkout selects (the spec's resolution order), nostr:// URLs and
// naddrs, local refs, kind 30618 state events and directional ref diffs, and
// whether the advertised Git servers serve a state's objects. It reads with
// go-git, and runs the git command (gitcmd.go: the GIT_* environment removed,
// every run under a timeout) only where go-git cannot: checkouts in formats
// go-git refuses (worktreeConfig, sha256, reftable), configs with includes,
// edits of .git/config, and ancestry checks. It is the one package of roster
// that does either.
package gitstate

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/graph"
)

// EncodeNaddr returns the NIP-19 naddr of c with optional relay hints. It
// returns "" for a coordinate that cannot be encoded (invalid pubkey), which
// callers only produce by skipping Valid().
func EncodeNaddr(c graph.Coordinate, relays []string) string {
	s, err := nip19.EncodeEntity(c.Pubkey, c.Kind, c.Identifier, relays)
	if err != nil {
		return ""
	}
	return s
}

// DecodeNaddr parses an naddr (with or without a "nostr:" prefix) into a
// coordinate and its relay hints. Only kind 30617 repository announcements
// are accepted: every naddr a repository command reads names a repository.
func DecodeNaddr(s string) (graph.Coordinate, []string, error) {
	c, relays, err := DecodeAddress(s)
	if err != nil {
		return graph.Coordinate{}, nil, err
	}
	s = strings.TrimPrefix(strings.TrimSpace(s), "nostr:")
	if c.Kind != graph.KindAnnouncement {
		return graph.Coordinate{}, nil, fmt.Errorf("naddr %s names a kind %d event, not a kind %d repository announcement", short(s), c.Kind, graph.KindAnnouncement)
	}
	if !c.Valid() {
		return graph.Coordinate{}, nil, fmt.Errorf("naddr %s has an empty identifier", short(s))
	}
	return c, relays, nil
}

// DecodeAddress parses an naddr of any kind (with or without a "nostr:"
// prefix) into its coordinate and normalized relay hints; the caller checks
// the kind and the identifier, which may be empty. The TLV is read here
// rather than by go-nostr's nip19.Decode, which panics on a short kind field
// in hostile input: every naddr roster reads goes through here.
func DecodeAddress(s string) (graph.Coordinate, []string, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "nostr:")
	prefix, bits5, err := bech32.DecodeNoLimit(strings.ToLower(s))
	if err != nil {
		return graph.Coordinate{}, nil, fmt.Errorf("%q is not a valid naddr: %v", short(s), err)
	}
	if prefix != "naddr" {
		return graph.Coordinate{}, nil, fmt.Errorf("%q is an %s, not an naddr", short(s), prefix)
	}
	data, err := bech32.ConvertBits(bits5, 5, 8, false)
	if err != nil {
		return graph.Coordinate{}, nil, fmt.Errorf("%q is not a valid naddr: %v", short(s), err)
	}
	var c graph.Coordinate
	var relays []string
	seen := map[byte]bool{}
	for len(data) > 0 {
		if len(data) < 2 || len(data) < 2+int(data[1]) {
			return graph.Coordinate{}, nil, fmt.Errorf("naddr %s is truncated", short(s))
		}
		typ, v := data[0], data[2:2+int(data[1])]
		data = data[2+len(v):]
		switch typ {
		case tlvIdentifier:
			if !seen[typ] {
				c.Identifier = string(v)
			}
		case tlvRelay:
			u, ok := normalizeRelay(string(v))
			if !ok {
				// A hint the reader would not dial is said, never dropped.
				return graph.Coordinate{}, nil, fmt.Errorf("naddr %s: relay hint %q is not a relay URL", short(s), short(string(v)))
			}
			relays = appendUnique(relays, u)
		case tlvAuthor:
			if len(v) != 32 {
				return graph.Coordinate{}, nil, fmt.Errorf("naddr %s has a %d-byte author, want 32", short(s), len(v))
			}
			if !seen[typ] {
				c.Pubkey = hex.EncodeToString(v)
			}
		case tlvKind:
			if len(v) != 4 {
				return graph.Coordinate{}, nil, fmt.Errorf("naddr %s has a %d-byte kind, want 4", short(s), len(v))
			}
			if !seen[typ] {
				c.Kind = int(binary.BigEndian.Uint32(v))
			}
		}
		seen[typ] = true
	}
	if !seen[tlvIdentifier] || !seen[tlvAuthor] || !seen[tlvKind] {
		return graph.Coordinate{}, nil, fmt.Errorf("naddr %s lacks an identifier, author or kind", short(s))
	}
	return c, relays, nil
}

// NIP-19 TLV types used by naddr.
const (
	tlvIdentifier = 0
	tlvRelay      = 1
	tlvAuthor     = 2
	tlvKind       = 3
)

// DecodePubkey accepts an npub or 64-hex pubkey and returns lowercase hex.
func DecodePubkey(s string) (string, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(strings.ToLower(s), "npub1") {
		prefix, v, err := nip19.Decode(strings.ToLower(s))
		if err != nil || prefix != "npub" {
			return "", fmt.Errorf("%q is not a valid npub (63 characters ending in a checksum): check it for a typo, or pass the 64-hex pubkey", short(s))
		}
		return v.(string), nil
	}
	if nostr.IsValid32ByteHex(strings.ToLower(s)) {
		return strings.ToLower(s), nil
	}
	return "", fmt.Errorf("%q is neither an npub nor a 64-hex pubkey", short(s))
}

// EncodeNpub is graph.Npub, the one npub encoding. Callers in this module
// use graph.Npub; EncodeNpub remains only for the cmd/roster files other
// work is changing (suggested commands, project output) and goes once they
// switch.
func EncodeNpub(pubkey string) string { return graph.Npub(pubkey) }

// short trims long user input in error messages.
func short(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
