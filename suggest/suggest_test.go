package suggest

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestARenderedCommandQuotesWhatTheShellWouldSplit(t *testing.T) {
	c := Roster("repo", "--repo", "nostr://npub1x/my repo")
	if got, want := c.String(), "roster repo --repo 'nostr://npub1x/my repo'"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := Roster("repo", "edit", "--add-maintainer", "<npub>").String(); got != "roster repo edit --add-maintainer <npub>" {
		t.Fatalf("a placeholder is never quoted: %q", got)
	}
	if got := Quote("it's"); got != `'it'\''s'` {
		t.Fatalf("quote %q", got)
	}
	for in, want := range map[string]string{
		"wss://<another relay hosting the group>":               "wss://<another relay hosting the group>",
		"bunker://<pubkey>?relay=wss://<relay>&secret=<secret>": "'bunker://<pubkey>?relay=wss://<relay>&secret=<secret>'",
		"": "''",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWhoRunsItAndWhyFollowTheCommand(t *testing.T) {
	c := Roster("repo", "follow-lead")
	for _, tc := range []struct {
		c    Command
		want string
	}{
		{c.ByPerson("npub1bob"), "roster repo follow-lead  # run by npub1bob"},
		{c.Because("the lead's coordinate"), "roster repo follow-lead  # the lead's coordinate"},
		{c.ByPerson("npub1bob").Because("once"), "roster repo follow-lead  # run by npub1bob, once"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestSelectorsGoToTheCommandsThatUseThem(t *testing.T) {
	sel := Selectors{Repo: "origin", Relays: []string{"ws://a", "ws://b"}, Home: "/tmp/h"}
	for _, tc := range []struct {
		c    Command
		want string
	}{
		{Roster("repo", "accept"), "roster repo accept --repo origin --relay ws://a --relay ws://b --home /tmp/h"},
		// a command for another person: their own home, and no remote name
		// of the user's checkout
		{Roster("repo", "edit", "--add-maintainer", "npub1c").ByPerson("npub1a"),
			"roster repo edit --add-maintainer npub1c --relay ws://a --relay ws://b  # run by npub1a"},
		// a deliberate single-relay check keeps its relay, after the selectors
		{Roster("repo").With("--relay", "ws://c"), "roster repo --repo origin --home /tmp/h --relay ws://c"},
		// what a suggestion adds follows the command it repeats
		{Roster("repo", "edit", "--add-maintainer", "npub1c").With("--timeout", "30s").Because("retry"),
			"roster repo edit --add-maintainer npub1c --repo origin --relay ws://a --relay ws://b --home /tmp/h --timeout 30s  # retry"},
		// another repository keeps its own --repo
		{Roster("repo", "--repo", "nostr://npub1l/x"), "roster repo --repo nostr://npub1l/x --relay ws://a --relay ws://b --home /tmp/h"},
		{Roster("cache", "clear"), "roster cache clear --home /tmp/h"},
		{Roster("workspace", "show"), "roster workspace show --relay ws://a --relay ws://b --home /tmp/h"},
		{Roster("version"), "roster version"},
		{Git("config", "nostr.repo", "naddr1x"), "git config nostr.repo naddr1x"},
		{Shell("cd <your clone> && roster repo"), "cd <your clone> && roster repo"},
		{Roster("repo").Pin(), "roster repo"},
	} {
		if got := sel.Render(tc.c); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
	if got := (Selectors{}).Render(Roster("repo", "accept")); got != "roster repo accept" {
		t.Errorf("no selectors given, none added: %q", got)
	}
}

func TestEqualSuggestionsAreRenderedOnce(t *testing.T) {
	a := Roster("repo", "follow-lead").ByPerson("npub1b")
	got := Selectors{}.RenderAll([]Command{a, Roster("repo"), a.Because("again"), Roster("repo", "follow-lead")})
	want := []string{"roster repo follow-lead  # run by npub1b", "roster repo", "roster repo follow-lead"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestGuidanceNamesEachCommandOnce(t *testing.T) {
	fl := Roster("repo", "follow-lead")
	got := Texts(Group([]Advice{
		Do("record the start of A", fl),
		Note("plain"),
		Do("record the end of B", fl),
		Do("record the start of A", fl),
		Note("plain"),
	}), Selectors{Repo: "r"})
	want := []string{"record the start of A; also record the end of B with: roster repo follow-lead --repo r", "plain"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestACommandInJSONIsItsText(t *testing.T) {
	b, err := json.Marshal(struct {
		C Command  `json:"c"`
		P *Command `json:"p,omitempty"`
	}{C: Roster("repo", "accept").ByPerson("npub1a")})
	if err != nil || string(b) != `{"c":"roster repo accept  # run by npub1a"}` {
		t.Fatalf("%s %v", b, err)
	}
}

func TestExtendsIsTheSameCommandWithMoreWords(t *testing.T) {
	fl := Roster("repo", "follow-lead")
	if !fl.With("--repo", "x").Extends(fl) || !fl.Extends(fl) || Roster("repo").Extends(fl) || fl.By(Say("b")).Extends(fl) {
		t.Fatal("Extends")
	}
}

func TestABlockRendersItsCommandsInPlaceWithSelectors(t *testing.T) {
	b := Block{Say("repair with:\n  "), Run(Roster("repo", "edit", "--fix-maintainers")), Say("\nthen rerun")}
	if got := b.Render(Selectors{Repo: "o"}); got != "repair with:\n  roster repo edit --fix-maintainers --repo o\nthen rerun" {
		t.Fatalf("%q", got)
	}
	if b.Closing() != nil {
		t.Fatal("a block ending in text has no closing command")
	}
	if c := (Block{Say("accept with: "), Run(Roster("repo", "accept"))}).Closing(); c == nil || !c.Equal(Roster("repo", "accept")) {
		t.Fatalf("closing %v", c)
	}
}

// Rule (a command for another person carries only what that person
// needs): it runs in their own roster home with their own key, so it gets
// the repository as anyone names it and the relays, never the user's
// --home; a command run by the user alone keeps every selector.
func TestACommandForAnotherPersonCarriesTheRepositoryAndRelaysOnly(t *testing.T) {
	accept := Roster("repo", "accept")
	for _, tc := range []struct {
		sel  Selectors
		c    Command
		want string
	}{
		{Selectors{Repo: "naddr1x", Relays: []string{"ws://a"}, Home: "/home/alice/.roster", Me: "npub1alice"},
			accept.ByPerson("npub1bob"), "roster repo accept --repo naddr1x --relay ws://a  # run by npub1bob"},
		// a remote name means nothing in bob's checkout: the shared coordinate instead
		{Selectors{Repo: "origin", Shared: "nostr://npub1alice/x", Home: "/h", Me: "npub1alice"},
			accept.ByPerson("npub1bob"), "roster repo accept --repo nostr://npub1alice/x  # run by npub1bob"},
		{Selectors{Repo: "origin", Home: "/h"}, accept.By(Say("the new lead")), "roster repo accept  # run by the new lead"},
		// the user's own command, even when it names them
		{Selectors{Repo: "origin", Home: "/h", Me: "npub1alice"}, accept.ByPerson("npub1alice"),
			"roster repo accept --repo origin --home /h  # run by npub1alice"},
		{Selectors{Relays: []string{"ws://a"}, Home: "/h", Me: "npub1alice"}, Roster("workspace", "grant", "npub1bob").ByPerson("npub1carol"),
			"roster workspace grant npub1bob --relay ws://a  # run by npub1carol"},
	} {
		if got := tc.sel.Render(tc.c); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
