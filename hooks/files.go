package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/roster-cli/roster/suggest"
)

// headBytes is how much of a hook file Inspect reads: enough for the
// marker, the #! line and a whole roster hook.
const headBytes = 64 << 10

// File is what one path in the hooks directory holds.
type File struct {
	Path   string
	Exists bool
	// Symlink is the link's target when the path is a symbolic link.
	Symlink string
	Dir     bool
	// Mode is a regular file's permission bits.
	Mode fs.FileMode
	// Head is the first headBytes of a regular file.
	Head []byte
	// Whole is true when Head is the whole file.
	Whole bool
}

// Slot is one hook name in the directory: the hook and the hook roster
// chained to (<name>.roster-chained).
type Slot struct {
	Name    string
	Hook    File
	Chained File
}

// Status of a hook slot (roster hooks status).
const (
	StatusRoster  = "roster"  // roster's hook, nothing chained
	StatusChained = "chained" // roster's hook, running <name>.roster-chained first
	StatusForeign = "foreign" // somebody else's hook
	StatusMissing = "missing" // no hook
)

func (s Slot) rosters() bool {
	return s.Hook.Exists && s.Hook.Symlink == "" && !s.Hook.Dir && IsRosters(s.Hook.Head)
}

// Status is the slot's status.
func (s Slot) Status() string {
	switch {
	case !s.Hook.Exists:
		return StatusMissing
	case !s.rosters():
		return StatusForeign
	case s.Chained.Exists:
		return StatusChained
	}
	return StatusRoster
}

// Config is the Config roster's hook in the slot records (false for
// anything not roster's, or a roster hook without a readable record).
func (s Slot) Config() (Config, bool) {
	if !s.rosters() {
		return Config{}, false
	}
	return ParseConfig(s.Hook.Head)
}

// Current reports whether the slot holds, executable, exactly the hook file
// this roster writes for the configuration the file records, and that
// configuration calls binary: false for a hook an older roster wrote,
// edited by hand, or calling another roster binary.
func (s Slot) Current(binary string) bool {
	c, ok := s.Config()
	return ok && c.Binary == binary && s.same(c)
}

// same reports whether the slot holds exactly what install writes for c.
func (s Slot) same(c Config) bool {
	return s.rosters() && s.Hook.Whole && bytes.Equal(s.Hook.Head, Script(s.Name, c)) && s.Hook.Mode&0o111 != 0
}

// Inspect reads the hooks directory dir for every name in Names. A
// directory that does not exist holds no hooks.
func Inspect(dir string) ([]Slot, error) {
	var out []Slot
	for _, n := range Names {
		h, err := inspectFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		c, err := inspectFile(filepath.Join(dir, n+ChainedSuffix))
		if err != nil {
			return nil, err
		}
		out = append(out, Slot{Name: n, Hook: h, Chained: c})
	}
	return out, nil
}

func inspectFile(p string) (File, error) {
	f := File{Path: p}
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read hook %s: %w", p, err)
	}
	f.Exists = true
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		f.Symlink, err = os.Readlink(p)
		if err != nil {
			return f, fmt.Errorf("read hook %s: %w", p, err)
		}
		return f, nil
	case fi.IsDir():
		f.Dir = true
		return f, nil
	case !fi.Mode().IsRegular():
		f.Mode = fi.Mode()
		return f, nil
	}
	f.Mode = fi.Mode().Perm()
	fh, err := os.Open(p)
	if err != nil {
		return f, fmt.Errorf("read hook %s: %w", p, err)
	}
	defer fh.Close()
	f.Head, err = io.ReadAll(io.LimitReader(fh, headBytes+1))
	if err != nil {
		return f, fmt.Errorf("read hook %s: %w", p, err)
	}
	f.Whole = len(f.Head) <= headBytes
	if !f.Whole {
		f.Head = f.Head[:headBytes]
	}
	return f, nil
}

