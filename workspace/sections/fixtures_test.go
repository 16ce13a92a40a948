package sections

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
	"github.com/roster-cli/roster/workspace/strictjson"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// TestFixtureEveryTopLevelKeyIsConsumed fails when the oracle grows a section
// these tests do not read, so a fixture change cannot go unnoticed.
func TestFixtureEveryTopLevelKeyIsConsumed(t *testing.T) {
	f := sectionstest.Load(t)
	known := map[string]bool{"version": true, "kinds": true, "roles": true, "limits": true, "projection_cases": true,
		"role_matrix": true, "canonicalization": true, "metadata_crypto": true, "command_cases": true}
	for k := range f.Raw {
		if !known[k] {
			t.Errorf("fixture key %q is not consumed by any test", k)
		}
	}
}

func TestFixtureKinds(t *testing.T) {
	f := sectionstest.Load(t)
	want := map[string]int{"import_v1": KindImport, "grant": KindGrant, "revoke": KindRevoke, "move": KindMove, "manage": KindManage, "projection": KindProjection}
	if len(f.Kinds) != len(want) {
		t.Fatalf("fixture kinds %v, package knows %v", f.Kinds, want)
	}
	for name, k := range f.Kinds {
		if want[name] != k {
			t.Errorf("kind %s: fixture %d, package %d", name, k, want[name])
		}
	}
}

func TestFixtureLimits(t *testing.T) {
	f := sectionstest.Load(t)
	want := map[string]int{"sections": MaxSections, "assignments": MaxAssignments, "grants": MaxGrants,
		"encrypted_metadata_bytes": MaxEncryptedMetadataBytes, "key_envelope_bytes": MaxKeyEnvelopeBytes}
	if len(f.Limits) != len(want) {
		t.Fatalf("fixture limits %v, package knows %v", f.Limits, want)
	}
	for name, v := range f.Limits {
		if want[name] != v {
			t.Errorf("limit %s: fixture %d, package %d", name, v, want[name])
		}
	}
}

func TestFixtureRolesAreTheGrantVocabulary(t *testing.T) {
	f := sectionstest.Load(t)
	if len(f.Roles) != len(GrantableRoles) {
		t.Fatalf("fixture roles %v, package %v", f.Roles, GrantableRoles)
	}
	for i, r := range f.Roles {
		if Role(r) != GrantableRoles[i] || !ValidGrantRole(Role(r)) {
			t.Errorf("role %q not grantable", r)
		}
	}
	if ValidGrantRole(RoleOwner) || ValidGrantRole("admin") {
		t.Error("owner/admin must not be grantable")
	}
}

// Every (role, action) pair of the fixture's role matrix, and its complement.
func TestFixtureRoleMatrix(t *testing.T) {
	f := sectionstest.Load(t)
	actions := map[string]bool{}
	for _, acts := range f.RoleMatrix {
		for _, a := range acts {
			actions[a] = true
		}
	}
	if len(f.RoleMatrix) != len(RoleMatrix()) {
		t.Fatalf("fixture matrix has %d roles, package %d", len(f.RoleMatrix), len(RoleMatrix()))
	}
	for role, acts := range f.RoleMatrix {
		allowed := map[string]bool{}
		for _, a := range acts {
			allowed[a] = true
		}
		for a := range actions {
			if got := Allowed(Role(role), Action(a)); got != allowed[a] {
				t.Errorf("Allowed(%s, %s) = %v, fixture says %v", role, a, got, allowed[a])
			}
		}
	}
	// Each command kind maps to an action the fixture names.
	for name, kind := range f.Kinds {
		if kind == KindProjection {
			continue
		}
		a, ok := ActionForKind(kind)
		if !ok || string(a) != name {
			t.Errorf("kind %d (%s) maps to action %q", kind, name, a)
		}
	}
}

func loadAAD(t *testing.T, canonical string) AAD {
	t.Helper()
	var aad AAD
	if err := strictjson.DecodeStrict([]byte(canonical), &aad); err != nil {
		t.Fatal(err)
	}
	return aad
}

