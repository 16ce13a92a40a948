package clitest

import (
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// Keys of the member repositories' maintainers.
var (
	PrLeadSK = strings.Repeat("25", 32)
	PrCoSK   = strings.Repeat("26", 32)
)

// MemberRepo publishes on w's relay a repository d led by prLeadSK with
// PrCoSK confirmed; without the lead's `maintainers` compatibility tag
// when unhealthy (a warning the lead, a current maintainer, can act on).
// It returns the repository's coordinate.
func (w *PcWorld) MemberRepo(d string, unhealthy bool) string {
	w.T.Helper()
	lead, co := PubOf(w.T, PrLeadSK), PubOf(w.T, PrCoSK)
	leadTags := nostr.Tags{{"d", d}, {"name", d}, {"M", lead}, {"m", co, "200"}}
	if !unhealthy {
		leadTags = append(leadTags, nostr.Tag{"maintainers", lead, co})
	}
	w.MustPublish(PrLeadSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 300, Tags: leadTags})
	w.MustPublish(PrCoSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 200, Tags: nostr.Tags{
		{"d", d}, {"M", lead, "200"}, {"m", co, "200"}, {"maintainers", lead, co}}})
	return "30617:" + lead + ":" + d
}

// Profiles publishes the maintainers' kind 0 names.
func (w *PcWorld) Profiles() {
	w.T.Helper()
	w.MustPublish(PrLeadSK, &nostr.Event{Kind: 0, CreatedAt: 100, Content: `{"name":"Lena"}`})
	w.MustPublish(PrCoSK, &nostr.Event{Kind: 0, CreatedAt: 100, Content: `{"name":"Cole"}`})
}
