package strictjson

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

type canonVector struct {
	Input     json.RawMessage `json:"input"`
	Canonical string          `json:"canonical"`
	SHA256    string          `json:"sha256"`
}

func loadCanonVectors(t *testing.T) (profile string, vectors map[string]canonVector) {
	t.Helper()
	// The NIP-SW shared test fixture is the oracle; sectionstest embeds it.
	raw := sectionstest.Data()
	var doc struct {
		Canonicalization map[string]json.RawMessage `json:"canonicalization"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc.Canonicalization["profile"], &profile); err != nil {
		t.Fatal(err)
	}
	vectors = map[string]canonVector{}
	for name, body := range doc.Canonicalization {
		if name == "profile" {
			continue
		}
		var v canonVector
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vectors[name] = v
	}
	if len(vectors) == 0 {
		t.Fatal("no canonicalization vectors in the fixture file")
	}
	return profile, vectors
}

func TestFixtureProfileName(t *testing.T) {
	profile, _ := loadCanonVectors(t)
	if profile != Profile {
		t.Fatalf("fixture profile %q, package implements %q", profile, Profile)
	}
}

// "SHA-256 is computed over these exact UTF-8 bytes": every vector's input (or,
// when it has none, its canonical text) canonicalizes to the vector's bytes and
// hashes to the vector's digest.
func TestFixtureCanonicalizationVectors(t *testing.T) {
	_, vectors := loadCanonVectors(t)
	for name, v := range vectors {
		t.Run(name, func(t *testing.T) {
			input := []byte(v.Input)
			if len(input) == 0 {
				input = []byte(v.Canonical)
			}
			got, err := CanonicalizeRaw(input)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != v.Canonical {
				t.Fatalf("canonical\n got %s\nwant %s", got, v.Canonical)
			}
			if h := SHA256Hex(got); h != v.SHA256 {
				t.Fatalf("sha256 %s, want %s", h, v.SHA256)
			}
			// Canonical of the decoded Go value gives the same bytes.
			var anyv any
			if err := json.Unmarshal(input, &anyv); err != nil {
				t.Fatal(err)
			}
			again, err := Canonical(anyv)
			if err != nil || string(again) != v.Canonical {
				t.Fatalf("Canonical(any) = %s, %v", again, err)
			}
		})
	}
}

func TestFixtureVectorsRejectDuplicateKeyVariant(t *testing.T) {
	_, vectors := loadCanonVectors(t)
	for name, v := range vectors {
		// Prepend a duplicate of the first key: strict parsing must refuse it.
		doubled := append([]byte(`{"version":1,`), []byte(v.Canonical)[1:]...)
		if _, err := CanonicalizeRaw(doubled); !errors.Is(err, ErrDuplicateKey) {
			t.Fatalf("%s: duplicate version key: err %v", name, err)
		}
	}
}