func TestFixtureMetadataVector(t *testing.T) {
	mc := sectionstest.Load(t).MetadataCrypto
	if mc.Algorithm != "AES-256-GCM" {
		t.Fatalf("algorithm %q", mc.Algorithm)
	}
	key, err := hex.DecodeString(mc.KeyHex)
	if err != nil {
		t.Fatal(err)
	}
	nonce, err := base64.RawURLEncoding.DecodeString(mc.NonceBase64URL)
	if err != nil {
		t.Fatal(err)
	}
	aad := loadAAD(t, mc.AADCanonical)
	ad, err := aad.Bytes()
	if err != nil || string(ad) != mc.AADCanonical {
		t.Fatalf("AAD bytes %s, %v; want %s", ad, err, mc.AADCanonical)
	}
	env, err := sealWithNonce(key, nonce, aad, mc.PlaintextUTF8)
	if err != nil || env != mc.Envelope {
		t.Fatalf("envelope %q, %v; want %q", env, err, mc.Envelope)
	}
	pt, err := DecryptMetadata(key, aad, mc.Envelope)
	if err != nil || pt != mc.PlaintextUTF8 {
		t.Fatalf("decrypt %q, %v", pt, err)
	}
}

// mutate changes one AAD field to a different valid value.
func mutate(t *testing.T, canonical, field string) AAD {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(canonical), &m); err != nil {
		t.Fatal(err)
	}
	switch v := m[field].(type) {
	case float64:
		m[field] = v + 1
	case string:
		switch {
		case v == string(PurposeLabel):
			m[field] = string(PurposeIcon)
		case v == string(PurposeIcon):
			m[field] = string(PurposeLabel)
		default:
			c := v[0]
			if c == '1' {
				c = '2'
			} else if c == 'a' {
				c = 'b'
			} else {
				c = 'a'
			}
			m[field] = string(c) + v[1:]
		}
	default:
		t.Fatalf("field %q missing from the AAD", field)
	}
	b, _ := json.Marshal(m)
	return loadAAD(t, string(b))
}

// "Any AAD change must fail": each field the fixture lists.
func TestFixtureEveryAADMutationFails(t *testing.T) {
	mc := sectionstest.Load(t).MetadataCrypto
	key, _ := hex.DecodeString(mc.KeyHex)
	if len(mc.RejectIfAADChanges) == 0 {
		t.Fatal("fixture lists no AAD mutations")
	}
	for _, field := range mc.RejectIfAADChanges {
		t.Run(field, func(t *testing.T) {
			aad := mutate(t, mc.AADCanonical, field)
			if ad, _ := aad.Bytes(); string(ad) == mc.AADCanonical {
				t.Fatalf("mutation of %s did not change the AAD", field)
			}
			if _, err := DecryptMetadata(key, aad, mc.Envelope); !errors.Is(err, ErrMetadataAuth) {
				t.Fatalf("decrypt with changed %s: %v, want ErrMetadataAuth", field, err)
			}
		})
	}
}

// "MUST NOT retry with weaker or omitted AAD": a ciphertext sealed without AAD
// (or with a partial one) never opens.
func TestNeverAcceptsWeakerAAD(t *testing.T) {
	mc := sectionstest.Load(t).MetadataCrypto
	key, _ := hex.DecodeString(mc.KeyHex)
	nonce, _ := base64.RawURLEncoding.DecodeString(mc.NonceBase64URL)
	block, _ := aes.NewCipher(key)
	gcm, _ := cipher.NewGCM(block)
	aad := loadAAD(t, mc.AADCanonical)
	for name, weak := range map[string][]byte{
		"none":         nil,
		"version-only": []byte(`{"version":1}`),
		"no-purpose":   []byte(strings.Replace(mc.AADCanonical, `,"purpose":"label"`, "", 1)),
	} {
		ct := gcm.Seal(nil, nonce, []byte(mc.PlaintextUTF8), weak)
		env := "aes256gcm:" + mc.NonceBase64URL + ":" + base64.RawURLEncoding.EncodeToString(ct)
		if _, err := DecryptMetadata(key, aad, env); !errors.Is(err, ErrMetadataAuth) {
			t.Errorf("%s: sealed with weaker AAD opened: %v", name, err)
		}
	}
	// An incomplete AAD is refused before any decryption is attempted.
	partial := aad
	partial.Community = ""
	if _, err := DecryptMetadata(key, partial, mc.Envelope); err == nil || errors.Is(err, ErrMetadataAuth) {
		t.Fatalf("empty community: %v, want a refusal before decryption", err)
	}
}

