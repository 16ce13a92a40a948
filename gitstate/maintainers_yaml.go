package gitstate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/roster-cli/roster/graph"
	"gopkg.in/yaml.v3"
)

// maintainersFile is ngit's legacy coordinate fallback at the work-tree root.
const maintainersFile = "maintainers.yaml"

// maintainersYAML is the shape ngit writes: identifier, maintainers (npubs,
// the first is the selected maintainer) and relays. It is a coordinate
// fallback only, never a role or history store.
type maintainersYAML struct {
	Identifier  string   `yaml:"identifier"`
	Maintainers []string `yaml:"maintainers"`
	Relays      []string `yaml:"relays"`
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
	var doc maintainersYAML
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Selection{}, true, fmt.Errorf("%s is not valid YAML: %v; fix it or pass --repo <naddr>", path, err)
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
