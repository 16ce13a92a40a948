package projects

import (
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestValidLiveProjectionVerifies(t *testing.T) {
	c := testCoord(t)
	st, err := VerifyState(stateEvent(t, c, "8", liveContent, nil), c, pub(t, relaySK))
	if err != nil {
		t.Fatal(err)
	}
	if st.Revision != 8 || st.Deleted || st.Document.Name != "Demo" || st.Document.HomeChannel != home ||
		len(st.Document.RelatedChannels) != 1 || st.Document.RelatedChannels[0] != chanA ||
		st.IdentityEvent != idHex || st.ChangeEvent != chHex {
		t.Fatalf("got %+v", st)
	}
}

func TestRevisionComesFromTheRevTagNeverTheEventID(t *testing.T) {
	c := testCoord(t)
	a := stateEvent(t, c, "5", liveContent, nil)
	b := stateEvent(t, c, "5", liveContent, nil)
	b.CreatedAt++ // a repair: new event id, same revision
	b = sign(t, relaySK, b)
	sa, err1 := VerifyState(a, c, pub(t, relaySK))
	sb, err2 := VerifyState(b, c, pub(t, relaySK))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if sa.EventID == sb.EventID || sa.Revision != 5 || sb.Revision != 5 {
		t.Fatalf("repair changed the revision: %d/%d", sa.Revision, sb.Revision)
	}
}

func TestDeletedProjectionIsTheExactTombstone(t *testing.T) {
	c := testCoord(t)
	st, err := VerifyState(stateEvent(t, c, "9", `{"v":1,"deleted":true,"project_tags":[]}`, nil), c, pub(t, relaySK))
	if err != nil || !st.Deleted || st.Revision != 9 {
		t.Fatalf("%+v %v", st, err)
	}
}

func TestTombstoneWithProjectTagsIsRejected(t *testing.T) {
	c := testCoord(t)
	_, err := VerifyState(stateEvent(t, c, "9", `{"v":1,"deleted":true,"project_tags":[["d","demo"]]}`, nil), c, pub(t, relaySK))
	if !errors.Is(err, ErrState) {
		t.Fatalf("tombstone with tags accepted: %v", err)
	}
}

func TestProjectionSignedByAnotherKeyThanRelaySelfIsRejected(t *testing.T) {
	c := testCoord(t)
	evt := stateEvent(t, c, "3", liveContent, nil)
	evt = sign(t, otherSK, evt) // structurally perfect, wrong signer
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("wrong signer accepted: %v", err)
	}
	// Even the owner's own signature does not make a projection.
	evt = sign(t, ownerSK, evt)
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("owner-signed projection accepted: %v", err)
	}
}

func TestProjectionFromRelayWithoutSelfIsNotTrusted(t *testing.T) {
	c := testCoord(t)
	if _, err := VerifyState(stateEvent(t, c, "3", liveContent, nil), c, ""); !errors.Is(err, ErrState) {
		t.Fatalf("accepted without a relay self: %v", err)
	}
}

func TestProjectionWithBadSignatureIsRejected(t *testing.T) {
	c := testCoord(t)
	evt := stateEvent(t, c, "3", liveContent, nil)
	evt.Sig = strings.Repeat("0", 128)
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("bad signature accepted: %v", err)
	}
	evt = stateEvent(t, c, "3", liveContent, nil)
	evt.Content = strings.Replace(evt.Content, "Demo", "Evil", 1) // id no longer matches
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("tampered content accepted: %v", err)
	}
}

func TestProjectionMustBeKind30623(t *testing.T) {
	c := testCoord(t)
	evt := stateEvent(t, c, "3", liveContent, nil)
	evt.Kind = 30624
	evt = sign(t, relaySK, evt)
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("kind 30624 accepted: %v", err)
	}
}

func TestATagMustEqualTheRequestedCoordinate(t *testing.T) {
	c := testCoord(t)
	other := Coordinate{Owner: c.Owner, D: "other"}
	// The relay answered for another project at our address: the a tag betrays it.
	evt := stateEvent(t, c, "3", liveContent, func(tags nostr.Tags) nostr.Tags {
		tags[1] = nostr.Tag{"a", other.String()}
		return tags
	})
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("a mismatch accepted: %v", err)
	}
}

