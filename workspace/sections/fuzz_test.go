package sections

import (
	"testing"

	"github.com/roster-cli/roster/workspace/strictjson"
)

// FuzzParseCommand: command content from the network never panics the
// parser, and whatever it accepts re-encodes to the same canonical bytes
// (so the command hash is a function of the meaning, not the spelling).
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		`{"version":1,"action_id":"eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee","channel_id":"cccccccc-cccc-4ccc-8ccc-cccccccccccc","section_id":"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"}`,
		`{"version":1,"action_id":"eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee","op":"reorder","section_ids":["aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"]}`,
		`{"version":1,"action_id":"eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee","op":"remove","section_id":"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"}`,
		`{"version":2}`, `{"op":1}`, `[]`,
	} {
		for _, k := range []int{KindMove, KindManage, KindImport} {
			f.Add(k, s)
		}
	}
	f.Fuzz(func(t *testing.T, kind int, content string) {
		body, err := DecodeBody(kind, []byte(content))
		if err != nil {
			return
		}
		canon, err := strictjson.CanonicalizeRaw([]byte(content))
		if err != nil {
			t.Fatalf("decoded but not canonicalizable: %v", err)
		}
		re, err := strictjson.Canonical(body)
		if err != nil || string(re) != string(canon) {
			t.Fatalf("re-encoding differs:\n in  %s\n out %s (%v)", canon, re, err)
		}
		evt, err := CommandEvent(testOwner, body, 1)
		if err != nil {
			t.Fatalf("valid body refused by CommandEvent: %v", err)
		}
		evt.PubKey = testOwner
		if _, err := ParseCommand(evt); err != nil && rule(err) != "actor-is-owner" {
			t.Fatalf("built command does not parse back: %v", err)
		}
	})
}

// FuzzDecodeProjection: projection content never panics the decoder, and
// an accepted projection passes its own validation again after re-encoding.
func FuzzDecodeProjection(f *testing.F) {
	f.Add(`{"version":1,"owner_pubkey":"1111111111111111111111111111111111111111111111111111111111111111","revision":1,"layout_revision":1,"key_epoch":1,"migration":null,"reader_key_envelope":"e","sections":[],"assignments":[]}`)
	f.Add(`{"v":1,"deleted":false,"project_tags":[]}`)
	f.Fuzz(func(t *testing.T, content string) {
		p, err := DecodeProjection([]byte(content))
		if err != nil {
			return
		}
		re, err := strictjson.Canonical(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeProjection(re); err != nil {
			t.Fatalf("re-encoded projection rejected: %v", err)
		}
	})
}