// Actions install and uninstall take on a slot.
const (
	ActionInstalled = "installed" // roster's hook written where there was none
	ActionChained   = "chained"   // the foreign hook moved to <name>.roster-chained, roster's written
	ActionUpdated   = "updated"   // roster's hook rewritten (another binary or flags)
	ActionUnchanged = "unchanged" // roster's hook already as install would write it
	ActionRemoved   = "removed"   // roster's hook removed, nothing to restore
	ActionRestored  = "restored"  // roster's hook removed, <name>.roster-chained put back
	ActionLeft      = "left"      // not roster's: left alone
	ActionNone      = "none"      // nothing there
)

// Step is what install or uninstall does (or did) to one slot.
type Step struct {
	Name    string
	Path    string
	Action  string
	Chained string // the path of <name>.roster-chained when it exists afterwards (or, uninstalling, was restored from)
	write   []byte
	moveTo  string // rename Path to moveTo before writing (chain)
	restore bool   // rename Chained to Path after removing (uninstall)
	remove  bool
}

// Problem is a hook install cannot chain, and why.
type Problem struct {
	Name string
	Path string
	// Reason is a stable code: symlink, directory, not-regular,
	// not-executable, no-interpreter, chained-exists.
	Reason   string
	Message  string
	Commands []suggest.Command
}

// NotChainable is install's refusal: the hooks named cannot be chained, and
// nothing was written.
type NotChainable struct{ Problems []Problem }

func (e *NotChainable) Error() string {
	msg := "roster hooks install changed nothing: "
	for i, p := range e.Problems {
		if i > 0 {
			msg += "; "
		}
		msg += p.Message
	}
	return msg
}

// chainProblem says why a foreign hook cannot be chained, or nil when it
// can: a regular, executable file that Git and sh both run the same way
// (a #! line or a native executable). A symbolic link is refused however
// it points: a tool that manages the link would silently replace roster's
// hook when it relinks, and uninstall could not tell the link it restores
// from one that tool made since. A hook that is not executable is refused
// because Git does not run it now, and chaining must not change that.
func chainProblem(s Slot) *Problem {
	h := s.Hook
	p := &Problem{Name: s.Name, Path: h.Path}
	switch {
	case s.Chained.Exists:
		p.Reason = "chained-exists"
		p.Message = fmt.Sprintf("%s is not roster's hook, and %s already exists: roster will not overwrite either; move one of them out of the hooks directory", h.Path, s.Chained.Path)
		p.Commands = []suggest.Command{suggest.Shell("ls -l " + shWord(h.Path) + " " + shWord(s.Chained.Path)).Because("compare them, keep one")}
	case h.Symlink != "":
		p.Reason = "symlink"
		p.Message = fmt.Sprintf("%s is a symbolic link to %s: roster does not chain a link, since whatever manages it would replace roster's hook when it relinks; make it a script that runs the link's target, or let that tool call `roster hooks run %s`", h.Path, h.Symlink, s.Name)
	case h.Dir:
		p.Reason = "directory"
		p.Message = fmt.Sprintf("%s is a directory, not a hook file", h.Path)
	case h.Mode&fs.ModeType != 0:
		p.Reason = "not-regular"
		p.Message = fmt.Sprintf("%s is not a regular file", h.Path)
	case h.Mode&0o111 == 0:
		p.Reason = "not-executable"
		p.Message = fmt.Sprintf("%s is not executable, so Git does not run it now, and chaining it would not either: make it executable to keep it, or remove it", h.Path)
		p.Commands = []suggest.Command{suggest.Shell("chmod +x " + shWord(h.Path)).Because("keep it running before roster's"),
			suggest.Shell("rm " + shWord(h.Path)).Because("or drop it")}
	case !bytes.HasPrefix(h.Head, []byte("#!")) && !bytes.HasPrefix(h.Head, []byte("\x7fELF")) && !machO(h.Head):
		p.Reason = "no-interpreter"
		p.Message = fmt.Sprintf("%s has no #! line and is not a native executable: Git cannot run it as it is; add a #! line (e.g. #!/bin/sh) first", h.Path)
	default:
		return nil
	}
	p.Commands = append(p.Commands, suggest.Roster("hooks", "install").Because("again, once it is fixed"))
	return p
}

