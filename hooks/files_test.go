package hooks

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var testConfig = Config{Binary: "/opt/roster/bin/roster", Flags: []string{"--home", "/tmp/it's home"}}

func install(t *testing.T, dir string, c Config) ([]Step, error) {
	t.Helper()
	slots, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := PlanInstall(slots, c)
	if err != nil {
		return nil, err
	}
	return steps, Apply(dir, steps)
}

func uninstall(t *testing.T, dir string) []Step {
	t.Helper()
	slots, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	steps := PlanUninstall(slots)
	if err := Apply(dir, steps); err != nil {
		t.Fatal(err)
	}
	return steps
}

func actions(steps []Step) map[string]string {
	m := map[string]string{}
	for _, s := range steps {
		m[s.Name] = s.Action
	}
	return m
}

func statuses(t *testing.T, dir string) map[string]string {
	t.Helper()
	slots, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, s := range slots {
		m[s.Name] = s.Status()
	}
	return m
}

func write(t *testing.T, p, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// Every hook file roster writes is valid POSIX sh, carries the marker,
// and quotes what install baked into it.
func TestScriptsAreShellWithTheMarker(t *testing.T) {
	for _, n := range Names {
		s := Script(n, testConfig)
		if !IsRosters(s) {
			t.Errorf("%s: no marker:\n%s", n, s)
		}
		cmd := exec.Command("sh", "-n")
		cmd.Stdin = strings.NewReader(string(s))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: sh -n: %v\n%s\n%s", n, err, out, s)
		}
		if !strings.Contains(string(s), `'/tmp/it'\''s home'`) {
			t.Errorf("%s: --home not quoted as one word:\n%s", n, s)
		}
		if Warns(n) != strings.Contains(string(s), "--offline") {
			t.Errorf("%s: warning hooks read the cache alone, pre-push the relays:\n%s", n, s)
		}
	}
	if IsRosters([]byte("#!/bin/sh\necho hi\n\n\n\n# roster-hook v1 mentioned late\n")) {
		t.Error("a marker after the first lines does not make a hook roster's")
	}
}