func TestEncryptMetadataUsesFreshNonceAndWireEnvelope(t *testing.T) {
	mc := sectionstest.Load(t).MetadataCrypto
	key, _ := hex.DecodeString(mc.KeyHex)
	aad := loadAAD(t, mc.AADCanonical)
	a, err := EncryptMetadata(key, aad, "Alpha")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := EncryptMetadata(key, aad, "Alpha")
	if a == b {
		t.Fatal("two encryptions produced the same envelope: nonce reused")
	}
	parts := strings.Split(a, ":")
	if len(parts) != 3 || parts[0] != "aes256gcm" || strings.ContainsAny(a, "=+/") {
		t.Fatalf("envelope %q is not aes256gcm:<b64url>:<b64url> without padding", a)
	}
	nonce, _ := base64.RawURLEncoding.DecodeString(parts[1])
	ct, _ := base64.RawURLEncoding.DecodeString(parts[2])
	if len(nonce) != 12 || len(ct) != len("Alpha")+16 {
		t.Fatalf("nonce %d bytes, ciphertext||tag %d bytes", len(nonce), len(ct))
	}
	if pt, err := DecryptMetadata(key, aad, b); err != nil || pt != "Alpha" {
		t.Fatalf("%q %v", pt, err)
	}
}

// commandEvent wraps fixture content bytes (unaltered) in a command event.
func commandEvent(kind int, owner string, content []byte) *nostr.Event {
	var head struct {
		ActionID string `json:"action_id"`
		Actor    string `json:"actor_pubkey"`
	}
	_ = json.Unmarshal(content, &head)
	tags := nostr.Tags{{"p", owner}}
	if head.Actor != "" {
		tags = append(tags, nostr.Tag{"actor", head.Actor})
	}
	tags = append(tags, nostr.Tag{"action", head.ActionID})
	return &nostr.Event{Kind: kind, PubKey: owner, Tags: tags, Content: string(content), CreatedAt: 1}
}

const testOwner = "1111111111111111111111111111111111111111111111111111111111111111"

// Each command case's kind is named by its name's prefix (grant-, revoke-),
// resolved through the fixture's own kinds table.
func TestFixtureCommandCases(t *testing.T) {
	f := sectionstest.Load(t)
	ran := 0
	for _, c := range f.CommandCases {
		if len(c.Command) == 0 {
			continue // action-row cases: devrelay/swrelay tests them
		}
		t.Run(c.Name, func(t *testing.T) {
			prefix, _, _ := strings.Cut(c.Name, "-")
			kind, ok := f.Kinds[prefix]
			if !ok {
				t.Fatalf("case %q: no kind for prefix %q", c.Name, prefix)
			}
			cmd, err := ParseCommand(commandEvent(kind, testOwner, c.Command))
			switch c.Expect {
			case "accept":
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				canon, _ := strictjson.CanonicalizeRaw(c.Command)
				if !bytes.Equal(cmd.Canonical, canon) || cmd.Hash != strictjson.SHA256Hex(canon) {
					t.Fatal("command hash is not SHA-256 of the canonical content")
				}
			case "reject":
				if err == nil {
					t.Fatal("accepted")
				}
			default:
				t.Fatalf("unknown expectation %q", c.Expect)
			}
		})
		ran++
	}
	if ran == 0 {
		t.Fatal("no command case carried a command")
	}
}

func TestFixtureImportCommandHash(t *testing.T) {
	v := sectionstest.Load(t).Canonicalization.ImportCommand
	cmd, err := ParseCommand(commandEvent(KindImport, testOwner, []byte(v.Canonical)))
	if err != nil {
		t.Fatal(err)
	}
	if string(cmd.Canonical) != v.Canonical || cmd.Hash != v.SHA256 {
		t.Fatalf("hash %s, want %s", cmd.Hash, v.SHA256)
	}
	// Rebuilding the same body through CommandEvent yields the same bytes.
	evt, err := CommandEvent(testOwner, cmd.Body, 1)
	if err != nil || evt.Content != v.Canonical {
		t.Fatalf("CommandEvent content %s, %v", evt.Content, err)
	}
}

