package cache

import (
	"strconv"

	"github.com/nbd-wtf/go-nostr"
)

// isReplaceable covers NIP-01 replaceable (one per kind and pubkey) and
// addressable (one per kind, pubkey and d) kinds.
func isReplaceable(kind int) bool {
	return kind == 0 || kind == 3 || (kind >= 10000 && kind < 20000) || isAddressable(kind)
}

func isAddressable(kind int) bool { return kind >= 30000 && kind < 40000 }

func isEphemeral(kind int) bool { return kind >= 20000 && kind < 30000 }

// addressKey is "kind:pubkey:d" (d empty for replaceable kinds), the NIP-01
// address whose latest event the cache keeps.
func addressKey(evt *nostr.Event) string {
	d := ""
	if isAddressable(evt.Kind) {
		for _, tag := range evt.Tags {
			if len(tag) >= 2 && tag[0] == "d" {
				d = tag[1]
				break
			}
		}
	}
	return strconv.Itoa(evt.Kind) + ":" + evt.PubKey + ":" + d
}