func TestExactlyOneATagIsRequired(t *testing.T) {
	c := testCoord(t)
	two := stateEvent(t, c, "3", liveContent, func(tags nostr.Tags) nostr.Tags {
		return append(tags, nostr.Tag{"a", c.String()})
	})
	none := stateEvent(t, c, "3", liveContent, func(tags nostr.Tags) nostr.Tags {
		return append(tags[:1], tags[2:]...)
	})
	for name, evt := range map[string]*nostr.Event{"two": two, "none": none} {
		if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
			t.Errorf("%s a tags accepted: %v", name, err)
		}
	}
}

func TestRevTagMustBeOneCanonicalInteger(t *testing.T) {
	c := testCoord(t)
	for _, rev := range []string{"0", "01", "+1", "-1", "9223372036854775808", "1.5", ""} {
		if _, err := VerifyState(stateEvent(t, c, rev, liveContent, nil), c, pub(t, relaySK)); !errors.Is(err, ErrState) {
			t.Errorf("rev %q accepted", rev)
		}
	}
	st, err := VerifyState(stateEvent(t, c, "9223372036854775807", liveContent, nil), c, pub(t, relaySK))
	if err != nil || st.Revision != 9223372036854775807 {
		t.Errorf("rev 2^63-1: %v", err)
	}
	two := stateEvent(t, c, "3", liveContent, func(tags nostr.Tags) nostr.Tags {
		return append(tags, nostr.Tag{"rev", "4"})
	})
	if _, err := VerifyState(two, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Errorf("two rev tags accepted")
	}
}

func TestIdentityAndChangeReferencesAreRequired(t *testing.T) {
	c := testCoord(t)
	for i := 3; i <= 4; i++ {
		evt := stateEvent(t, c, "3", liveContent, func(tags nostr.Tags) nostr.Tags {
			return append(tags[:i:i], tags[i+1:]...)
		})
		if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
			t.Errorf("missing e marker %d accepted", i)
		}
	}
	dup := stateEvent(t, c, "3", liveContent, func(tags nostr.Tags) nostr.Tags {
		return append(tags, nostr.Tag{"e", chHex, "", "change"})
	})
	if _, err := VerifyState(dup, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Errorf("two change markers accepted")
	}
}

func TestDTagMustBeTheCoordinateAddress(t *testing.T) {
	c := testCoord(t)
	evt := stateEvent(t, c, "3", liveContent, func(tags nostr.Tags) nostr.Tags {
		tags[0] = nostr.Tag{"d", c.Owner} // a NIP-SW workspace address
		return tags
	})
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("wrong d accepted: %v", err)
	}
}

func TestUnknownContentFieldIsRejected(t *testing.T) {
	c := testCoord(t)
	for _, content := range []string{
		`{"v":1,"deleted":false,"project_tags":[["d","demo"]],"extra":1}`,
		`{"v":1,"deleted":true,"project_tags":[],"Deleted":true}`,
		`{"v":1,"Deleted":false,"project_tags":[["d","demo"]]}`, // case must match exactly
	} {
		if _, err := VerifyState(stateEvent(t, c, "3", content, nil), c, pub(t, relaySK)); !errors.Is(err, ErrState) {
			t.Errorf("%s accepted: %v", content, err)
		}
	}
}

func TestContentIsDecodedStrictly(t *testing.T) {
	for _, content := range []string{
		`{"v":1,"v":1,"deleted":true,"project_tags":[]}`,               // duplicate key
		`{"v":1,"deleted":true,"deleted":false,"project_tags":[]}`,     // duplicate key
		`{"v":1.0,"deleted":true,"project_tags":[]}`,                   // non-integer
		`{"v":"1","deleted":true,"project_tags":[]}`,                   // string version
		`{"v":1,"deleted":true}`,                                       // missing field
		`{"v":1,"project_tags":[]}`,                                    // missing field
		`{"deleted":true,"project_tags":[]}`,                           // missing version
		`{"v":1,"deleted":true,"project_tags":null}`,                   // null
		`{"v":1,"deleted":"true","project_tags":[]}`,                   // wrong type
		`{"v":1,"deleted":false,"project_tags":[["d","demo"],[]]}`,     // empty tag
		`{"v":1,"deleted":false,"project_tags":[["name","x"]]}`,        // no d
		`{"v":1,"deleted":false,"project_tags":[["d","a"],["d","b"]]}`, // two d
		`{"v":1,"deleted":true,"project_tags":[]} trailing`,
		`[]`, ``, `null`,
	} {
		if _, _, _, err := DecodeStateContent(content); !errors.Is(err, ErrState) {
			t.Errorf("%q: %v", content, err)
		}
	}
}