func TestFixtureLegacyPlaintextHash(t *testing.T) {
	v := sectionstest.Load(t).Canonicalization.LegacyPlaintext
	blob, canonical, hash, err := ParseLegacy(v.Input)
	if err != nil {
		t.Fatal(err)
	}
	if string(canonical) != v.Canonical || hash != v.SHA256 {
		t.Fatalf("canonical %s hash %s", canonical, hash)
	}
	if len(blob.Sections) == 0 || len(blob.Assignments) == 0 {
		t.Fatalf("decoded %+v", blob)
	}
	// The import vector's source_hash is this digest.
	imp := sectionstest.Load(t).Canonicalization.ImportCommand
	if !strings.Contains(imp.Canonical, `"source_hash":"`+v.SHA256+`"`) {
		t.Fatal("import vector does not carry the legacy hash")
	}
}

func TestFixtureProjectionCases(t *testing.T) {
	f := sectionstest.Load(t)
	for _, c := range f.ProjectionCases {
		t.Run(c.Name, func(t *testing.T) {
			var head struct {
				Version  int   `json:"version"`
				Revision int64 `json:"revision"`
			}
			if err := json.Unmarshal(c.Projection, &head); err != nil {
				t.Fatal(err)
			}
			if head.Version != Version {
				t.Fatalf("version %d", head.Version)
			}
			var prev int64
			if c.PreviousRevision != nil {
				prev = *c.PreviousRevision
			}
			got := DecideRevision(c.PreviousRevision != nil, prev, head.Revision)
			if string(got) != c.Expect {
				t.Fatalf("decision %s, want %s", got, c.Expect)
			}
			if c.Expect == "accept" {
				// A full case must also pass strict decoding and verification.
				p, err := DecodeProjection(c.Projection)
				if err != nil {
					t.Fatal(err)
				}
				relay := newKey(t)
				evt := projectionEvent(t, relay, p.OwnerPubkey, c.Projection)
				if _, err := VerifyProjection(evt, relay.pk, p.OwnerPubkey); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

type testKey struct {
	sk, pk string
	s      signer.Signer
}

func newKey(t testing.TB) testKey {
	t.Helper()
	k := testkeys.New(t)
	return testKey{sk: k.SK, pk: k.PK, s: k.Signer}
}

func projectionEvent(t testing.TB, relay testKey, owner string, content []byte) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: KindProjection, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"d", owner}, {"p", owner}}, Content: string(content)}
	if err := evt.Sign(relay.sk); err != nil {
		t.Fatal(err)
	}
	return evt
}

// "Plaintext is UTF-8"; the AAD community is the canonical authority.
func TestMetadataPlaintextIsUTF8AndCommunityCanonical(t *testing.T) {
	mc := sectionstest.Load(t).MetadataCrypto
	key, _ := hex.DecodeString(mc.KeyHex)
	aad := loadAAD(t, mc.AADCanonical)
	if _, err := EncryptMetadata(key, aad, "\xff\xfe"); err == nil {
		t.Fatal("invalid UTF-8 label encrypted")
	}
	nonce, _ := base64.RawURLEncoding.DecodeString(mc.NonceBase64URL)
	block, _ := aes.NewCipher(key)
	gcm, _ := cipher.NewGCM(block)
	ad, _ := aad.Bytes()
	env := "aes256gcm:" + mc.NonceBase64URL + ":" + base64.RawURLEncoding.EncodeToString(gcm.Seal(nil, nonce, []byte("\xff"), ad))
	if _, err := DecryptMetadata(key, aad, env); err == nil || errors.Is(err, ErrMetadataAuth) {
		t.Fatalf("invalid UTF-8 plaintext: %v", err)
	}
	upper := aad
	upper.Community = strings.ToUpper(aad.Community)
	if _, err := upper.Bytes(); err == nil {
		t.Fatal("non-canonical community accepted in the AAD")
	}
}
