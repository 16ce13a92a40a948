package statepub_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/statepub"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin:/usr/local/bin", "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func checkoutView(t *testing.T, st *graph.State) (*discovery.View, string) {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
	oid := git(t, dir, "rev-parse", "HEAD")
	co, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := graph.NewCoordinate(strings.Repeat("a", 64), "p")
	return &discovery.View{Selection: gitstate.Selection{Coordinate: c}, Checkout: co, State: st}, oid
}

// Rule: a checkout whose branches are the resolved state's is aligned;
// with no resolved state it is not, and publishing would add its refs.
func TestACheckoutMatchingTheResolvedStateIsAligned(t *testing.T) {
	v, oid := checkoutView(t, nil)
	cmp, err := statepub.CompareCheckout(v)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Aligned() || cmp.Resolved != nil || len(cmp.Alignment.ForceWould) == 0 {
		t.Fatalf("no state: aligned=%v force_would=%v", cmp.Aligned(), cmp.Alignment.ForceWould)
	}
	v.State = &graph.State{EventID: "e1", Author: strings.Repeat("a", 64), Head: "refs/heads/main", Refs: map[string]string{"refs/heads/main": oid}}
	if cmp, err = statepub.CompareCheckout(v); err != nil {
		t.Fatal(err)
	}
	if !cmp.Aligned() || cmp.Remote != "" || cmp.Dir == "" || cmp.Resolved.EventID != "e1" {
		t.Fatalf("matching state: %+v", cmp)
	}
}

// Rule: a state ref the checkout has at another commit is an update to
// align, both ways.
func TestACheckoutBehindTheStateListsTheUpdateToAlign(t *testing.T) {
	v, oid := checkoutView(t, nil)
	other := strings.Repeat("b", 40)
	v.State = &graph.State{EventID: "e1", Head: "refs/heads/main", Refs: map[string]string{"refs/heads/main": other}}
	cmp, err := statepub.CompareCheckout(v)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Aligned() || len(cmp.Alignment.Align) != 1 || cmp.Alignment.Align[0].To != other || cmp.Alignment.Align[0].From != oid {
		t.Fatalf("align %+v", cmp.Alignment.Align)
	}
}
