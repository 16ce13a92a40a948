package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/devrelay/pcrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// recorder is a relay authority that keeps a copy of every command the
// real authority accepted, as it arrived: NIP-SW and NIP-PC commands
// never reach ordinary storage, so this is where the suite fetches them.
type recorder struct {
	devrelay.Authority
	mu   sync.Mutex
	seen []*nostr.Event
}

func (r *recorder) Ingest(ctx context.Context, env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	c := *evt
	out, err := r.Authority.Ingest(ctx, env, authed, evt)
	if err == nil { // a refusal (auth-required before NIP-42, say) is retried by the client
		r.mu.Lock()
		r.seen = append(r.seen, &c)
		r.mu.Unlock()
	}
	return out, err
}

func (r *recorder) events() []*nostr.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*nostr.Event(nil), r.seen...)
}

// checkCommands has nostr-tools verify each event and its tag grammar.
func checkCommands(t testing.TB, evs []*nostr.Event) map[int]int {
	t.Helper()
	var resp struct {
		Checks []check `json:"checks"`
	}
	node(t, "check", map[string]any{"events": evs}, &resp)
	kinds := map[int]int{}
	for _, c := range resp.Checks {
		kinds[c.Kind]++
		for _, p := range c.Problems {
			t.Errorf("kind %d %s: %s", c.Kind, c.ID, p)
		}
	}
	return kinds
}

func nip44Decrypt(t testing.TB, sk, pub, ciphertext string) string {
	t.Helper()
	var resp struct {
		Plaintext string `json:"plaintext"`
	}
	node(t, "nip44-decrypt", map[string]any{"sk": sk, "pub": pub, "ciphertext": ciphertext}, &resp)
	return resp.Plaintext
}

