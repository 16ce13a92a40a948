package gitstate

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/roster-cli/roster/graph"
)

// TrackingRef is one remote-tracking branch, refs/remotes/<Remote>/<branch>,
// named as the branch a state carries: Ref is refs/heads/<branch>.
type TrackingRef struct {
	Remote, Ref, OID string
	// LocalBehind: the checkout has the local branch Ref at another commit,
	// and that commit is an ancestor of OID (a fast-forward brings it here).
	LocalBehind bool
}

// Name is the remote-tracking branch as git names it ("origin/dev").
func (t TrackingRef) Name() string {
	return t.Remote + "/" + strings.TrimPrefix(t.Ref, "refs/heads/")
}

// CheckoutRefs are a checkout's refs as the repository-state comparison
// reads them (ReadStateRefs).
type CheckoutRefs struct {
	// Local is the complete local ref map (LocalRefs).
	Local map[string]string
	// NostrRemote is the remote whose nostr:// URL names the coordinate
	// ("" when none does).
	NostrRemote string
	// Remotes are the remotes that stand for the repository's servers:
	// NostrRemote first, then every remote one of whose `url` values is,
	// normalised, one of the component's advertised clone URLs, by name.
	Remotes []string
	// Tracking are those remotes' remote-tracking branches, in Remotes
	// order, each remote's by ref name.
	Tracking []TrackingRef
}

// maxAncestryChecks bounds the ancestry questions ReadStateRefs asks git
// (one `git merge-base --is-ancestor` per local branch and remote whose
// commits differ); beyond it LocalBehind stays false.
const maxAncestryChecks = 64

// ReadStateRefs reads the checkout's refs for a comparison with the
// repository state of coord: the local ref map, the nostr:// remote naming
// coord (prefer tried first), and the remote-tracking branches of that
// remote and of every remote whose URL is one of cloneURLs (the
// component's advertised Git servers, CloneServers) once normalised
// (SameCloneURL). A plain `git clone` of an advertised server is such a
// remote. Fails when any of it cannot be read completely.
func (c *Checkout) ReadStateRefs(coord graph.Coordinate, prefer string, cloneURLs []string) (*CheckoutRefs, error) {
	local, err := c.LocalRefs()
	if err != nil {
		return nil, err
	}
	out := &CheckoutRefs{Local: local, Tracking: []TrackingRef{}}
	if out.NostrRemote, err = c.NostrRemote(coord, prefer); err != nil {
		return nil, err
	}
	if out.Remotes, err = c.advertisedRemotes(out.NostrRemote, cloneURLs); err != nil {
		return nil, err
	}
	checks := 0
	for _, r := range out.Remotes {
		branches, err := c.TrackingBranches(r)
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(branches))
		for k := range branches {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			t := TrackingRef{Remote: r, Ref: k, OID: branches[k]}
			if have, ok := local[k]; ok && have != t.OID && checks < maxAncestryChecks {
				checks++
				t.LocalBehind, _ = c.IsAncestor(have, t.OID)
			}
			out.Tracking = append(out.Tracking, t)
		}
	}
	return out, nil
}

// advertisedRemotes is nostrRemote (when set) and then, by name, every
// other remote with a `url` that SameCloneURL matches to one of cloneURLs.
func (c *Checkout) advertisedRemotes(nostrRemote string, cloneURLs []string) ([]string, error) {
	var out []string
	if nostrRemote != "" {
		out = append(out, nostrRemote)
	}
	if len(cloneURLs) == 0 {
		return out, nil
	}
	remotes, err := c.Remotes()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(remotes))
	for n := range remotes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if n == nostrRemote {
			continue
		}
		if slices.ContainsFunc(remotes[n].URLs, func(u string) bool {
			return slices.ContainsFunc(cloneURLs, func(adv string) bool { return SameCloneURL(u, adv) })
		}) {
			out = append(out, n)
		}
	}
	return out, nil
}

// SameCloneURL reports whether two Git URLs name the same repository as
// people write them: scheme and host compared without case, a default
// port, user name, trailing slashes and a trailing ".git" ignored; an
// scp-like "user@host:path" is ssh://user@host/path and an absolute local
// path is file://path. nostr:// URLs and empty strings match nothing.
func SameCloneURL(a, b string) bool {
	ka, kb := cloneURLKey(a), cloneURLKey(b)
	return ka != "" && ka == kb
}

var defaultPorts = map[string]string{"http": "80", "https": "443", "ssh": "22", "git": "9418"}

// cloneURLKey is the comparable form of a clone URL ("" when it has none),
// read by ParseCloneURL as git reads it: scheme and host lower-cased, the
// default port, the user name, trailing slashes and ".git" dropped. A
// relative local path names no server anyone else shares.
func cloneURLKey(raw string) string {
	c, err := ParseCloneURL(raw)
	if err != nil || c.Form == FormPath && !filepath.IsAbs(c.Path) {
		return ""
	}
	host := strings.ToLower(c.Host)
	if c.Port != "" && c.Port != defaultPorts[c.Scheme] {
		host += ":" + c.Port
	}
	path := "/" + strings.Trim(filepath.ToSlash(c.Path), "/")
	if c.Scheme == "file" {
		path = filepath.ToSlash(filepath.Clean(path))
	}
	return c.Scheme + "://" + host + strings.TrimSuffix(path, ".git")
}

// Divergence counts, in the checkout's object store (fetching nothing),
// the commits reachable from a but not from b (onlyA) and from b but not
// from a (onlyB): `git rev-list --left-right --count a...b`. An error when
// either is not a commit this checkout has.
func (c *Checkout) Divergence(a, b string) (onlyA, onlyB int, err error) {
	if !isObjectID(a) || !isObjectID(b) {
		return 0, 0, fmt.Errorf("not object ids: %q, %q", short(a), short(b))
	}
	for _, oid := range []string{a, b} {
		if _, err := runGit(c.dir, "comparing branches with the repository state", "cat-file", "-e", oid+"^{commit}"); err != nil {
			return 0, 0, fmt.Errorf("commit %s is not in this checkout", oid)
		}
	}
	out, err := runGit(c.dir, "comparing branches with the repository state", "rev-list", "--left-right", "--count", a+"..."+b)
	if err != nil {
		return 0, 0, err
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("unexpected `git rev-list --count` output %q", out)
	}
	if onlyA, err = strconv.Atoi(f[0]); err == nil {
		onlyB, err = strconv.Atoi(f[1])
	}
	return onlyA, onlyB, err
}
