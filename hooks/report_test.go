package hooks

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestKnownHooksAreTheOnesRosterInstalls(t *testing.T) {
	for _, n := range Names {
		if !Known(n) {
			t.Errorf("Known(%q) = false", n)
		}
	}
	for _, n := range []string{"pre-commit", "", "post-checkout "} {
		if Known(n) {
			t.Errorf("Known(%q) = true", n)
		}
	}
}

func TestConfigCarriesAnAbsoluteHomeThenEachRelay(t *testing.T) {
	dir := t.TempDir()
	c, err := NewConfig("/bin/roster", "rel/home", dir, []string{"wss://a.example", "wss://b.example"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--home", filepath.Join(dir, "rel/home"), "--relay", "wss://a.example", "--relay", "wss://b.example"}
	if c.Binary != "/bin/roster" || !slices.Equal(c.Flags, want) {
		t.Fatalf("config %+v, want binary /bin/roster and flags %q", c, want)
	}
	c, err = NewConfig("", "/abs/home", dir, nil)
	if err != nil || !slices.Equal(c.Flags, []string{"--home", "/abs/home"}) {
		t.Fatalf("absolute home: %+v, %v", c, err)
	}
	c, _ = NewConfig("", "", dir, nil)
	if c.Flags != nil {
		t.Fatalf("no flags given, config carries %q", c.Flags)
	}
}

func TestActionsReportEachStepWithItsChainedHookOrNull(t *testing.T) {
	got, err := json.Marshal(Actions([]Step{
		{Name: "pre-push", Path: "/h/pre-push", Action: ActionChained, Chained: "/h/pre-push.roster-chained"},
		{Name: "post-merge", Path: "/h/post-merge", Action: ActionInstalled},
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"pre-push","path":"/h/pre-push","action":"chained","chained":"/h/pre-push.roster-chained"},{"name":"post-merge","path":"/h/post-merge","action":"installed","chained":null}]`
	if string(got) != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	if b, _ := json.Marshal(Actions(nil)); string(b) != "[]" {
		t.Fatalf("no steps: %s, want []", b)
	}
}

func TestStatusOfCurrentHooksSuggestsNoUpdate(t *testing.T) {
	dir := t.TempDir()
	if _, err := install(t, dir, testConfig); err != nil {
		t.Fatal(err)
	}
	slots, _ := Inspect(dir)
	st, update := Statuses(slots, testConfig.Binary)
	if update != nil {
		t.Fatalf("current hooks, update suggested: %v", update.Words())
	}
	for _, h := range st {
		if h.Status != StatusRoster || !h.Current || h.Stale() || *h.Binary != testConfig.Binary || !slices.Equal(h.Flags, testConfig.Flags) {
			t.Fatalf("%+v", h)
		}
	}
}

func TestStaleHooksSuggestInstallWithTheFlagsTheyCarry(t *testing.T) {
	dir := t.TempDir()
	if _, err := install(t, dir, testConfig); err != nil {
		t.Fatal(err)
	}
	slots, _ := Inspect(dir)
	st, update := Statuses(slots, "/another/roster")
	if update == nil {
		t.Fatal("hooks calling another binary, no update suggested")
	}
	if got := strings.Join(update.Words(), " "); got != "roster hooks install --home /tmp/it's home" {
		t.Fatalf("update %q", got)
	}
	for _, h := range st {
		if !h.Stale() {
			t.Fatalf("%s calls another binary and is not stale", h.Name)
		}
	}
}

func TestMissingAndForeignHooksAreNeitherStaleNorCallAnything(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pre-push"), "#!/bin/sh\nexit 0\n", 0o755)
	slots, _ := Inspect(dir)
	st, update := Statuses(slots, testConfig.Binary)
	if update != nil {
		t.Fatalf("no roster hook, update suggested: %v", update.Words())
	}
	b, _ := json.Marshal(st[len(st)-1])
	want := `{"name":"pre-push","path":"` + filepath.Join(dir, "pre-push") + `","status":"foreign","current":false,"chained":null,"binary":null,"flags":[]}`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	if st[0].Status != StatusMissing || st[0].Stale() {
		t.Fatalf("%+v", st[0])
	}
}
