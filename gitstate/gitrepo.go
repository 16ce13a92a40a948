package gitstate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	cfgformat "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// gitRepo is a repository read with go-git's storage alone. go-git's
// top-level package (git.PlainOpen, *git.Repository) links every transport
// (ssh and its config parser), the worktree code and OpenPGP signing, whose
// package initialisation every roster process would pay at start-up
// (docs/PERFORMANCE.md, "Start-up, fourth pass"); roster reads config,
// refs and a few commit and tag headers, which the storage serves. Open
// and the format checks below are go-git v5's PlainOpenWithOptions and
// Open, so that the same repositories are refused for the same reasons.
type gitRepo struct {
	s *filesystem.Storage
	// opened is the config file as openGitRepo parsed it to check the
	// repository's format; the first Config call takes it instead of
	// reading and parsing the file a second time, later calls read it anew
	// (the file may have been edited since). Atomic: a Checkout may be
	// read from several goroutines.
	opened atomic.Pointer[config.Config]
}

// The errors go-git's Open returns; goGitRefuses hands the last three to
// the git command.
var (
	errRepositoryNotExists                         = errors.New("repository does not exist")
	errRepositoryIncomplete                        = errors.New("repository's commondir path does not exist")
	errUnsupportedExtensionRepositoryFormatVersion = errors.New("core.repositoryformatversion does not support extension")
	errUnsupportedRepositoryFormatVersion          = errors.New("core.repositoryformatversion not supported")
	errUnknownExtension                            = errors.New("unknown extension")
)

// openGitRepo opens the repository at path as go-git's
// PlainOpenWithOptions does: with detect, the first directory upwards
// holding a .git entry (a directory, or a file naming the Git directory),
// with the commondir of a linked worktree; without, path itself as a Git
// directory. wtRoot is the work tree's root ("" for a bare repository).
func openGitRepo(path string, detect bool) (repo *gitRepo, wtRoot string, err error) {
	dot, wt, err := dotGitFilesystems(path, detect)
	if err != nil {
		return nil, "", err
	}
	if _, err := dot.Stat(""); err != nil {
		if os.IsNotExist(err) {
			return nil, "", errRepositoryNotExists
		}
		return nil, "", err
	}
	repoFS := dot
	if detect { // EnableDotGitCommonDir goes with DetectDotGit in Open
		common, err := dotGitCommonDirectory(dot)
		if err != nil {
			return nil, "", err
		}
		repoFS = dotgit.NewRepositoryFilesystem(dot, common)
	}
	s := filesystem.NewStorage(repoFS, cache.NewObjectLRUDefault())
	if _, err := s.Reference(plumbing.HEAD); err == plumbing.ErrReferenceNotFound {
		return nil, "", errRepositoryNotExists
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, "", err
	}
	if err := verifyExtensions(cfg); err != nil {
		return nil, "", err
	}
	if wt != nil {
		wtRoot = wt.Root()
	}
	r := &gitRepo{s: s}
	r.opened.Store(cfg)
	return r, wtRoot, nil
}

// dotGitFilesystems is go-git's dotGitToOSFilesystems.
func dotGitFilesystems(path string, detect bool) (dot, wt billy.Filesystem, err error) {
	if path, err = filepath.Abs(path); err != nil {
		return nil, nil, err
	}
	var fs billy.Filesystem
	var fi os.FileInfo
	for {
		fs = osfs.New(path)
		pathinfo, err := fs.Stat("/")
		if !os.IsNotExist(err) {
			if pathinfo == nil {
				return nil, nil, err
			}
			if !pathinfo.IsDir() && detect {
				fs = osfs.New(filepath.Dir(path))
			}
		}
		fi, err = fs.Stat(".git")
		if err == nil {
			break
		}
		if !os.IsNotExist(err) {
			return nil, nil, err
		}
		if detect {
			if dir := filepath.Dir(path); dir != path {
				path = dir
				continue
			}
		}
		return fs, nil, nil
	}
	if fi.IsDir() {
		dot, err = fs.Chroot(".git")
		return dot, fs, err
	}
	dot, err = dotGitFileFilesystem(path, fs)
	if err != nil {
		return nil, nil, err
	}
	return dot, fs, nil
}

// dotGitFileFilesystem is the Git directory a .git file names.
func dotGitFileFilesystem(path string, fs billy.Filesystem) (billy.Filesystem, error) {
	f, err := fs.Open(".git")
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	line := string(b)
	const prefix = "gitdir: "
	if !strings.HasPrefix(line, prefix) {
		return nil, fmt.Errorf(".git file has no %s prefix", prefix)
	}
	gitdir := strings.TrimSpace(strings.Split(line[len(prefix):], "\n")[0])
	if filepath.IsAbs(gitdir) {
		return osfs.New(gitdir), nil
	}
	return osfs.New(fs.Join(path, gitdir)), nil
}

