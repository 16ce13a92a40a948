package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// Keys of the workspace scenarios.
var (
	swOwnerSK   = strings.Repeat("31", 32)
	swViewerSK  = strings.Repeat("32", 32)
	swMoverSK   = strings.Repeat("33", 32)
	swManagerSK = strings.Repeat("34", 32)
	swRelaySK   = strings.Repeat("35", 32) // lets tests sign as the relay (a misbehaving one)
	swForgerSK  = strings.Repeat("36", 32)
)

// swWorld is one devrelay requiring NIP-42 and running the NIP-SW authority,
// plus one ROSTER_HOME per person.
type swWorld struct {
	t     *testing.T
	relay *devrelay.Relay
	homes map[string]string
	http  *http.Client // NIP-05 lookups (nip05Server), nil for none
}

func newSWWorld(t *testing.T) *swWorld {
	t.Helper()
	return newSWWorldWith(t, swrelay.New(swrelay.Options{}))
}

// newSWWorldWith runs auth (the reference authority, or a misbehaving wrapper
// of it) as the relay's NIP-SW authority.
func newSWWorldWith(t *testing.T, auth devrelay.Authority) *swWorld {
	t.Helper()
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: swRelaySK, RequireAuth: true,
		Authorities: []devrelay.Authority{auth}})[0]
	return &swWorld{t: t, relay: r, homes: map[string]string{}}
}

// pubOf is the public key of the test secret key sk.
func pubOf(t *testing.T, sk string) string {
	t.Helper()
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// as runs roster as the person holding sk against the world's relay.
func (w *swWorld) as(sk string, args ...string) result {
	w.t.Helper()
	home, ok := w.homes[sk]
	if !ok {
		home = w.t.TempDir()
		w.homes[sk] = home
	}
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": home}
	return invocation{Env: env, Seams: cmdutil.Seams{Http: w.http}}.roster(w.t, append(args, "--relay", w.relay.URL(), "--timeout", "5s")...)
}

// mustAs is as, failing the test unless roster exits 0.
func (w *swWorld) mustAs(sk string, args ...string) result {
	w.t.Helper()
	r := w.as(sk, args...)
	if r.Code != cmdutil.ExitOK {
		w.t.Fatalf("roster %v as %s: exit %d\nout: %s\nerr: %s", args, pubOf(w.t, sk)[:8], r.Code, r.Out, r.Err)
	}
	return r
}

// publishLegacy stores the owner's kind 30078 d=channel-sections blob: the
// fixture's legacy plaintext, NIP-44 encrypted to the owner.
func (w *swWorld) publishLegacy() *nostr.Event {
	w.t.Helper()
	s, err := signer.NewKeySigner(swOwnerSK, "env")
	if err != nil {
		w.t.Fatal(err)
	}
	plaintext := string(sectionstest.Load(w.t).Canonicalization.LegacyPlaintext.Input)
	ct, err := s.Encrypt(context.Background(), plaintext, pubOf(w.t, swOwnerSK))
	if err != nil {
		w.t.Fatal(err)
	}
	evt := &nostr.Event{Kind: sections.KindLegacy, CreatedAt: nostr.Now() - 100, Tags: nostr.Tags{{"d", sections.LegacyD}}, Content: ct}
	if err := evt.Sign(swOwnerSK); err != nil {
		w.t.Fatal(err)
	}
	if err := w.relay.PublishAs(evt.PubKey, evt); err != nil {
		w.t.Fatal(err)
	}
	return evt
}

// imported is a world where the owner imported the legacy blob.
func importedWorld(t *testing.T) *swWorld {
	w := newSWWorld(t)
	w.publishLegacy()
	w.mustAs(swOwnerSK, "workspace", "import")
	return w
}

// stored is the relay's own stored projection for the owner.
func (w *swWorld) stored() *sections.Projection {
	w.t.Helper()
	owner := pubOf(w.t, swOwnerSK)
	evts := w.relay.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}, Tags: nostr.TagMap{"d": {owner}}})
	if len(evts) != 1 {
		w.t.Fatalf("relay stores %d projections for the owner", len(evts))
	}
	v, err := sections.VerifyProjection(evts[0], w.relay.Self(), owner)
	if err != nil {
		w.t.Fatal(err)
	}
	return v.Projection
}

// decodeOut decodes a command's --json stdout into T.
func decodeOut[T any](t *testing.T, r result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.Out), &v); err != nil {
		t.Fatalf("stdout is not the expected JSON: %v\n%s\nstderr: %s", err, r.Out, r.Err)
	}
	return v
}

// errorOut is the common --json error shape {"error":{code,message,details,commands}}.
type errorOut struct {
	Error struct {
		Code     string         `json:"code"`
		Message  string         `json:"message"`
		Details  map[string]any `json:"details"`
		Commands []string       `json:"commands"`
	} `json:"error"`
}

func (w *swWorld) ownerNpub() string {
	return render.WsPerson(pubOf(w.t, swOwnerSK), "").Npub
}

func (w *swWorld) npub(sk string) string { return render.WsPerson(pubOf(w.t, sk), "").Npub }
