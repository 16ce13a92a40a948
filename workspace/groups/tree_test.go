package groups

import (
	"strings"
	"testing"
)

func listed(id, name, parent string, children ...string) Listed {
	return Listed{ID: id, Metadata: &Metadata{Name: name, Parent: parent, Children: children}}
}

func flatten(n TreeNode, depth int, out *[]string) {
	s := strings.Repeat(".", depth) + n.ID
	if n.Missing {
		s += "?"
	}
	*out = append(*out, s)
	for _, c := range n.Children {
		flatten(c, depth+1, out)
	}
}

// Rule (nip-29.md "Subgroups"): the tree is assembled locally from one
// relay's 39000s: the root is found through parent tags, children follow
// their parent's child order, then any group naming the parent that the
// child tags leave out; a child tag without a 39000 is shown as missing; a
// cycle does not loop.
func TestSubgroupTreeFromOneRelaysMetadata(t *testing.T) {
	all := []Listed{
		listed("nip29", "NIP-29", "nostr"),
		listed("tech", "Tech", "", "nostr", "gone"),
		listed("nostr", "Nostr", "tech", "nip29"),
		listed("stray", "", "tech"),
		listed("alone", "", ""),
	}
	root, ok := Tree(all, "nip29")
	var got []string
	flatten(root, 0, &got)
	if !ok || strings.Join(got, " ") != "tech .nostr ..nip29 .gone? .stray" {
		t.Fatalf("%v", got)
	}
	if _, ok := Tree(all, "alone"); ok {
		t.Fatal("a group with neither parent nor children has a tree")
	}
	loop := []Listed{listed("a", "", "b", "b"), listed("b", "", "a", "a")}
	root, ok = Tree(loop, "a")
	got = nil
	flatten(root, 0, &got)
	if !ok || len(got) != 2 {
		t.Fatalf("cycle: %v", got)
	}
}
