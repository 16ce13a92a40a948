package gitstate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DemoRepository makes a small repository for `roster dev relay --seed
// demo` under dir: a bare repository holding main, release-1.x and an
// annotated tag v1.0.0 on release-1.x, its HEAD main, made with the real git. It returns
// the bare repository's file:// URL, which the demo announcements advertise
// as their clone URL (so a previewed change can check that every object the
// state names is fetchable), and the refs as a kind 30618 state names them.
func DemoRepository(dir string) (cloneURL string, refs map[string]string, err error) {
	const need = "making the demo's Git repository"
	work, bare := filepath.Join(dir, "work"), filepath.Join(dir, "roster-demo.git")
	env := []string{"-c", "user.name=roster demo", "-c", "user.email=demo@roster.invalid", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}
	steps := [][]string{
		{"init", "-q", "--bare", bare},
		{"init", "-q", "-b", "main", work},
		append(append([]string{"-C", work}, env...), "commit", "-q", "--allow-empty", "-m", "The first commit"),
		{"-C", work, "checkout", "-q", "-b", "release-1.x"},
		append(append([]string{"-C", work}, env...), "commit", "-q", "--allow-empty", "-m", "Release 1.0"),
		append(append([]string{"-C", work}, env...), "tag", "-a", "-m", "v1.0.0", "v1.0.0"),
		{"-C", work, "push", "-q", bare, "main", "release-1.x", "v1.0.0"},
		// HEAD names a branch that exists (git init --bare points it at
		// init.defaultBranch, often master): a clone checks out main.
		{"-C", bare, "symbolic-ref", "HEAD", "refs/heads/main"},
	}
	for _, args := range steps {
		if _, err := runGit(dir, need, args...); err != nil {
			return "", nil, err
		}
	}
	rev := func(name string) (string, error) {
		out, err := runGit(bare, need, "rev-parse", name)
		return strings.TrimSpace(string(out)), err
	}
	refs = map[string]string{}
	for ref, name := range map[string]string{"refs/heads/main": "main", "refs/heads/release-1.x": "release-1.x",
		"refs/tags/v1.0.0": "refs/tags/v1.0.0", "refs/tags/v1.0.0^{}": "v1.0.0^{commit}"} {
		if refs[ref], err = rev(name); err != nil {
			return "", nil, err
		}
	}
	if err := os.RemoveAll(work); err != nil {
		return "", nil, fmt.Errorf("%s: %w", need, err)
	}
	return "file://" + bare, refs, nil
}
