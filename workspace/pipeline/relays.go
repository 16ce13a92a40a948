package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
)

// RelaySelf is one relay's NIP-11 answer: its `self` (the key that signs
// relay-authoritative state), the raw document for a cache, or why it could
// not be read.
type RelaySelf struct {
	Self string
	Doc  json.RawMessage
	Err  error
}

// UnknownSigner says why nothing that relay returned can be verified.
func (ri RelaySelf) UnknownSigner() string {
	return fmt.Sprintf("the relay's NIP-11 document could not be read, so its signer is unknown: %v", ri.Err)
}

// RelaySelves reads every relay's NIP-11 document in parallel, in the order
// of urls.
func RelaySelves(ctx context.Context, r Relays, urls []string) []RelaySelf {
	out := make([]RelaySelf, len(urls))
	done := make(chan struct{}, len(urls))
	for i, u := range urls {
		go func() {
			defer func() { done <- struct{}{} }()
			info, err := r.RelayInfo(ctx, u)
			if err != nil {
				out[i].Err = err
				return
			}
			out[i].Self, out[i].Doc = info.Self, info.Raw
		}()
	}
	for range urls {
		<-done
	}
	return out
}

// EventsFrom is what relay url returned of a fetch: each relay's state is
// judged against that relay's own self.
func EventsFrom(res *relaypool.FetchResult, url string) []*nostr.Event {
	var evs []*nostr.Event
	for _, e := range res.Events {
		if slices.Contains(res.Sources[e.ID], url) {
			evs = append(evs, e)
		}
	}
	return evs
}

// Outcome renders a relay's fetch status with its reason. A reason from the
// network layer often starts with the status word itself ("failed to
// WebSocket dial..."): printing both would stutter ("failed failed to
// ..."), so such a reason stands alone.
func Outcome(status, reason string) string {
	switch {
	case reason == "":
		return status
	case strings.HasPrefix(strings.ToLower(reason), strings.ToLower(status)):
		return reason
	}
	return status + ": " + reason
}
