// Package sectionstest loads the NIP-SW shared test fixture
// (testdata/nip-sw.fixtures.json, the cross-platform NIP-SW oracle published
// with the NIP-SW specification) for tests in every package that implements a
// side of NIP-SW. Tests take values from the fixture, never copies of them.
package sectionstest

import (
	_ "embed"
	"encoding/json"
	"testing"
)

// FixtureFile is the fixture's file name inside testdata/.
const FixtureFile = "nip-sw.fixtures.json"

//go:embed testdata/nip-sw.fixtures.json
var fixtureData []byte

// Fixtures mirrors the fixture file. Raw parts stay json.RawMessage so tests
// can feed exact bytes (including unknown fields) to the code under test.
type Fixtures struct {
	Version          int                        `json:"version"`
	Kinds            map[string]int             `json:"kinds"`
	Roles            []string                   `json:"roles"`
	Limits           map[string]int             `json:"limits"`
	ProjectionCases  []ProjectionCase           `json:"projection_cases"`
	RoleMatrix       map[string][]string        `json:"role_matrix"`
	Canonicalization Canonicalization           `json:"canonicalization"`
	MetadataCrypto   MetadataCrypto             `json:"metadata_crypto"`
	CommandCases     []CommandCase              `json:"command_cases"`
	Raw              map[string]json.RawMessage `json:"-"`
}

// ProjectionCase is one entry of projection_cases.
type ProjectionCase struct {
	Name             string          `json:"name"`
	PreviousRevision *int64          `json:"previous_revision"`
	Projection       json.RawMessage `json:"projection"`
	Expect           string          `json:"expect"`
}

// Canonicalization holds the byte-exact vectors.
type Canonicalization struct {
	Profile         string      `json:"profile"`
	LegacyPlaintext CanonVector `json:"legacy_plaintext"`
	ImportCommand   CanonVector `json:"import_command"`
}

// CanonVector is input (optional), canonical text and its SHA-256.
type CanonVector struct {
	Input     json.RawMessage `json:"input"`
	Canonical string          `json:"canonical"`
	SHA256    string          `json:"sha256"`
}

// MetadataCrypto is the deterministic AES-GCM vector.
type MetadataCrypto struct {
	Algorithm          string   `json:"algorithm"`
	Encoding           string   `json:"encoding"`
	KeyHex             string   `json:"key_hex"`
	NonceBase64URL     string   `json:"nonce_base64url"`
	PlaintextUTF8      string   `json:"plaintext_utf8"`
	AADCanonical       string   `json:"aad_canonical"`
	Envelope           string   `json:"envelope"`
	RejectIfAADChanges []string `json:"reject_if_aad_changes"`
}

// CommandCase is one entry of command_cases.
type CommandCase struct {
	Name         string          `json:"name"`
	Command      json.RawMessage `json:"command"`
	SameActionID bool            `json:"same_action_id"`
	FirstHash    string          `json:"first_hash"`
	RetryHash    string          `json:"retry_hash"`
	Expect       string          `json:"expect"`
}

// Data returns the fixture file's bytes, embedded from testdata/ (see
// testdata/README.md for where the file comes from). The slice is a fresh
// copy: callers may modify it.
func Data() []byte {
	return append([]byte(nil), fixtureData...)
}

// Load reads and decodes the fixture file, failing the test if it cannot.
func Load(t testing.TB) *Fixtures {
	t.Helper()
	data := Data()
	var f Fixtures
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", FixtureFile, err)
	}
	if err := json.Unmarshal(data, &f.Raw); err != nil {
		t.Fatalf("%s: %v", FixtureFile, err)
	}
	if f.Version != 1 || len(f.Kinds) == 0 || len(f.CommandCases) == 0 || len(f.ProjectionCases) == 0 {
		t.Fatalf("%s: unexpected shape (version %d, %d kinds, %d command cases, %d projection cases)",
			FixtureFile, f.Version, len(f.Kinds), len(f.CommandCases), len(f.ProjectionCases))
	}
	return &f
}

// LegacyFacts are values of the fixture's legacy plaintext that tests check
// against after a round trip: its first section (by order) and one assigned
// channel with its section.
type LegacyFacts struct {
	SectionID, Name, Icon string
	Channel, ChannelTo    string
}

// Legacy reads LegacyFacts from the fixture's legacy_plaintext input.
func (f *Fixtures) Legacy(t testing.TB) LegacyFacts {
	t.Helper()
	var blob struct {
		Sections []struct {
			ID    string `json:"id"`
			Name  string `json:"name"`
			Icon  string `json:"icon"`
			Order int    `json:"order"`
		} `json:"sections"`
		Assignments map[string]string `json:"assignments"`
	}
	if err := json.Unmarshal(f.Canonicalization.LegacyPlaintext.Input, &blob); err != nil || len(blob.Sections) == 0 || len(blob.Assignments) == 0 {
		t.Fatalf("legacy_plaintext.input: %v", err)
	}
	first := blob.Sections[0]
	for _, s := range blob.Sections {
		if s.Order < first.Order {
			first = s
		}
	}
	facts := LegacyFacts{SectionID: first.ID, Name: first.Name, Icon: first.Icon}
	for ch, sec := range blob.Assignments {
		if facts.Channel == "" || ch < facts.Channel {
			facts.Channel, facts.ChannelTo = ch, sec
		}
	}
	return facts
}
