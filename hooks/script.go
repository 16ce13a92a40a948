// Package hooks is the Git side of roster's warnings: the hook files
// `roster hooks install` writes into a checkout (install, chain to the
// hooks already there, uninstall, status) and the pre-push guard's
// decision. The file operations work on a hooks directory given as a path
// (which directory Git uses is gitstate's question); the guard is pure: it
// takes a resolution, the viewer, the pushed refs and an ancestry function.
package hooks

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Names are the hooks roster installs, in the order they are reported:
// three that repeat the advisory warnings after a Git command changed the
// checkout, and pre-push, the guard.
var Names = []string{"post-checkout", "post-merge", "post-rewrite", "pre-push"}

// Warns reports whether hook name only prints warnings (and never fails
// the Git command); pre-push is the one that may refuse.
func Warns(name string) bool { return name != "pre-push" }

// ChainedSuffix names the hook that was there before roster's: a foreign
// post-merge becomes post-merge.roster-chained and roster's post-merge
// runs it first.
const ChainedSuffix = ".roster-chained"

// markerPrefix starts the comment line that makes a hook file roster's
// (looked for in the first markerLines lines only, so a foreign hook that
// merely mentions roster is not taken for one).
const (
	markerPrefix = "# roster-hook "
	markerLines  = 5
	// configPrefix starts the comment line that records the Config the
	// hook was written with, so status can tell a current hook from one an
	// older roster, another binary or a hand edit left.
	configPrefix = "# roster-hook-config: "
	configLines  = 10
)

// RefusedExit is the exit code of `roster hooks run pre-push` when the
// guard refuses (docs/exit-codes.md: refused by a safety check); the
// pre-push script turns only that code into a refused push.
const RefusedExit = 3

// GuardTimeout is the pre-push guard's deadline for the relays: a push
// waits at most this long for roster (per relay, all in parallel).
const GuardTimeout = "5s"

// Config is what every roster hook file carries, fixed at install time.
type Config struct {
	// Binary is the absolute path of the roster binary (os.Executable at
	// install time), or "" to use `roster` on PATH. The script falls back
	// to `roster` on PATH when the file is no longer executable.
	Binary string `json:"binary"`
	// Flags are global flags the hooks pass on every call (the --home and
	// --relay flags install was given), so the hooks read the same cache
	// and relays as the command that installed them.
	Flags []string `json:"flags"`
}

// ParseConfig reads the Config a roster hook file records.
func ParseConfig(content []byte) (Config, bool) {
	var c Config
	lines := strings.SplitN(string(content), "\n", configLines+1)
	for i, l := range lines {
		if i == configLines {
			break
		}
		if v, ok := strings.CutPrefix(l, configPrefix); ok {
			return c, json.Unmarshal([]byte(v), &c) == nil
		}
	}
	return c, false
}

// Script is the hook file roster writes for name. It is POSIX sh and:
//   - runs <name>.roster-chained first, when that is executable, with the
//     same arguments (and, for pre-push and post-rewrite, the same stdin);
//     its exit status is the hook's, as it was before roster was installed,
//     and a pre-push whose chained hook fails stops there;
//   - then runs `roster hooks run <name>` with the cache alone (--offline)
//     for the warning hooks, or with GuardTimeout for pre-push, stdin from
//     /dev/null except for pre-push (which reads the pushed refs);
//   - never fails the Git command because of roster: a warning hook's
//     roster part always ends in exit 0, and pre-push refuses only when
//     roster exits RefusedExit or when no roster can be found at the
//     recorded absolute path (Config.Binary, the roster that installed it)
//     or on PATH: then it fails the push naming that path (GUI Git clients
//     run hooks with a minimal PATH). A roster that crashes lets the push
//     through, saying so.
func Script(name string, c Config) []byte {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	bin := c.Binary
	if bin == "" {
		bin = "roster"
	}
	args := []string{}
	for _, f := range c.Flags {
		args = append(args, shWord(f))
	}
	if Warns(name) {
		args = append(args, "--offline")
	} else {
		args = append(args, "--timeout", GuardTimeout)
	}
	args = append(args, "hooks", "run", name, "--")
	chained := name + ChainedSuffix
	stdin := name == "pre-push" || name == "post-rewrite"

	recorded := c
	if recorded.Flags == nil {
		recorded.Flags = []string{}
	}
	cfg, _ := json.Marshal(recorded) // one line: strings are escaped

	w("#!/bin/sh")
	w("%sv1 %s: written by `roster hooks install`; `roster hooks uninstall` removes it", markerPrefix, name)
	w("# and puts back %s, the hook that was here before, if any.", chained)
	if Warns(name) {
		w("# It prints roster's warnings for this checkout from the local cache; it never")
		w("# fails the Git command (the chained hook's exit status is passed on).")
	} else {
		w("# It refuses a push only when roster's guard does (exit %d); see docs/usage.md.", RefusedExit)
	}
	w("%s%s", configPrefix, cfg)
	w("roster=%s", shWord(bin))
	w(`hookdir=$(dirname -- "$0")`)
	w("status=0")
	if stdin {
		// Keep stdin byte for byte (trailing newlines included) for both readers.
		w("input=$(cat; echo .)")
		w("input=${input%%.}")
	}
	w(`if [ -x "$hookdir/%s" ]; then`, chained)
	if stdin {
		w(`	printf '%%s' "$input" | "$hookdir/%s" "$@"`, chained)
	} else {
		w(`	"$hookdir/%s" "$@"`, chained)
	}
	w("	status=$?")
	w("fi")
	if !Warns(name) {
		w(`[ "$status" -eq 0 ] || exit "$status"`)
	}
	w(`if [ ! -x "$roster" ]; then`)
	w(`	if command -v roster >/dev/null 2>&1; then`)
	w("		roster=roster")
	w("	else")
	if Warns(name) {
		w(`		echo "roster hook: no roster binary at $roster or on PATH; no warnings (run: roster hooks install)" >&2`)
		w(`		exit "$status"`)
	} else {
		// A GUI Git client runs hooks with a minimal PATH: a guard that
		// silently did nothing would let every push through unchecked.
		w(`		echo "roster hook: refusing the push: the pre-push guard needs roster, which was installed at $roster, but nothing is there and no roster is on PATH ($PATH); reinstall the hooks with the roster you use (roster hooks install), or push with git push --no-verify to skip the check once" >&2`)
		w("		exit 1")
	}
	w("	fi")
	w("fi")
	call := `"$roster" ` + strings.Join(args, " ") + ` "$@"`
	if Warns(name) {
		w("%s </dev/null >&2", call)
		w(`exit "$status"`)
		return []byte(b.String())
	}
	w(`printf '%%s' "$input" | %s >&2`, call)
	w("rc=$?")
	w(`if [ "$rc" -eq %d ]; then exit %d; fi`, RefusedExit, RefusedExit)
	w(`if [ "$rc" -ne 0 ]; then echo "roster hook: roster exited $rc; the push is not checked" >&2; fi`)
	w("exit 0")
	return []byte(b.String())
}

// shWord quotes s as one POSIX shell word, always in single quotes.
func shWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// IsRosters reports whether content is a hook file roster wrote: its
// marker comment is among the first lines.
func IsRosters(content []byte) bool {
	lines := strings.SplitN(string(content), "\n", markerLines+1)
	for i, l := range lines {
		if i == markerLines {
			break
		}
		if strings.HasPrefix(l, markerPrefix) {
			return true
		}
	}
	return false
}