// dotGitCommonDirectory is the directory a Git directory's commondir file
// names, or nil.
func dotGitCommonDirectory(fs billy.Filesystem) (billy.Filesystem, error) {
	f, err := fs.Open("commondir")
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, nil
	}
	path := strings.TrimSpace(string(b))
	var common billy.Filesystem
	if filepath.IsAbs(path) {
		common = osfs.New(path)
	} else {
		common = osfs.New(filepath.Join(fs.Root(), path))
	}
	if _, err := common.Stat(""); err != nil {
		if os.IsNotExist(err) {
			return nil, errRepositoryIncomplete
		}
		return nil, err
	}
	return common, nil
}

// verifyExtensions is go-git's check of core.repositoryFormatVersion and
// the extensions section: go-git implements noop and noop-v1 only, so any
// other extension is refused, and with format version 0 every extension
// but those git accepted before format version 1.
func verifyExtensions(cfg *config.Config) error {
	var needed []string
	if cfg.Raw != nil && cfg.Raw.HasSection("extensions") {
		for _, opt := range cfg.Raw.Section("extensions").Options {
			needed = append(needed, strings.ToLower(opt.Key))
		}
	}
	v := cfg.Core.RepositoryFormatVersion
	switch v {
	case "", cfgformat.Version_0, cfgformat.Version_1:
	default:
		return fmt.Errorf("%w: %q", errUnsupportedRepositoryFormatVersion, v)
	}
	if len(needed) == 0 {
		return nil
	}
	if v == cfgformat.Version_0 || v == "" {
		var unsupported []string
		for _, name := range needed {
			switch name {
			case "noop", "partialClone", "preciousObjects", "worktreeConfig":
				// valid for version 0 (as go-git spells them: the
				// lowercased key never matches the last three)
			default:
				unsupported = append(unsupported, name)
			}
		}
		if len(unsupported) > 0 {
			return fmt.Errorf("%w: %s", errUnsupportedExtensionRepositoryFormatVersion, strings.Join(unsupported, ", "))
		}
	}
	var missing []string
	for _, name := range needed {
		if name != "noop" && name != "noop-v1" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %s", errUnknownExtension, strings.Join(missing, ", "))
	}
	return nil
}

// Config is the repository's own config file, parsed.
func (r *gitRepo) Config() (*config.Config, error) {
	if cfg := r.opened.Swap(nil); cfg != nil {
		return cfg, nil
	}
	return r.s.Config()
}

// Head is HEAD resolved to the reference holding an object id.
func (r *gitRepo) Head() (*plumbing.Reference, error) {
	return storer.ResolveReference(r.s, plumbing.HEAD)
}

// Reference is the named reference, unresolved.
func (r *gitRepo) Reference(name plumbing.ReferenceName) (*plumbing.Reference, error) {
	return r.s.Reference(name)
}

// References iterates over every reference.
func (r *gitRepo) References() (storer.ReferenceIter, error) { return r.s.IterReferences() }

// objectHeader reads the header lines of the object h of type t (up to the
// blank line before the message), calling each for every line. A missing
// object, or one of another type, is plumbing.ErrObjectNotFound.
func (r *gitRepo) objectHeader(t plumbing.ObjectType, h plumbing.Hash, each func(key, value string)) error {
	o, err := r.s.EncodedObject(t, h)
	if err != nil {
		return err
	}
	rd, err := o.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	return readHeader(rd, each)
}

// readHeader calls each for every header line of an object's content read
// from rd, up to the blank line before the message or the end.
func readHeader(rd io.Reader, each func(key, value string)) error {
	br := bufio.NewReader(rd)
	for {
		line, err := br.ReadString('\n')
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			// The blank line before the message, or the object's end; a
			// stream broken off here is an error, not a header that ended
			// (a parent line lost would make a non-root commit the root).
			if err != nil && err != io.EOF {
				return err
			}
			return nil
		}
		if line[0] != ' ' { // a continuation line (gpgsig, mergetag) belongs to the field before
			key, value, _ := strings.Cut(line, " ")
			each(key, value)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// commitParents are the parents of commit h, in order.
func (r *gitRepo) commitParents(h plumbing.Hash) ([]plumbing.Hash, error) {
	var parents []plumbing.Hash
	err := r.objectHeader(plumbing.CommitObject, h, func(key, value string) {
		if key == "parent" {
			parents = append(parents, plumbing.NewHash(value))
		}
	})
	return parents, err
}

// tagTarget is what the annotated tag object h points at, and its type.
func (r *gitRepo) tagTarget(h plumbing.Hash) (plumbing.Hash, plumbing.ObjectType, error) {
	var target plumbing.Hash
	var typ plumbing.ObjectType
	err := r.objectHeader(plumbing.TagObject, h, func(key, value string) {
		switch key {
		case "object":
			target = plumbing.NewHash(value)
		case "type":
			typ, _ = plumbing.ParseObjectType(value)
		}
	})
	return target, typ, err
}
