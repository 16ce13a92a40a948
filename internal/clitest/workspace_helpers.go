package clitest

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
	SwOwnerSK   = strings.Repeat("31", 32)
	SwViewerSK  = strings.Repeat("32", 32)
	SwMoverSK   = strings.Repeat("33", 32)
	SwManagerSK = strings.Repeat("34", 32)
	SwRelaySK   = strings.Repeat("35", 32) // lets tests sign as the relay (a misbehaving one)
	SwForgerSK  = strings.Repeat("36", 32)
)

// SwWorld is one devrelay requiring NIP-42 and running the NIP-SW authority,
// plus one ROSTER_HOME per person.
type SwWorld struct {
	T     *testing.T
	Relay *devrelay.Relay
	Homes map[string]string
	Http  *http.Client // NIP-05 lookups (nip05Server), nil for none
}

func NewSWWorld(t *testing.T) *SwWorld {
	t.Helper()
	return NewSWWorldWith(t, swrelay.New(swrelay.Options{}))
}

// NewSWWorldWith runs auth (the reference authority, or a misbehaving wrapper
// of it) as the relay's NIP-SW authority.
func NewSWWorldWith(t *testing.T, auth devrelay.Authority) *SwWorld {
	t.Helper()
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: SwRelaySK, RequireAuth: true,
		Authorities: []devrelay.Authority{auth}})[0]
	return &SwWorld{T: t, Relay: r, Homes: map[string]string{}}
}

// PubOf is the public key of the test secret key sk.
func PubOf(t *testing.T, sk string) string {
	t.Helper()
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// As runs roster as the person holding sk against the world's relay.
func (w *SwWorld) As(sk string, args ...string) Result {
	w.T.Helper()
	home, ok := w.Homes[sk]
	if !ok {
		home = w.T.TempDir()
		w.Homes[sk] = home
	}
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": home}
	return Invocation{Env: env, Seams: cmdutil.Seams{Http: w.Http}}.Roster(w.T, append(args, "--relay", w.Relay.URL(), "--timeout", "5s")...)
}

// MustAs is as, failing the test unless roster exits 0.
func (w *SwWorld) MustAs(sk string, args ...string) Result {
	w.T.Helper()
	r := w.As(sk, args...)
	if r.Code != cmdutil.ExitOK {
		w.T.Fatalf("roster %v as %s: exit %d\nout: %s\nerr: %s", args, PubOf(w.T, sk)[:8], r.Code, r.Out, r.Err)
	}
	return r
}

// PublishLegacy stores the owner's kind 30078 d=channel-sections blob: the
// fixture's legacy plaintext, NIP-44 encrypted to the owner.
func (w *SwWorld) PublishLegacy() *nostr.Event {
	w.T.Helper()
	s, err := signer.NewKeySigner(SwOwnerSK, "env")
	if err != nil {
		w.T.Fatal(err)
	}
	plaintext := string(sectionstest.Load(w.T).Canonicalization.LegacyPlaintext.Input)
	ct, err := s.Encrypt(context.Background(), plaintext, PubOf(w.T, SwOwnerSK))
	if err != nil {
		w.T.Fatal(err)
	}
	evt := &nostr.Event{Kind: sections.KindLegacy, CreatedAt: nostr.Now() - 100, Tags: nostr.Tags{{"d", sections.LegacyD}}, Content: ct}
	if err := evt.Sign(SwOwnerSK); err != nil {
		w.T.Fatal(err)
	}
	if err := w.Relay.PublishAs(evt.PubKey, evt); err != nil {
		w.T.Fatal(err)
	}
	return evt
}

// imported is a world where the owner imported the legacy blob.
func ImportedWorld(t *testing.T) *SwWorld {
	w := NewSWWorld(t)
	w.PublishLegacy()
	w.MustAs(SwOwnerSK, "workspace", "import")
	return w
}

// Stored is the relay's own stored projection for the owner.
func (w *SwWorld) Stored() *sections.Projection {
	w.T.Helper()
	owner := PubOf(w.T, SwOwnerSK)
	evts := w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}, Tags: nostr.TagMap{"d": {owner}}})
	if len(evts) != 1 {
		w.T.Fatalf("relay stores %d projections for the owner", len(evts))
	}
	v, err := sections.VerifyProjection(evts[0], w.Relay.Self(), owner)
	if err != nil {
		w.T.Fatal(err)
	}
	return v.Projection
}

// DecodeOut decodes a command's --json stdout into T.
func DecodeOut[T any](t *testing.T, r Result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.Out), &v); err != nil {
		t.Fatalf("stdout is not the expected JSON: %v\n%s\nstderr: %s", err, r.Out, r.Err)
	}
	return v
}

// ErrorOut is the common --json error shape {"error":{code,message,details,commands}}.
type ErrorOut struct {
	Error struct {
		Code     string         `json:"code"`
		Message  string         `json:"message"`
		Details  map[string]any `json:"details"`
		Commands []string       `json:"commands"`
	} `json:"error"`
}

func (w *SwWorld) OwnerNpub() string {
	return render.WsPerson(PubOf(w.T, SwOwnerSK), "").Npub
}

func (w *SwWorld) Npub(sk string) string { return render.WsPerson(PubOf(w.T, sk), "").Npub }
