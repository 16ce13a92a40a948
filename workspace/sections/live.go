package sections

import "github.com/nbd-wtf/go-nostr"

// ProjectionFilters are the filters the session asks for its workspace's
// projection: NIP-SW's d=<owner>, and Buzz relay's d=<owner>:<reader> for
// this reader. A live subscription with them (`workspace show --watch`,
// over a connection authenticated as the reader) sees every new revision.
func (s *Session) ProjectionFilters() []nostr.Filter {
	return []nostr.Filter{{Kinds: []int{KindProjection}, Tags: nostr.TagMap{"d": {s.Owner, BuzzD(s.Owner, s.Me)}}}}
}
