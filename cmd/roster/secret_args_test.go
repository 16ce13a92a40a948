package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	cliroot "github.com/roster-cli/roster/internal/cli/root"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/spf13/cobra"
)

// A secret key given where a pubkey goes (an nsec, an ncryptsec, a bunker
// URL's secret) is refused, exit 2 secret-key-argument, and never
// repeated: no 8-character piece of it is on stdout or stderr, human or
// --json (only the format's name, "ncryptsec", is). Every pubkey-taking flag and argument, --repo and a stray
// argument are covered; hex stays accepted (it may be a pubkey).
func TestSecretKeyArgumentIsRefusedAndNeverEchoed(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	ncryptsec, err := signer.SealNcryptsec(k.Hex, "correct horse", 4, false)
	if err != nil {
		t.Fatal(err)
	}
	bunkerSecret := nostr.GeneratePrivateKey()[:32]
	bunkerURL := "bunker://" + k.Pubkey + "?relay=wss%3A%2F%2Frelay.example&secret=" + bunkerSecret
	secrets := []struct{ kind, value, secret string }{
		{"nsec", k.Nsec, k.Nsec},
		{"nsec", strings.ToUpper(k.Nsec), k.Nsec},
		{"ncryptsec", ncryptsec, ncryptsec},
		{"bunker secret", bunkerURL, bunkerSecret},
	}
	positions := []struct {
		where string
		argv  func(v string) []string
	}{
		{"--add-maintainer", func(v string) []string { return []string{"repo", "edit", "--add-maintainer", v} }},
		{"--remove-maintainer", func(v string) []string { return []string{"repo", "edit", "--remove-maintainer=" + v} }},
		{"--lead-maintainer", func(v string) []string { return []string{"repo", "edit", "--lead-maintainer", v, "--dry-run"} }},
		{"--acknowledge-maintainer-change", func(v string) []string { return []string{"repo", "edit", "--acknowledge-maintainer-change", v} }},
		{"--add-moderator", func(v string) []string { return []string{"repo", "edit", "--add-moderator", v} }},
		{"--remove-moderator", func(v string) []string { return []string{"repo", "edit", "--remove-moderator", v} }},
		{"argument 3", func(v string) []string { return []string{"workspace", "grant", v} }},
		{"argument 3", func(v string) []string { return []string{"workspace", "revoke", v} }},
		{"--owner", func(v string) []string { return []string{"workspace", "show", "--owner", v} }},
		{"--owner", func(v string) []string {
			return []string{"workspace", "move", "99999999-9999-4999-8999-999999999999", "--to", "x", "--owner", v}
		}},
		{"--owner", func(v string) []string { return []string{"workspace", "section", "add", "Archive", "--owner", v} }},
		{"--owner", func(v string) []string {
			return []string{"workspace", "unassign", "99999999-9999-4999-8999-999999999999", "--owner", v}
		}},
		{"--owner", func(v string) []string { return []string{"project", "list", "--owner", v} }},
		{"--repo", func(v string) []string { return []string{"repo", "--repo", "nostr://" + v + "/widgets"} }},
		{"argument 3", func(v string) []string { return []string{"repo", "edit", v} }},
		{"argument 2", func(v string) []string { return []string{v} }},
		{"--bogus", func(v string) []string { return []string{"repo", "edit", "--bogus=" + v} }},
	}
	env := clitest.HomeEnv(t)
	for _, s := range secrets {
		for _, p := range positions {
			for _, asJSON := range []bool{false, true} {
				argv := p.argv(s.value)
				if p.where == "argument 2" {
					argv = []string{"--offline", s.value}
				}
				if asJSON {
					argv = append(argv, "--json")
				}
				r := clitest.Invocation{Env: env}.Roster(t, argv...)
				if r.Code != cmdutil.ExitUsage {
					t.Fatalf("%v: exit %d, want 2; err %q", argv[:2], r.Code, r.Err)
				}
				msg := r.Err
				if asJSON {
					var body struct {
						Error report.ErrorBody `json:"error"`
					}
					if err := json.Unmarshal([]byte(r.Out), &body); err != nil {
						t.Fatalf("%s %s: stdout is not JSON: %v", s.kind, p.where, err)
					}
					if body.Error.Code != "secret-key-argument" || body.Error.Details["argument"] != p.where || body.Error.Details["kind"] != s.kind {
						t.Fatalf("%s %s: %+v", s.kind, p.where, body.Error)
					}
					msg = body.Error.Message
				}
				if !strings.Contains(msg, p.where+": that is a secret key: never paste it here") {
					t.Fatalf("%s %s: message %q", s.kind, p.where, msg)
				}
				for i := 0; i+8 <= len(s.secret); i++ {
					if strings.Contains("ncryptsec", s.secret[i:i+8]) {
						continue // the format's public name, which the message gives as the kind
					}
					for _, piece := range []string{s.secret[i : i+8], strings.ToUpper(s.secret[i : i+8])} {
						if strings.Contains(r.Out+r.Err, piece) {
							t.Fatalf("%s %s (json %v): output repeats %q of the secret: out %q err %q", s.kind, p.where, asJSON, piece, r.Out, r.Err)
						}
					}
				}
			}
		}
	}
}

// A 64-hex value may be a pubkey: it is not refused as a secret, and a
// bunker URL is still what `roster login --bunker` takes.
func TestHexPubkeyArgumentIsNotTakenForASecret(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	root := func() *cobra.Command {
		return cliroot.NewRootCmdFor(&cmdutil.Factory{Io: &cmdutil.IoStreams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}}, commands.All, nil)
	}
	if se := cliroot.RefuseSecretArguments(root(), []string{"repo", "edit", "--add-maintainer", k.Hex}); se != nil {
		t.Fatalf("hex refused: %v", se)
	}
	bunkerURL := "bunker://" + k.Pubkey + "?relay=wss://relay.example&secret=0123456789abcdef"
	if se := cliroot.RefuseSecretArguments(root(), []string{"login", "--bunker", bunkerURL}); se != nil {
		t.Fatalf("login --bunker refused: %v", se)
	}
	if se := cliroot.RefuseSecretArguments(root(), []string{"repo", "edit", "--add-maintainer", k.Npub}); se != nil {
		t.Fatalf("npub refused: %v", se)
	}
}
