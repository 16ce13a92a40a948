package groups

// TreeNode is one group in a relay's subgroup tree.
type TreeNode struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Missing: a child tag names a group the relay signed no 39000 for.
	Missing  bool       `json:"missing,omitempty"`
	Children []TreeNode `json:"children"`
}

// Tree assembles the subgroup tree holding group id from one relay's
// groups (nip-29.md "Subgroups": the tree is scoped to a single relay):
// the root reached by following `parent` tags up from id, and below each
// group its `child` tags in their order, then any group whose `parent`
// names it that its child tags leave out. ok is false when id is not
// among the groups or is in no tree (neither parent nor children).
func Tree(listed []Listed, id string) (root TreeNode, ok bool) {
	byID := map[string]Listed{}
	under := map[string][]string{}
	for _, l := range listed {
		byID[l.ID] = l
	}
	for _, l := range listed {
		if p := l.Metadata.Parent; p != "" {
			under[p] = append(under[p], l.ID)
		}
	}
	me, found := byID[id]
	if !found || me.Metadata.Parent == "" && len(me.Metadata.Children) == 0 && len(under[id]) == 0 {
		return TreeNode{}, false
	}
	top := id
	seen := map[string]bool{id: true}
	for {
		p := byID[top].Metadata.Parent
		if _, known := byID[p]; p == "" || !known || seen[p] {
			break
		}
		seen[p] = true
		top = p
	}
	return build(byID, under, top, map[string]bool{}), true
}

func build(byID map[string]Listed, under map[string][]string, id string, onPath map[string]bool) TreeNode {
	l, known := byID[id]
	n := TreeNode{ID: id, Missing: !known, Children: []TreeNode{}}
	if !known {
		return n
	}
	n.Name = l.Metadata.Name
	onPath[id] = true
	defer delete(onPath, id)
	var kids []string
	added := map[string]bool{}
	for _, c := range append(append([]string{}, l.Metadata.Children...), under[id]...) {
		if !added[c] && !onPath[c] {
			added[c] = true
			kids = append(kids, c)
		}
	}
	for _, c := range kids {
		n.Children = append(n.Children, build(byID, under, c, onPath))
	}
	return n
}