// Install writes the four hooks; installing again with the same
// configuration changes nothing, with another binary rewrites them; status
// tells roster's hooks from missing ones.
func TestInstallIsIdempotent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hooks") // does not exist yet
	if st := statuses(t, dir); st["pre-push"] != StatusMissing {
		t.Fatalf("empty: %v", st)
	}
	steps, err := install(t, dir, testConfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Names {
		if actions(steps)[n] != ActionInstalled {
			t.Fatalf("first install: %v", actions(steps))
		}
		fi, err := os.Stat(filepath.Join(dir, n))
		if err != nil || fi.Mode().Perm() != 0o755 {
			t.Fatalf("%s: %v %v", n, fi, err)
		}
	}
	steps, err = install(t, dir, testConfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Names {
		if actions(steps)[n] != ActionUnchanged {
			t.Fatalf("second install: %v", actions(steps))
		}
	}
	steps, err = install(t, dir, Config{Binary: "/elsewhere/roster"})
	if err != nil {
		t.Fatal(err)
	}
	if actions(steps)["post-merge"] != ActionUpdated || statuses(t, dir)["post-merge"] != StatusRoster {
		t.Fatalf("another binary: %v %v", actions(steps), statuses(t, dir))
	}
	slots, _ := Inspect(dir)
	if !slots[0].Current("/elsewhere/roster") || slots[0].Current(testConfig.Binary) {
		t.Fatalf("current: a hook is current for the binary it calls only")
	}
	if c, ok := slots[0].Config(); !ok || c.Binary != "/elsewhere/roster" || len(c.Flags) != 0 {
		t.Fatalf("recorded config %+v %v", c, ok)
	}
	// A hand edit makes the hook not current, and install rewrites it.
	p := filepath.Join(dir, "post-checkout")
	b, _ := os.ReadFile(p)
	write(t, p, strings.Replace(string(b), "exit", "echo edited; exit", 1), 0o755)
	if slots, _ = Inspect(dir); slots[0].Current("/elsewhere/roster") || slots[0].Status() != StatusRoster {
		t.Fatalf("edited hook: current %v, status %s", slots[0].Current("/elsewhere/roster"), slots[0].Status())
	}
	if steps, err = install(t, dir, Config{Binary: "/elsewhere/roster"}); err != nil || actions(steps)["post-checkout"] != ActionUpdated {
		t.Fatalf("install over an edited hook: %v %v", actions(steps), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(Names) {
		t.Fatalf("the hooks directory holds %d entries, want only the %d hooks (no temporary files)", len(entries), len(Names))
	}
}

// A foreign executable hook is kept as <name>.roster-chained, never
// overwritten; uninstall puts it back byte for byte with its mode.
func TestForeignHookIsChainedAndRestored(t *testing.T) {
	dir := t.TempDir()
	mine := "#!/bin/sh\necho mine\n"
	write(t, filepath.Join(dir, "post-merge"), mine, 0o750)
	steps, err := install(t, dir, testConfig)
	if err != nil {
		t.Fatal(err)
	}
	if a := actions(steps); a["post-merge"] != ActionChained || a["pre-push"] != ActionInstalled {
		t.Fatalf("actions %v", a)
	}
	if st := statuses(t, dir); st["post-merge"] != StatusChained || st["post-checkout"] != StatusRoster {
		t.Fatalf("status %v", st)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "post-merge.roster-chained")); string(b) != mine {
		t.Fatalf("chained hook content %q", b)
	}
	// Re-installing keeps the chain as it is.
	if steps, err = install(t, dir, testConfig); err != nil || actions(steps)["post-merge"] != ActionUnchanged {
		t.Fatalf("reinstall: %v %v", actions(steps), err)
	}
	steps = uninstall(t, dir)
	if a := actions(steps); a["post-merge"] != ActionRestored || a["pre-push"] != ActionRemoved {
		t.Fatalf("uninstall actions %v", a)
	}
	b, err := os.ReadFile(filepath.Join(dir, "post-merge"))
	fi, _ := os.Stat(filepath.Join(dir, "post-merge"))
	if err != nil || string(b) != mine || fi.Mode().Perm() != 0o750 {
		t.Fatalf("restored hook %q mode %v err %v", b, fi.Mode(), err)
	}
	for n, s := range statuses(t, dir) {
		if n != "post-merge" && s != StatusMissing {
			t.Fatalf("after uninstall %s is %s", n, s)
		}
	}
	if a := actions(uninstall(t, dir)); a["post-merge"] != ActionLeft || a["pre-push"] != ActionNone {
		t.Fatalf("uninstall again: %v", a)
	}
}

// A hook that cannot be chained refuses the whole install, naming the
// file and why, and nothing is written.
func TestUnchainableHookRefusesInstall(t *testing.T) {
	cases := map[string]struct {
		setup  func(t *testing.T, p string)
		reason string
	}{
		"not executable": {func(t *testing.T, p string) { write(t, p, "#!/bin/sh\n", 0o644) }, "not-executable"},
		"no #! line":     {func(t *testing.T, p string) { write(t, p, "echo hi\n", 0o755) }, "no-interpreter"},
		"symlink": {func(t *testing.T, p string) {
			target := filepath.Join(t.TempDir(), "shared-hook")
			write(t, target, "#!/bin/sh\n", 0o755)
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		}, "symlink"},
		"directory": {func(t *testing.T, p string) { os.Mkdir(p, 0o755) }, "directory"},
		"chained file already there": {func(t *testing.T, p string) {
			write(t, p, "#!/bin/sh\n", 0o755)
			write(t, p+ChainedSuffix, "#!/bin/sh\n", 0o755)
		}, "chained-exists"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "pre-push")
			c.setup(t, p)
			before, _ := os.ReadDir(dir)
			_, err := install(t, dir, testConfig)
			var nc *NotChainable
			if !errors.As(err, &nc) || len(nc.Problems) != 1 || nc.Problems[0].Reason != c.reason || nc.Problems[0].Path != p {
				t.Fatalf("err %v, want one %s problem for %s", err, c.reason, p)
			}
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("the message does not name the file: %v", err)
			}
			if after, _ := os.ReadDir(dir); len(after) != len(before) {
				t.Fatalf("install wrote something: %d entries before, %d after", len(before), len(after))
			}
		})
	}
}

// Uninstall puts back a chained hook whose roster hook was deleted by hand.
func TestUninstallRestoresAnOrphanedChainedHook(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "post-checkout"), "#!/bin/sh\necho theirs\n", 0o755)
	if _, err := install(t, dir, testConfig); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "post-checkout"))
	if a := actions(uninstall(t, dir)); a["post-checkout"] != ActionRestored {
		t.Fatalf("actions %v", a)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "post-checkout")); string(b) != "#!/bin/sh\necho theirs\n" {
		t.Fatalf("restored %q", b)
	}
}