func TestUnknownVersionIsIgnoredNotGuessed(t *testing.T) {
	c := testCoord(t)
	// A version 2 body may have any shape: roster must not try to read it.
	evt := stateEvent(t, c, "3", `{"v":2,"deleted":false,"project_tags":[["d","demo"]],"owners":[]}`, nil)
	_, err := VerifyState(evt, c, pub(t, relaySK))
	if !errors.Is(err, ErrUnknownVersion) || errors.Is(err, ErrState) {
		t.Fatalf("v2: %v", err)
	}
}

func TestLiveProjectTagsDMustBeTheCoordinateD(t *testing.T) {
	c := testCoord(t)
	evt := stateEvent(t, c, "3", `{"v":1,"deleted":false,"project_tags":[["d","other"]]}`, nil)
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("project_tags for another d accepted: %v", err)
	}
}

func TestWorkspaceProjectionIsNotAProjectState(t *testing.T) {
	// docs/architecture.md: NIP-SW and NIP-PC share kind 30623; a workspace
	// projection has p tags and a `version` key, and the project decoder must
	// refuse it.
	c := testCoord(t)
	evt := sign(t, relaySK, &nostr.Event{Kind: KindState, CreatedAt: 1700000000,
		Tags:    nostr.Tags{{"d", c.Address()}, {"p", c.Owner}},
		Content: `{"version":1,"owner_pubkey":"` + c.Owner + `","revision":3}`})
	if _, err := VerifyState(evt, c, pub(t, relaySK)); !errors.Is(err, ErrState) {
		t.Fatalf("workspace projection accepted: %v", err)
	}
	if _, _, _, err := DecodeStateContent(evt.Content); !errors.Is(err, ErrState) {
		t.Fatalf("workspace content accepted: %v", err)
	}
}

// Rule (nip-pc.md: every newly signed projection for one address has a
// created_at strictly greater than the previous one): a relay's answer may
// carry an older projection beside the one that replaced it (the newer one
// arrived live while the REQ was open, as a concurrent change committed),
// and the newer one is the relay's state, in either order.
func TestARelaysNewerProjectionSupersedesAnOlderOneInTheSameAnswer(t *testing.T) {
	c := testCoord(t)
	a := stateEvent(t, c, "3", liveContent, nil)
	b := stateEvent(t, c, "4", liveContent, nil)
	b.CreatedAt++
	b = sign(t, relaySK, b)
	for _, answer := range [][]*nostr.Event{{a, b}, {b, a}} {
		st, found, err := FromRelay(answer, c, pub(t, relaySK))
		if err != nil || !found || st.Revision != 4 || st.EventID != b.ID {
			t.Fatalf("older and newer projection: %+v found=%v %v; want revision 4", st, found, err)
		}
	}
	st, found, err := FromRelay([]*nostr.Event{b}, c, pub(t, relaySK))
	if err != nil || !found || st.Revision != 4 {
		t.Fatalf("one candidate: %v %v", found, err)
	}
	if _, found, err := FromRelay(nil, c, pub(t, relaySK)); found || err != nil {
		t.Fatalf("no candidate: %v %v", found, err)
	}
}

// Rule (the same): two different projections with one created_at break the
// strictly greater rule, so neither is the relay's state: ambiguous, and
// none is used.
func TestTwoProjectionsOfOneCreatedAtFromOneRelayAreAmbiguous(t *testing.T) {
	c := testCoord(t)
	a := stateEvent(t, c, "3", liveContent, nil)
	b := stateEvent(t, c, "4", liveContent, nil)
	older := stateEvent(t, c, "2", liveContent, nil)
	older.CreatedAt--
	older = sign(t, relaySK, older)
	if _, found, err := FromRelay([]*nostr.Event{older, a, b}, c, pub(t, relaySK)); !errors.Is(err, ErrAmbiguous) || found {
		t.Fatalf("two newest projections with one created_at: found=%v %v", found, err)
	}
}

