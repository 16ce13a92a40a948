package graph

import (
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func FuzzParseRoleRecord(f *testing.F) {
	f.Add("m", pk("bob"), "100", "200", "defer", uint8(3))
	f.Add("M", pk("alice"), "", "", "", uint8(0))
	f.Add("o", "nothex", "1", "x", "", uint8(2))
	f.Add("m", pk("bob"), "defer", "1", "", uint8(2))
	f.Fuzz(func(t *testing.T, letter, subject, b1, b2, b3 string, n uint8) {
		tag := nostr.Tag{letter, subject, b1, b2, b3}[:2+int(n%4)]
		r := ParseRoleRecord(tag)
		if again := ParseRoleRecord(tag); !slices.Equal(again.Boundaries, r.Boundaries) || again.Valid != r.Valid || again.Problem != r.Problem {
			t.Fatal("parse is not deterministic")
		}
		if !slices.Equal(r.Raw, tag) {
			t.Fatal("raw record must be kept byte for byte")
		}
		if !r.Valid {
			if r.Active() || r.Problem == "" {
				t.Fatalf("invalid record %q must be inactive with a problem", tag)
			}
			return
		}
		if !isLowerHex64(r.Subject) {
			t.Fatalf("valid record with subject %q", r.Subject)
		}
		nb := len(r.Boundaries)
		if r.Defer {
			nb++
		}
		if nb != len(tag)-2 {
			t.Fatalf("boundaries %v defer %v from %q", r.Boundaries, r.Defer, tag)
		}
		if r.Active() != (!r.Defer && (len(tag) < 4 || len(tag)%2 == 1)) {
			t.Fatalf("activity of %q must follow the parity rule", tag)
		}
		if r.Defer && r.ActiveAt(r.LastStart()) && len(r.Boundaries) == 1 {
			t.Fatalf("a defer interval must never authorize: %q", tag)
		}
	})
}

func FuzzResolve(f *testing.F) {
	f.Add([]byte{0, 1, 1, 3, 0, 0, 1, 2, 1, 0})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte{0, 5, 22, 2, 0, 1, 1, 0, 3, 1, 0, 1, 4, 1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		evts := eventsFromBytes(data)
		for _, s := range []string{"alice", "bob"} {
			a := resolutionJSON(t, evts, pk(s), pk("alice"))
			rev := slices.Clone(evts)
			slices.Reverse(rev)
			if b := resolutionJSON(t, rev, pk(s), pk("alice")); a != b {
				t.Fatalf("non-deterministic resolution\n%s\n%s", a, b)
			}
			r := Resolve(evts, NewCoordinate(pk(s), testID), 10_000, Options{})
			for _, p := range r.Component {
				if !r.Authorized(p, ActionState, 0) {
					t.Fatal("every confirmed maintainer may publish state")
				}
			}
			for _, m := range r.Moderators {
				if m.Status == StatusConfirmed && !r.Confirmed(m.Pubkey) && r.Authorized(m.Pubkey, ActionState, 0) {
					t.Fatal("a moderator must never publish state")
				}
			}
			if (r.LeadSource == LeadPending || r.LeadSource == LeadConflict) && len(r.Component) != 0 {
				t.Fatal("a pending or conflicting path must seed no authority")
			}
		}
	})
}
