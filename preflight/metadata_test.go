package preflight

import (
	"encoding/json"
	"testing"
)

func str(s string) *string { return &s }

// A metadata edit replaces the named fields only: every other tag (roles,
// the maintainers projection in its stored order, unknown tags, the old
// alt of a renamed repository when it is not ngit's derived one) keeps its
// bytes and its place; the membership is unchanged.
func TestMetadataEditReplacesOnlyTheNamedFields(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100,
		[]string{"r", "1111111111111111111111111111111111111111", "euc"},
		[]string{"name", "Old"},
		[]string{"x-first", "kept"},
		[]string{"description", "old text"},
		[]string{"clone", "https://a.example/x.git"},
		[]string{"web", "https://a.example/x"},
		[]string{"relays", "wss://a.example"},
		[]string{"alt", "git repository: Old"},
		[]string{"t", "go"}, []string{"t", "nostr"},
		[]string{"M", "<alice>"}, []string{"m", "<bob>", "200"},
		[]string{"maintainers", "<alice>", "<bob>"},
		[]string{"x-last", "a", "b"},
	)
	w.announce("bob", 101, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	p := w.run("alice", "alice", 1000, Intent{Action: ActMetadata, Metadata: &MetadataEdit{
		Name: str("New"), SetWeb: true, Web: []string{"https://new.example", "https://mirror.example"},
		SetHashtags: true, Hashtags: []string{"rust"}, SetRelays: true,
	}})
	got, _ := json.Marshal(p.Event().Tags)
	want := `[["d","my-repo"],["r","1111111111111111111111111111111111111111","euc"],["name","New"],["x-first","kept"],` +
		`["description","old text"],["clone","https://a.example/x.git"],["web","https://new.example","https://mirror.example"],` +
		`["relays"],["alt","git repository: New"],["t","rust"],["M","` + pk("alice") + `"],["m","` + pk("bob") + `","200"],` +
		`["maintainers","` + pk("alice") + `","` + pk("bob") + `"],["x-last","a","b"]]`
	if string(got) != want {
		t.Fatalf("tags\n got: %s\nwant: %s", got, want)
	}
	if len(p.Changes) != 0 || len(p.Fields) != 5 { // name, alt, web, relays, t
		t.Fatalf("role changes %v, fields %+v", p.Changes, p.Fields)
	}
	if a, b := confirmed(p.After), confirmed(p.Before); len(a) != 2 || a[0] != b[0] || a[1] != b[1] {
		t.Fatalf("confirmed %v, before %v", a, b)
	}
}

// A field the announcement lacks is inserted where ngit's order puts it;
// an alt that is not ngit's derived text is the author's and kept.
func TestMetadataEditInsertsAMissingFieldInNgitOrder(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"name", "X"}, []string{"alt", "my own words"}, []string{"t", "go"})
	p := w.run("alice", "alice", 1000, Intent{Action: ActMetadata, Metadata: &MetadataEdit{
		Name: str("Y"), Description: str("what it does"), SetClone: true, Clone: []string{"https://c.example/x.git"},
	}})
	got, _ := json.Marshal(p.Event().Tags)
	want := `[["d","my-repo"],["name","Y"],["description","what it does"],["clone","https://c.example/x.git"],["alt","my own words"],["t","go"]]`
	if string(got) != want {
		t.Fatalf("tags\n got: %s\nwant: %s", got, want)
	}
}

// Metadata is edited alone: with a membership change or a governance
// choice it is a usage error; with nothing named, or only current values,
// there is nothing to change; without an announcement there is nothing of
// yours to edit.
func TestMetadataEditIsNeverCombinedWithAMembershipChange(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"name", "X"})
	meta := &MetadataEdit{Name: str("Y")}
	for _, in := range []Intent{
		{Action: ActAdd, Subject: pk("bob"), Metadata: meta},
		{Action: ActMetadata, Metadata: meta, Lead: pk("alice")},
		{Action: ActMetadata, Metadata: meta, Subject: pk("bob")},
		{Action: ActMetadata, Metadata: &MetadataEdit{}},
	} {
		_, r := w.prepare("alice", "alice", 1000, in)
		if r == nil || !r.Usage {
			t.Errorf("%+v: %+v, want a usage refusal", in, r)
		}
	}
	w.refused("alice", "alice", 1000, Intent{Action: ActMetadata, Metadata: &MetadataEdit{Name: str("X")}}, "nothing-to-change")
	w.refused("bob", "alice", 1000, Intent{Action: ActMetadata, Metadata: meta}, "no-announcement")
}
