package clitest

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/groups"
)

// ModOut is the part of roster.group.moderation/v1 these tests read.
type ModOut struct {
	Schema          string        `json:"schema"`
	Action          string        `json:"action"`
	Relay           string        `json:"relay"`
	SignerRoles     []string      `json:"signer_roles"`
	RelayRoles      []groups.Role `json:"relay_roles"`
	Preview         []string      `json:"preview"`
	NothingToChange bool          `json:"nothing_to_change"`
	DryRun          bool          `json:"dry_run"`
	Steps           []struct {
		Kind     int          `json:"kind"`
		Event    *nostr.Event `json:"event"`
		Sent     bool         `json:"sent"`
		Accepted bool         `json:"accepted"`
	} `json:"steps"`
	Verified    string             `json:"verified"`
	Note        string             `json:"note"`
	TargetAfter *groups.Membership `json:"target_after"`
	Share       string             `json:"share"`
	JoinCommand string             `json:"join_command"`
	Metadata    *groups.Metadata   `json:"metadata"`
}

// RelayState is group id's state as the world's relay signed and stores it.
func (w *PcWorld) RelayState(id string) groups.State {
	w.T.Helper()
	return groups.Build(id, w.Relay.Self(), w.Relay.Stored(nostr.Filter{Kinds: groups.StateKinds, Tags: nostr.TagMap{"d": {id}}}))
}

func (w *PcWorld) Ok(sk string, args ...string) ModOut {
	w.T.Helper()
	r := w.As(sk, append(args, "--json")...)
	if r.Code != cmdutil.ExitOK {
		w.T.Fatalf("%v: exit %d\n%s%s", args, r.Code, r.Out, r.Err)
	}
	out := DecodeOut[ModOut](w.T, r)
	if out.Schema != "roster.group.moderation/v1" {
		w.T.Fatalf("schema %q", out.Schema)
	}
	return out
}

// RefusedBy runs a command that must be refused by the relay (exit 3,
// Relay-rejected) and returns the relay's words.
func (w *PcWorld) RefusedBy(sk string, args ...string) string {
	w.T.Helper()
	r := w.As(sk, append(args, "--json")...)
	e := ErrorBody(w.T, r)
	if r.Code != cmdutil.ExitRefused || e.Code != "relay-rejected" {
		w.T.Fatalf("%v: exit %d %+v", args, r.Code, e)
	}
	return e.Message
}
