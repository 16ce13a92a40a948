package groups

import (
	"context"
	"encoding/json"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// RelayRead is one relay's view of a group: groups are per relay (a fork
// keeps the id), so every relay asked is judged against its own NIP-11 self.
type RelayRead struct {
	URL    string `json:"url"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	Self   string `json:"self,omitempty"`
	Error  string `json:"error,omitempty"`
	Found  bool   `json:"found"`
	Live   bool   `json:"live"`
	Group  *State `json:"group"`
	// Me is the viewer's membership (ReadMember only).
	Me *Membership `json:"-"`
	// Info is the relay's NIP-11 document, for the cache.
	Info json.RawMessage `json:"-"`
}

// ReadResult is every relay's view of the group.
type ReadResult struct {
	Relays []RelayRead
	// Complete: every relay answered.
	Complete bool
	// Found: some relay holds state it signed itself.
	Found bool
	Fetch *relaypool.FetchResult
}

// Read asks every relay, in one request each, for the group's state events
// and builds each relay's state from the events that relay signed (Build);
// events signed by any other key are kept as rejected, never used.
func Read(ctx context.Context, r pipeline.Relays, relays []string, id string) ReadResult {
	return read(ctx, r, relays, id, "")
}

// ReadMember is Read plus, in the same request, every 9000 and 9001 of the
// group naming me, and each relay's MembershipOf(me) in RelayRead.Me.
func ReadMember(ctx context.Context, r pipeline.Relays, relays []string, id, me string) ReadResult {
	return read(ctx, r, relays, id, me)
}

func read(ctx context.Context, r pipeline.Relays, relays []string, id, me string) ReadResult {
	out, _ := readWith(ctx, r, relays, nil, id, me)
	return out
}

// readWith is the one read of a group: each relay's NIP-11 self (selves,
// when the caller already read them, in the order of relays), then one
// request per relay for ReadFilters(id, me) and extra. It also returns what
// each relay served, in the order of ReadResult.Relays.
func readWith(ctx context.Context, r pipeline.Relays, relays []string, selves []pipeline.RelaySelf, id, me string, extra ...nostr.Filter) (ReadResult, [][]*nostr.Event) {
	infos := selves
	if len(infos) != len(relays) {
		infos = pipeline.RelaySelves(ctx, r, relays)
	}
	res := r.Fetch(ctx, relays, append(ReadFilters(id, me), extra...)...)
	out := ReadResult{Complete: res.Complete, Fetch: res}
	var served [][]*nostr.Event
	for i, rep := range res.Relays {
		info := pipeline.RelaySelf{}
		if i < len(infos) {
			info = infos[i]
		}
		evs := pipeline.EventsFrom(res, rep.URL)
		rr := RelayRead{URL: rep.URL, Status: rep.Status, Reason: rep.Reason, Self: info.Self, Info: info.Doc}
		if info.Err != nil {
			rr.Error = info.UnknownSigner()
		}
		st := Build(id, info.Self, evs)
		rr.Group = &st
		rr.Found = len(st.Sources) > 0
		rr.Live = st.Live()
		if me != "" {
			m := MembershipOf(id, me, st, evs)
			rr.Me = &m
		}
		out.Found = out.Found || rr.Found
		out.Relays = append(out.Relays, rr)
		served = append(served, evs)
	}
	return out, served
}
