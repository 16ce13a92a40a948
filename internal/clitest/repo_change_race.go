package clitest

import (
	"encoding/json"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
)

// ErrorCode is the `error.code` of a --json result ("" when none).
func ErrorCode(out string) string {
	var m struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(out), &m) != nil || m.Error == nil {
		return ""
	}
	return m.Error.Code
}

// LatestAnnouncement is p's announcement of id that r stores as latest.
func LatestAnnouncement(r *devrelay.Relay, p Person, id string) *nostr.Event {
	var best *nostr.Event
	for _, e := range r.Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{p.Pk}, Tags: nostr.TagMap{"d": {id}}}) {
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	return best
}
