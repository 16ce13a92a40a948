package hooks

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/roster-cli/roster/suggest"
)

// Known reports whether name is one of the hooks roster installs (Names).
func Known(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// Executable is the roster binary the hooks should call: os.Executable with
// symbolic links resolved, or "" (roster on PATH) when it cannot be told.
func Executable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	return exe
}

// NewConfig is what the hooks carry: binary ("" for roster on PATH), then
// --home (made absolute against dir, or the working directory when dir is
// "": hooks run from the work-tree root) and one --relay per relay, in
// order. relays are expected normalized already.
func NewConfig(binary, home, dir string, relays []string) (Config, error) {
	c := Config{Binary: binary}
	if home != "" {
		if !filepath.IsAbs(home) {
			base := dir
			if base == "" {
				base = "."
			}
			abs, err := filepath.Abs(filepath.Join(base, home))
			if err != nil {
				return c, fmt.Errorf("--home %s: %v", home, err)
			}
			home = abs
		}
		c.Flags = append(c.Flags, "--home", home)
	}
	for _, r := range relays {
		c.Flags = append(c.Flags, "--relay", r)
	}
	return c, nil
}

// Action is one planned step as install and uninstall report it
// (roster.hooks-install/v1, roster.hooks-uninstall/v1).
type Action struct {
	Name    string  `json:"name"`
	Path    string  `json:"path"`
	Action  string  `json:"action"`
	Chained *string `json:"chained"`
}

// Actions is each step as reported, in order; never nil.
func Actions(steps []Step) []Action {
	out := []Action{}
	for _, st := range steps {
		a := Action{Name: st.Name, Path: st.Path, Action: st.Action}
		if st.Chained != "" {
			chained := st.Chained
			a.Chained = &chained
		}
		out = append(out, a)
	}
	return out
}

// SlotStatus is one hook as `roster hooks status` reports it
// (roster.hooks-status/v1).
type SlotStatus struct {
	Name    string  `json:"name"`
	Path    string  `json:"path"`
	Status  string  `json:"status"`
	Current bool    `json:"current"`
	Chained *string `json:"chained"`
	// Binary and Flags are what a roster hook calls (null and [] otherwise);
	// a hook recorded with no binary calls roster on PATH.
	Binary *string  `json:"binary"`
	Flags  []string `json:"flags"`
}

// Stale reports whether s is roster's but not current: it calls another
// roster binary than this one, or differs from what this roster writes.
func (s SlotStatus) Stale() bool {
	return (s.Status == StatusRoster || s.Status == StatusChained) && !s.Current
}

// Statuses reports each slot against binary (this roster's path), and the
// command that updates stale hooks: install with the flags of the first
// roster hook that is not current, plain install when a stale hook's flags
// cannot be read, nil when no hook is stale.
func Statuses(slots []Slot, binary string) ([]SlotStatus, *suggest.Command) {
	out := []SlotStatus{}
	var update *suggest.Command
	stale := false
	for _, s := range slots {
		h := SlotStatus{Name: s.Name, Path: s.Hook.Path, Status: s.Status(), Current: s.Current(binary), Flags: []string{}}
		if s.Chained.Exists {
			chained := s.Chained.Path
			h.Chained = &chained
		}
		if c, ok := s.Config(); ok {
			bin := c.Binary
			if bin == "" {
				bin = "roster"
			}
			h.Binary = &bin
			if c.Flags != nil {
				h.Flags = c.Flags
			}
			if !h.Current && update == nil {
				u := suggest.Roster("hooks", "install").With(c.Flags...)
				update = &u
			}
		}
		stale = stale || h.Stale()
		out = append(out, h)
	}
	if !stale {
		return out, nil
	}
	if update == nil {
		u := suggest.Roster("hooks", "install")
		update = &u
	}
	return out, update
}
