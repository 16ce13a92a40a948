package gitstate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	cfgformat "github.com/go-git/go-git/v5/plumbing/format/config"
)

// configEntry is one `key = value` of the repository's configuration, in
// the order git reads them. key is git's canonical form: section and name
// lowercased, subsection as written ("remote.Up.url").
type configEntry struct {
	key, value string
	// file is the absolute path of the file the entry is in ("" when read
	// through go-git, which reads only the repository's own config file).
	file string
}

// repoConfig is the repository-scope configuration roster reads: the
// repository's config file and, when read through git, its worktree config
// and every file they include. System and global config are not part of it:
// nostr.repo and remotes are per repository.
type repoConfig struct {
	entries []configEntry
	// viaGit records that the entries came from `git config`.
	viaGit bool
}

func (rc *repoConfig) getAll(key string) []string {
	var out []string
	for _, e := range rc.entries {
		if e.key == key {
			out = append(out, e.value)
		}
	}
	return out
}

// last is git's answer for a single-valued key: the last value wins.
func (rc *repoConfig) last(key string) string {
	vals := rc.getAll(key)
	if len(vals) == 0 {
		return ""
	}
	return vals[len(vals)-1]
}

// remoteNames lists every remote (a `remote.<name>.*` key), in first-seen order.
func (rc *repoConfig) remoteNames() []string {
	var names []string
	seen := map[string]bool{}
	for _, e := range rc.entries {
		name, ok := remoteOf(e.key)
		if ok && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names
}

func (rc *repoConfig) hasRemote(name string) bool {
	for _, e := range rc.entries {
		if n, ok := remoteOf(e.key); ok && n == name {
			return true
		}
	}
	return false
}

// remoteOf returns <name> of a remote.<name>.<key> config key.
func remoteOf(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "remote.")
	if !ok {
		return "", false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return "", false
	}
	return rest[:i], true
}

// hasIncludes reports whether a config file pulls in other files, which
// go-git does not follow.
func hasIncludes(raw *cfgformat.Config) bool {
	for _, s := range raw.Sections {
		if strings.EqualFold(s.Name, "include") && len(s.Options) > 0 {
			return true
		}
		if strings.EqualFold(s.Name, "includeIf") && len(s.Subsections) > 0 {
			return true
		}
	}
	return false
}

// fromGoGit flattens go-git's parsed config into entries.
func fromGoGit(raw *cfgformat.Config) *repoConfig {
	rc := &repoConfig{}
	for _, s := range raw.Sections {
		sec := strings.ToLower(s.Name)
		for _, o := range s.Options {
			rc.entries = append(rc.entries, configEntry{key: sec + "." + strings.ToLower(o.Key), value: o.Value})
		}
		for _, sub := range s.Subsections {
			for _, o := range sub.Options {
				rc.entries = append(rc.entries, configEntry{key: sec + "." + sub.Name + "." + strings.ToLower(o.Key), value: o.Value})
			}
		}
	}
	return rc
}

// readGitConfig reads the repository-scope config with `git config --list`,
// which follows include.path and includeIf and reads config.worktree when
// extensions.worktreeConfig is on.
func readGitConfig(dir, need string) (*repoConfig, error) {
	out, err := runGit(dir, need, "config", "--list", "-z", "--show-scope", "--show-origin")
	if err != nil {
		return nil, err
	}
	// Each entry is scope NUL origin NUL key [LF value] NUL.
	fields := bytes.Split(out, []byte{0})
	rc := &repoConfig{viaGit: true}
	for i := 0; i+2 < len(fields); i += 3 {
		scope, origin, kv := string(fields[i]), string(fields[i+1]), string(fields[i+2])
		if scope != "local" && scope != "worktree" {
			continue
		}
		key, value, _ := strings.Cut(kv, "\n")
		file := strings.TrimPrefix(origin, "file:")
		if file != "" && !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		rc.entries = append(rc.entries, configEntry{key: key, value: value, file: file})
	}
	return rc, nil
}