// machO reports a Mach-O executable's magic number.
func machO(b []byte) bool {
	for _, m := range [][]byte{{0xcf, 0xfa, 0xed, 0xfe}, {0xce, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}} {
		if bytes.HasPrefix(b, m) {
			return true
		}
	}
	return false
}

// PlanInstall decides, for every slot, what install does: write roster's
// hook where there is none, rewrite roster's own when it differs, and chain
// a foreign hook (moved to <name>.roster-chained, which roster's runs
// first). Any slot it cannot chain refuses the whole install
// (*NotChainable) so that nothing is half done.
func PlanInstall(slots []Slot, c Config) ([]Step, error) {
	var steps []Step
	var probs []Problem
	for _, s := range slots {
		st := Step{Name: s.Name, Path: s.Hook.Path, write: Script(s.Name, c)}
		switch s.Status() {
		case StatusMissing:
			st.Action = ActionInstalled
		case StatusRoster, StatusChained:
			st.Action = ActionUpdated
			if s.same(c) {
				st.Action, st.write = ActionUnchanged, nil
			}
		case StatusForeign:
			if p := chainProblem(s); p != nil {
				probs = append(probs, *p)
				continue
			}
			st.Action, st.moveTo = ActionChained, s.Chained.Path
		}
		if s.Chained.Exists || st.moveTo != "" {
			st.Chained = s.Chained.Path
		}
		steps = append(steps, st)
	}
	if len(probs) > 0 {
		return nil, &NotChainable{Problems: probs}
	}
	return steps, nil
}

// PlanUninstall decides, for every slot, what uninstall does: remove
// roster's hook and put its chained hook back in its place; a foreign hook
// is left alone (and its slot's .roster-chained file with it). A chained
// hook whose roster hook was deleted by hand is put back too.
func PlanUninstall(slots []Slot) []Step {
	var steps []Step
	for _, s := range slots {
		st := Step{Name: s.Name, Path: s.Hook.Path}
		switch s.Status() {
		case StatusForeign:
			st.Action = ActionLeft
			if s.Chained.Exists {
				st.Chained = s.Chained.Path
			}
		case StatusMissing:
			st.Action = ActionNone
			if s.Chained.Exists {
				st.Action, st.restore, st.Chained = ActionRestored, true, s.Chained.Path
			}
		default:
			st.Action, st.remove = ActionRemoved, true
			if s.Chained.Exists {
				st.Action, st.restore, st.Chained = ActionRestored, true, s.Chained.Path
			}
		}
		steps = append(steps, st)
	}
	return steps
}

// Apply carries out the steps in the hooks directory dir (created when
// missing). Roster's hook files are written to a temporary file and renamed
// into place, mode 0755; a chained hook is renamed, never copied, so it
// keeps its mode and content. A rename never replaces a file that appeared
// since the plan was made.
func Apply(dir string, steps []Step) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create the hooks directory: %w", err)
	}
	for _, st := range steps {
		if st.remove {
			if err := os.Remove(st.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", st.Path, err)
			}
		}
		if st.restore {
			if err := renameNew(st.Chained, st.Path); err != nil {
				return err
			}
		}
		if st.moveTo != "" {
			if err := renameNew(st.Path, st.moveTo); err != nil {
				return err
			}
		}
		if st.write != nil {
			if err := writeHook(dir, st.Path, st.write); err != nil {
				return err
			}
		}
	}
	return nil
}

// renameNew renames from to to, refusing when to exists.
func renameNew(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("%s appeared while roster was changing the hooks: not replacing it; run `roster hooks status`", to)
	}
	if err := os.Rename(from, to); err != nil {
		return fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	return nil
}

func writeHook(dir, path string, content []byte) error {
	tmp, err := os.CreateTemp(dir, ".roster-hook-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(content)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(name, 0o755)
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}
