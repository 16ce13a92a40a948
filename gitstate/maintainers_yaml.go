package gitstate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/flatyaml"
)

// maintainersFile is ngit's legacy coordinate fallback at the work-tree root.
const maintainersFile = "maintainers.yaml"

// maintainersYAML is the shape ngit writes: identifier, maintainers (npubs,
// the first is the selected maintainer) and relays. It is a coordinate
// fallback only, never a role or history store.
type maintainersYAML struct {
	Identifier  string
	Maintainers []string
	Relays      []string
}

// parseMaintainersYAML reads the three keys. Other keys are ignored, as
// they always were, so long as they are flat (internal/flatyaml).
func parseMaintainersYAML(data []byte) (maintainersYAML, error) {
	var m maintainersYAML
	doc, err := flatyaml.Parse(data)
	if err == nil {
		m.Identifier, err = doc.String("identifier")
	}
	if err == nil {
		m.Maintainers, err = doc.Strings("maintainers")
	}
	if err == nil {
		m.Relays, err = doc.Strings("relays")
	}
	return m, err
}

// readMaintainersYAML returns the selection maintainers.yaml names, and
// whether the file exists.
func readMaintainersYAML(root string) (Selection, bool, error) {
	path := filepath.Join(root, maintainersFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Selection{}, false, nil
	}
	if err != nil {
		return Selection{}, true, fmt.Errorf("read %s: %w", path, err)
	}
	doc, err := parseMaintainersYAML(data)
	if err != nil {
		return Selection{}, true, fmt.Errorf("%s cannot be read: %v; fix it or pass --repo <naddr>", path, err)
	}
	if doc.Identifier == "" {
		return Selection{}, true, fmt.Errorf("%s has no identifier; fix it or pass --repo <naddr>", path)
	}
	if len(doc.Maintainers) == 0 {
		return Selection{}, true, fmt.Errorf("%s lists no maintainers; fix it or pass --repo <naddr>", path)
	}
	pk, err := DecodePubkey(doc.Maintainers[0])
	if err != nil {
		return Selection{}, true, fmt.Errorf("%s: first maintainer: %v; fix it or pass --repo <naddr>", path, err)
	}
	sel := Selection{
		Coordinate: graph.NewCoordinate(pk, doc.Identifier),
		Source:     SourceMaintainersYAML,
		Detail:     path,
	}
	for _, r := range doc.Relays {
		if u, ok := normalizeRelay(r); ok {
			sel.Relays = appendUnique(sel.Relays, u)
		}
	}
	return sel, true, nil
}