// Rule (the same, and `rev` is the state revision): an older projection
// with a greater revision than the newest says the relay's history went
// backwards; the answer names no one state.
func TestAnOlderProjectionWithAGreaterRevisionIsAmbiguous(t *testing.T) {
	c := testCoord(t)
	newest := stateEvent(t, c, "3", liveContent, nil)
	older := stateEvent(t, c, "7", liveContent, nil)
	older.CreatedAt--
	older = sign(t, relaySK, older)
	if _, found, err := FromRelay([]*nostr.Event{newest, older}, c, pub(t, relaySK)); !errors.Is(err, ErrAmbiguous) || found {
		t.Fatalf("older projection at a greater revision: found=%v %v", found, err)
	}
	repair := stateEvent(t, c, "3", liveContent, nil) // the same revision, re-signed later (repair)
	repair.CreatedAt++
	repair = sign(t, relaySK, repair)
	if st, found, err := FromRelay([]*nostr.Event{newest, repair}, c, pub(t, relaySK)); err != nil || !found || st.EventID != repair.ID {
		t.Fatalf("a repair of the same revision: %+v found=%v %v", st, found, err)
	}
}

// Rule (a relay's answer is judged by its newest projection): an invalid
// newest projection is not passed over for an older valid one.
func TestAnInvalidNewestProjectionIsNotReplacedByAnOlderOne(t *testing.T) {
	c := testCoord(t)
	valid := stateEvent(t, c, "3", liveContent, nil)
	invalid := stateEvent(t, c, "04", liveContent, nil) // a rev with a leading zero
	invalid.CreatedAt++
	invalid = sign(t, relaySK, invalid)
	if _, found, err := FromRelay([]*nostr.Event{valid, invalid}, c, pub(t, relaySK)); err == nil || found {
		t.Fatalf("an invalid newest projection read as the older valid one: found=%v %v", found, err)
	}
}

func TestNewestProjectionByCreatedAtThenLowestID(t *testing.T) {
	older := State{Revision: 9, CreatedAt: 10, EventID: "aa"}
	newer := State{Revision: 7, CreatedAt: 11, EventID: "ff"}
	if got, _ := Newest([]State{older, newer}); got.CreatedAt != 11 {
		t.Fatalf("picked %+v", got)
	}
	x := State{CreatedAt: 11, EventID: "01"}
	if got, _ := Newest([]State{newer, x}); got.EventID != "01" {
		t.Fatalf("tie picked %+v", got)
	}
	if _, ok := Newest(nil); ok {
		t.Fatal("empty list")
	}
}

func FuzzDecodeProjectState(f *testing.F) {
	f.Add(liveContent)
	f.Add(`{"v":1,"deleted":true,"project_tags":[]}`)
	f.Add(`{"v":1,"deleted":true,"project_tags":[["d","x"]]}`)
	f.Add(`{"v":2}`)
	f.Add(`{"v":1,"v":1,"deleted":true,"project_tags":[]}`)
	f.Add(`{"v":1e0,"deleted":true,"project_tags":[]}`)
	f.Add(`{"version":1}`)
	f.Fuzz(func(t *testing.T, content string) {
		deleted, doc, tags, err := DecodeStateContent(content)
		if err != nil {
			if !errors.Is(err, ErrState) && !errors.Is(err, ErrUnknownVersion) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if deleted {
			if len(tags) != 0 || doc.D != "" {
				t.Fatalf("tombstone with tags accepted: %q", content)
			}
			return
		}
		if doc.D == "" || len(doc.D) > MaxDBytes || len(doc.RelatedChannels) > MaxRelatedChannels {
			t.Fatalf("accepted an unreadable document: %q", content)
		}
		// What was accepted re-reads to the same document.
		again, err := ParseDocument(doc.Tags())
		if err != nil || again.D != doc.D || len(again.RelatedChannels) != len(doc.RelatedChannels) ||
			len(again.Members) != len(doc.Members) || len(again.Unknown) != len(doc.Unknown) {
			t.Fatalf("effective tags of %q do not re-read: %v", content, err)
		}
	})
}
