package projects

import "github.com/nbd-wtf/go-nostr"

// ReadFilters are the filters Read asks for project c: its relay-signed
// kind 30623 Project State. A live subscription with them (`project show
// --watch`) sees every new projection.
func ReadFilters(c Coordinate) []nostr.Filter {
	return []nostr.Filter{{Kinds: []int{KindState}, Tags: nostr.TagMap{"d": {c.Address()}}}}
}
