package groups

import "github.com/nbd-wtf/go-nostr"

// ReadFilters are the filters Read asks for group id (ReadMember's with
// me, "" for none): the relay-signed 39000-39003 and, for me, the 9000 and
// 9001 naming me. A live subscription with them (`group show --watch`)
// sees every event that can change what Read builds.
func ReadFilters(id, me string) []nostr.Filter {
	filters := []nostr.Filter{{Kinds: StateKinds, Tags: nostr.TagMap{"d": {id}}}}
	if me != "" {
		filters = append(filters, nostr.Filter{Kinds: []int{KindPutUser, KindRemoveUser}, Tags: nostr.TagMap{"h": {id}, "p": {me}}})
	}
	return filters
}