func nip44Encrypt(t testing.TB, sk, pub, plaintext string) string {
	t.Helper()
	var resp struct {
		Ciphertext string `json:"ciphertext"`
	}
	node(t, "nip44-encrypt", map[string]any{"sk": sk, "pub": pub, "plaintext": plaintext}, &resp)
	return resp.Ciphertext
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// NIP-SW against nostr-tools, both directions: the legacy blob roster
// imports is NIP-44 encrypted and signed by nostr-tools; every command
// roster signs (9050-9054) passes nostr-tools' verifyEvent and the tag
// grammar; nostr-tools opens the key envelopes roster wrote (import, grant,
// revoke), and a grant whose envelope nostr-tools wrapped lets roster read
// the workspace.
func TestWorkspaceCommandsAndKeyEnvelopesInteroperate(t *testing.T) {
	t.Parallel()
	owner, viewer, mover, grantee := alice, bob, carol, dave
	rec := &recorder{Authority: swrelay.New(swrelay.Options{})}
	relay := devrelay.StartN(t, 1, devrelay.Options{SecretKey: strings.Repeat("35", 32), RequireAuth: true,
		Authorities: []devrelay.Authority{rec}})[0]
	urls := []string{relay.URL()}
	homes := map[string]string{}
	as := func(p person, args ...string) (result, map[string]any) {
		t.Helper()
		if homes[p.name] == "" {
			homes[p.name] = t.TempDir()
		}
		return run{Home: homes[p.name], Key: p.sk}.ok(t, append(args, "--relay", relay.URL(), "--timeout", "10s")...)
	}

	// The legacy blob, encrypted to the owner and signed by nostr-tools,
	// published by nostr-tools over NIP-42.
	fx := sectionstest.Load(t)
	lg := fx.Legacy(t)
	ct := nip44Encrypt(t, owner.sk, owner.pk, string(fx.Canonicalization.LegacyPlaintext.Input))
	node(t, "publish", map[string]any{"relays": urls, "auth_sk": owner.sk, "events": []map[string]any{{
		"sk": owner.sk, "kind": 30078, "created_at": time.Now().Unix() - 100, "tags": [][]string{{"d", "channel-sections"}}, "content": ct,
	}}}, nil)

	var printed []result
	r, m := as(owner, "workspace", "import", "--json")
	printed = append(printed, r)
	if m["switched"] != true {
		t.Fatalf("import did not switch: %s", r.Out)
	}
	for _, args := range [][]string{
		{"workspace", "grant", viewer.npub(), "--role", "viewer", "--json"},
		{"workspace", "grant", mover.npub(), "--role", "mover", "--json"},
		{"workspace", "section", "add", "Beta", "--icon", "star", "--json"},
	} {
		r, _ := as(owner, args...)
		printed = append(printed, r)
	}
	r, _ = as(mover, "workspace", "move", lg.Channel, "--to", "Beta", "--owner", owner.npub(), "--json")
	printed = append(printed, r)

	// nostr-tools opens the envelopes roster wrote: the owner's own (9050)
	// and the viewer's (9051) hold the same 32-byte key as 64 lowercase hex.
	content := func(kind int) []map[string]any {
		var out []map[string]any
		for _, e := range rec.events() {
			if e.Kind == kind {
				var c map[string]any
				if err := json.Unmarshal([]byte(e.Content), &c); err != nil {
					t.Fatalf("kind %d content: %v", kind, err)
				}
				out = append(out, c)
			}
		}
		return out
	}
	imp := content(9050)
	if len(imp) != 1 {
		t.Fatalf("relay got %d imports", len(imp))
	}
	key := nip44Decrypt(t, owner.sk, owner.pk, imp[0]["owner_key_envelope"].(string))
	if !hex64.MatchString(key) {
		t.Fatalf("owner envelope holds %q, not 64 lowercase hex", key)
	}
	var grants []map[string]any
	for _, g := range content(9051) {
		if g["actor_pubkey"] == viewer.pk {
			grants = append(grants, g)
		}
	}
	if len(grants) != 1 || nip44Decrypt(t, viewer.sk, owner.pk, grants[0]["key_envelope"].(string)) != key {
		t.Fatalf("the viewer's grant envelope does not hold the owner's key (%d grants)", len(grants))
	}

	// The reverse: nostr-tools wraps the key for a new reader, signs the
	// grant as the owner and submits it; roster, as that reader, opens the
	// envelope and decrypts the labels with the key inside.
	grant, _ := json.Marshal(map[string]any{ // encoding/json sorts keys: the canonical profile's order
		"version": 1, "action_id": "5e5e5e5e-0000-4000-8000-000000000001", "actor_pubkey": grantee.pk,
		"role": "viewer", "key_epoch": imp[0]["key_epoch"], "key_envelope": nip44Encrypt(t, owner.sk, grantee.pk, key),
	})
	node(t, "publish", map[string]any{"relays": urls, "auth_sk": owner.sk, "events": []map[string]any{{
		"sk": owner.sk, "kind": 9051, "created_at": time.Now().Unix(), "content": string(grant),
		"tags": [][]string{{"p", owner.pk}, {"action", "5e5e5e5e-0000-4000-8000-000000000001"}, {"actor", grantee.pk}},
	}}}, nil)
	r, m = as(grantee, "workspace", "show", "--owner", owner.npub(), "--json")
	printed = append(printed, r)
	if labels := sectionLabels(m); labels != fmt.Sprint([]string{lg.Name, "Beta"}) || m["you"].(map[string]any)["role"] != "viewer" {
		t.Fatalf("the reader nostr-tools granted sees %s as %v", labels, m["you"])
	}

	// Revoke rotates the key: nostr-tools opens every new envelope roster
	// wrote, and they agree.
	r, _ = as(owner, "workspace", "revoke", mover.npub(), "--json")
	printed = append(printed, r)
	revokes := content(9052)
	if len(revokes) != 1 {
		t.Fatalf("relay got %d revokes", len(revokes))
	}
	readers := map[string]string{owner.pk: owner.sk, viewer.pk: viewer.sk, grantee.pk: grantee.sk}
	var rotated []string
	for _, x := range revokes[0]["envelopes"].([]any) {
		env := x.(map[string]any)
		sk, ok := readers[env["reader_pubkey"].(string)]
		if !ok {
			t.Fatalf("revoke wraps the new key for %v", env["reader_pubkey"])
		}
		rotated = append(rotated, nip44Decrypt(t, sk, owner.pk, env["key_envelope"].(string)))
	}
	if len(rotated) != len(readers) || rotated[0] == key || !hex64.MatchString(rotated[0]) {
		t.Fatalf("rotated keys %v (old %s)", rotated, key)
	}
	for _, k := range rotated[1:] {
		if k != rotated[0] {
			t.Fatalf("revoke wrapped different keys: %v", rotated)
		}
	}
	for _, p := range []person{viewer, grantee} {
		r, m = as(p, "workspace", "show", "--owner", owner.npub(), "--json")
		printed = append(printed, r)
		if labels := sectionLabels(m); labels != fmt.Sprint([]string{lg.Name, "Beta"}) {
			t.Fatalf("%s after the rotation sees %s", p.name, labels)
		}
	}
	printed = append(printed, run{Home: homes[viewer.name], Key: viewer.sk}.roster(t, "workspace", "show", "--owner", owner.npub(), "--relay", relay.URL()))

	// Every command roster signed, as the relay received it.
	var rosters []*nostr.Event
	for _, e := range rec.events() {
		if e.Content != string(grant) {
			rosters = append(rosters, e)
		}
	}
	kinds := checkCommands(t, rosters)
	if fmt.Sprint(kinds) != "map[9050:1 9051:2 9052:1 9053:1 9054:1]" {
		t.Errorf("commands roster sent: %v", kinds)
	}
	// The relay-signed projection, fetched by nostr-tools as a reader.
	if f := fetchChecked(t, urls, viewer.sk, nostr.Filter{Kinds: []int{30623}}); len(f.Events) != 1 {
		t.Errorf("viewer fetched %d projections", len(f.Events))
	}
	decodePrintedPeople(t, printed...)
}

func sectionLabels(m map[string]any) string {
	var out []string
	for _, s := range m["sections"].([]any) {
		out = append(out, fmt.Sprint(s.(map[string]any)["label"]))
	}
	return fmt.Sprint(out)
}

// NIP-PC: the owner's project identity is signed and published by
// nostr-tools, `roster project relate` changes it through the relay's
// authority, and nostr-tools verifies the kind 47010 roster signed and the
// relay-signed Project State it fetches.
func TestProjectChangeInteroperates(t *testing.T) {
	t.Parallel()
	owner := alice
	g := grouprelay.New()
	rec := &recorder{Authority: pcrelay.New(pcrelay.Options{Groups: g})}
	relay := devrelay.StartN(t, 1, devrelay.Options{SecretKey: strings.Repeat("24", 32), Authorities: []devrelay.Authority{rec, g}})[0]
	urls := []string{relay.URL()}
	const d, chanA = "demo:with:colons", "11111111-1111-4111-8111-111111111111"
	node(t, "publish", map[string]any{"relays": urls, "events": []map[string]any{{
		"sk": owner.sk, "kind": 30621, "created_at": time.Now().Unix() - 10, "tags": [][]string{{"d", d}, {"name", "Demo"}},
	}}}, nil)
	coord := "30621:" + owner.pk + ":" + d
	r, m := run{Home: t.TempDir(), Key: owner.sk}.ok(t, "project", "relate", coord, chanA, "--relay", relay.URL(), "--timeout", "10s", "--json")
	if m["revision"] != float64(2) {
		t.Fatalf("relate: %s", r.Out)
	}
	show, _ := run{Home: t.TempDir(), Key: owner.sk}.ok(t, "project", "show", coord, "--relay", relay.URL(), "--timeout", "10s")
	if kinds := checkCommands(t, rec.events()); fmt.Sprint(kinds) != "map[30621:1 47010:1]" { // the identity nostr-tools signed, roster's change
		t.Errorf("commands roster sent: %v", kinds)
	}
	f := fetchChecked(t, urls, "", nostr.Filter{Kinds: []int{30621, 30623}})
	if len(f.Events) != 2 {
		t.Errorf("nostr-tools fetched %d identity/state events, want 2", len(f.Events))
	}
	decodePrintedPeople(t, r, show)
}

// decodePrintedPeople is decodePrinted for output that names people but no
// repository; it passes when roster printed no bech32 value at all.
func decodePrintedPeople(t testing.TB, results ...result) {
	t.Helper()
	var any bool
	for _, r := range results {
		if bech32Re.MatchString(r.Out+r.Err) || nostrURLRe.MatchString(r.Out+r.Err) {
			any = true
		}
	}
	if any {
		decodePrinted(t, "", results...)
	}
}