// repoConfig reads the checkout's configuration: through go-git when it
// can, through `git config` when go-git cannot open the repository or the
// config file includes other files.
func (c *Checkout) repoConfig() (*repoConfig, error) {
	if c.repo == nil {
		return readGitConfig(c.dir, c.needGit())
	}
	cfg, err := c.repo.Config()
	if err != nil {
		return nil, fmt.Errorf("read Git config in %s: %w", c.dir, err)
	}
	if hasIncludes(cfg.Raw) {
		return readGitConfig(c.dir, "reading "+c.display(filepath.Join(c.commonDir, "config"))+", which includes other config files (include.path or includeIf),")
	}
	return fromGoGit(cfg.Raw), nil
}

// configEdit is one change to the repository's config file, applied with
// `git config --local`, which rewrites only the lines of the key it changes
// and keeps every comment, blank line, other key and section as written.
type configEdit struct {
	args []string
}

// exactValue is a git config value-pattern (POSIX ERE) matching v only.
func exactValue(v string) string { return "^" + regexp.QuoteMeta(v) + "$" }

func replaceAll(key, value string) configEdit {
	return configEdit{[]string{"--replace-all", key, value}}
}

func addValue(key, value string) configEdit { return configEdit{[]string{"--add", key, value}} }

func unsetValue(key, value string) configEdit {
	return configEdit{[]string{"--unset-all", key, exactValue(value)}}
}

func unsetKey(key string) configEdit { return configEdit{[]string{"--unset-all", key}} }

// replaceValue rewrites the one line of key whose value is old, in place.
func replaceValue(key, old, value string) configEdit {
	return configEdit{[]string{key, value, exactValue(old)}}
}

// setValues makes key's values exactly next, given its current values:
// in-place line replacements when every changed value is unique among the
// current ones (positions, and so git's choice of the first url, are kept),
// else the key is rewritten in order at the end of its section.
func setValues(key string, cur, next []string) []configEdit {
	if len(cur) == len(next) {
		count := map[string]int{}
		for _, v := range cur {
			count[v]++
		}
		var edits []configEdit
		inPlace := true
		for i := range cur {
			if cur[i] == next[i] {
				continue
			}
			if count[cur[i]] != 1 {
				inPlace = false
				break
			}
			edits = append(edits, replaceValue(key, cur[i], next[i]))
		}
		if inPlace {
			return edits
		}
	}
	var edits []configEdit
	if len(cur) > 0 {
		edits = append(edits, unsetKey(key))
	}
	for _, v := range next {
		edits = append(edits, addValue(key, v))
	}
	return edits
}

// editConfig applies edits to the repository's own config file. It refuses,
// before changing anything, when a key it would change also has values in
// another file (an included file, config.worktree): roster writes only the
// repository's config file and will not leave a key with values in two
// places.
func (c *Checkout) editConfig(rc *repoConfig, edits []configEdit) error {
	own := filepath.Join(c.commonDir, "config")
	ownInfo, _ := os.Stat(own)
	for _, ed := range edits {
		key := ed.key()
		for _, e := range rc.entries {
			if e.key != key || e.file == "" {
				continue
			}
			if fi, err := os.Stat(e.file); err == nil && ownInfo != nil && os.SameFile(fi, ownInfo) {
				continue
			}
			return fmt.Errorf("%s is set in %s, and roster edits only %s: change or remove it there with `git config --file %s --unset-all %s`, then rerun",
				key, c.display(e.file), c.display(own), e.file, key)
		}
	}
	for _, ed := range edits {
		args := append([]string{"config", "--local"}, ed.args...)
		if _, err := runGit(c.dir, "editing "+c.display(own)+" (so its comments and layout survive)", args...); err != nil {
			return err
		}
	}
	return nil
}

// key is the config key an edit changes.
func (ed configEdit) key() string {
	for _, a := range ed.args {
		if !strings.HasPrefix(a, "--") {
			return canonicalKey(a)
		}
	}
	return ""
}

// canonicalKey lowercases a key's section and name, as git reports them.
func canonicalKey(key string) string {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		return strings.ToLower(key)
	}
	return strings.ToLower(key[:first]) + key[first:last] + strings.ToLower(key[last:])
}
