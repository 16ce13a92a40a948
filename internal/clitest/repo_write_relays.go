package clitest

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
)

// WriteRelayScene is Alice's repository read through ROSTER_RELAYS (not
// --relay, which would pin the relays): her relay `home` plus relays only
// the events name.
type WriteRelayScene struct {
	T      *testing.T
	Id     string
	Env    map[string]string
	Home   *devrelay.Relay
	Others []*devrelay.Relay
}

func NewWriteRelayScene(t *testing.T, others int) *WriteRelayScene {
	rs := devrelay.StartN(t, 1+others, devrelay.Options{})
	env := TestEnv(t)
	env["ROSTER_RELAYS"] = rs[0].URL()
	return &WriteRelayScene{T: t, Id: "my-repo", Env: env, Home: rs[0], Others: rs[1:]}
}

// Run is roster as p at now on Alice's coordinate, relays from ROSTER_RELAYS.
func (s *WriteRelayScene) Run(p Person, now int64, args ...string) Result {
	s.T.Helper()
	return Invocation{Env: WithKey(s.Env, p), Dir: s.T.TempDir(), Now: time.Unix(now, 0)}.Roster(s.T,
		append([]string{"--repo", Alice.Naddr(s.Id), "--timeout", "5s"}, args...)...)
}

// Stored is every event every relay of the scene holds, by relay.
func (s *WriteRelayScene) Stored() [][]string {
	var out [][]string
	for _, r := range append([]*devrelay.Relay{s.Home}, s.Others...) {
		var ids []string
		for _, e := range r.Stored(nostr.Filter{}) {
			ids = append(ids, e.ID)
		}
		slices.Sort(ids)
		out = append(out, ids)
	}
	return out
}

// RefusedJSON runs a change that must exit with code and errCode and leave
// every relay as it was; it returns the error object.
func (s *WriteRelayScene) RefusedJSON(p Person, now int64, code int, errCode string, args ...string) map[string]any {
	s.T.Helper()
	before := s.Stored()
	r := s.Run(p, now, append(args, "--json")...)
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || r.Code != code {
		s.T.Fatalf("exit %d, want %d: %v\n%s%s", r.Code, code, err, r.Out, r.Err)
	}
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"] != errCode {
		s.T.Fatalf("error %v, want %s:\n%s", e["code"], errCode, r.Out)
	}
	if after := s.Stored(); !slices.EqualFunc(before, after, slices.Equal) {
		s.T.Fatalf("a refused change changed what the relays store:\nbefore %v\nafter  %v", before, after)
	}
	return e
}
