package gitstate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/roster-cli/roster/graph"
)

// Sources of a Selection, one per step of the spec's resolution order
// (maintainers.md "Coordinates and repository data").
const (
	SourceFlag            = "flag"
	SourceGitConfig       = "git-config"
	SourceTrackedRemote   = "tracked-remote"
	SourceOrigin          = "origin"
	SourceSoleRemote      = "sole-remote"
	SourceMaintainersYAML = "maintainers.yaml"
)

// Selection is the coordinate a checkout (or --repo) selects.
type Selection struct {
	// Coordinate is the selected maintainer's kind 30617 coordinate. Its
	// Pubkey is empty while NIP05 is unresolved (see Resolve).
	Coordinate graph.Coordinate
	// Relays are relay hints carried by the naddr, URL, NIP-05 document or
	// maintainers.yaml.
	Relays []string
	// Source is one of the Source* constants.
	Source string
	// Detail says where exactly: the remote name, "nostr.repo", the file path.
	Detail string
	// NIP05 is the maintainer's NIP-05 name when the coordinate was given
	// that way and is not resolved yet.
	NIP05 string
	// Disagrees are the coordinates the checkout's git config nostr.repo
	// names when --repo selected another one: --repo wins, and a write
	// says so (Selection.From and the target line).
	Disagrees []Candidate
	// Via names, for SourceFlag, what gave the --repo value when it was
	// not the flag itself: the environment variable ROSTER_REPO, set by
	// the caller; "" is the flag.
	Via string
}

// From says where the selection came from, in the words of the target line
// (`target repository: <name> <naddr> (from …)`): "--repo", "nostr.repo",
// "remote <name>" (the tracked remote, origin, or the sole nostr://
// remote), or "maintainers.yaml".
func (s Selection) From() string {
	switch s.Source {
	case SourceFlag:
		flag := "--repo"
		if s.Via != "" {
			flag = s.Via
		}
		if strings.HasPrefix(s.Detail, "remote ") {
			return flag + " " + s.Detail
		}
		return flag
	case SourceGitConfig:
		return "nostr.repo"
	case SourceTrackedRemote, SourceOrigin, SourceSoleRemote:
		return s.Detail
	case SourceMaintainersYAML:
		return "maintainers.yaml"
	}
	return s.Source
}

// NeedsNIP05 reports whether the pubkey still has to be looked up.
func (s Selection) NeedsNIP05() bool { return s.NIP05 != "" && s.Coordinate.Pubkey == "" }

// Resolve looks up a pending NIP-05 name (a network call) and fills in the
// pubkey and the document's relays. It returns s unchanged otherwise.
func (s Selection) Resolve(ctx context.Context, client *http.Client) (Selection, error) {
	if !s.NeedsNIP05() {
		return s, nil
	}
	pk, relays, err := ResolveNIP05(ctx, s.NIP05, client)
	if err != nil {
		return s, err
	}
	s.Coordinate.Pubkey = pk
	for _, r := range relays {
		s.Relays = appendUnique(s.Relays, r)
	}
	return s, nil
}

// Candidate is one coordinate found at a resolution step, with where it came from.
type Candidate struct {
	Coordinate graph.Coordinate
	NIP05      string
	Relays     []string
	// From names the remote ("remote upstream") or config key it came from.
	From string
}

// key identifies a distinct coordinate: relay hints and the remote that
// carries it do not make two candidates different.
func (c Candidate) key() string {
	who := c.Coordinate.Pubkey
	if who == "" {
		who = "nip05:" + c.NIP05
	}
	return fmt.Sprintf("%d:%s:%s", c.Coordinate.Kind, who, c.Coordinate.Identifier)
}

// Display renders the candidate for an error message.
func (c Candidate) Display() string {
	who := c.NIP05
	if c.Coordinate.Pubkey != "" {
		who = graph.Npub(c.Coordinate.Pubkey)
	}
	return fmt.Sprintf("%s/%s (from %s)", who, c.Coordinate.Identifier, c.From)
}

// AmbiguousError is returned when one resolution step finds several distinct
// coordinates: roster never picks one at random.
type AmbiguousError struct {
	Step       string
	Candidates []Candidate
}

// stepWhere says in words where a resolution step looked.
var stepWhere = map[string]string{
	SourceFlag:          "in the --repo remote's URLs",
	SourceGitConfig:     "in git config nostr.repo",
	SourceTrackedRemote: "in the current branch's tracked remote",
	SourceOrigin:        "in origin's URLs",
	SourceSoleRemote:    "among its nostr:// remotes",
}

func (e *AmbiguousError) Error() string {
	distinct := map[string]bool{}
	for _, c := range e.Candidates {
		distinct[c.key()] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "this checkout names %d different repository coordinates %s, and roster will not guess:", len(distinct), stepWhere[e.Step])
	for _, c := range e.Candidates {
		b.WriteString("\n  ")
		b.WriteString(c.Display())
	}
	if e.Step == SourceFlag {
		// The remote itself is ambiguous, so naming it again would not help.
		b.WriteString("\nchoose one: pass --repo <naddr|nostr-url>, or run `git config nostr.repo <naddr>`")
	} else {
		b.WriteString("\nchoose one: pass --repo <remote>, or run `git config nostr.repo <naddr>`")
	}
	return b.String()
}

// ErrNoCoordinate is returned when nothing in the checkout names a coordinate.
var ErrNoCoordinate = errors.New("this checkout names no Nostr repository: pass --repo <naddr|nostr-url|remote>, run `git config nostr.repo <naddr>`, or add a nostr:// remote")

// ResolveWithoutCheckout resolves a --repo value that does not need a
// checkout (an naddr or nostr:// URL). A remote name needs one.
func ResolveWithoutCheckout(repoFlag string) (Selection, error) {
	ref, err := ParseRepoArg(repoFlag)
	if err != nil {
		return Selection{}, err
	}
	if ref.Remote != "" {
		return Selection{}, fmt.Errorf("--repo %q is a remote name, which needs a Git checkout: run roster inside the clone, or pass an naddr or nostr:// URL", ref.Remote)
	}
	return Selection{Coordinate: ref.Coordinate, Relays: ref.Relays, NIP05: ref.NIP05, Source: SourceFlag, Detail: repoFlag}, nil
}

// ResolveCoordinate applies the spec's order exactly: --repo (remote name,
// naddr, nostr:// URL); git config nostr.repo; the current branch's tracked
// nostr:// remote; origin when it is nostr://; the sole remaining distinct
// nostr:// coordinate among the remotes; then maintainers.yaml at the
// work-tree root, only when no Nostr coordinate is configured. Several
// distinct candidates at one step is an *AmbiguousError.
func (c *Checkout) ResolveCoordinate(repoFlag string) (Selection, error) {
	cfg, err := c.repoConfig()
	if err != nil {
		return Selection{}, err
	}
	if repoFlag != "" {
		ref, err := ParseRepoArg(repoFlag)
		if err != nil {
			return Selection{}, err
		}
		var sel Selection
		if ref.Remote == "" {
			sel = Selection{Coordinate: ref.Coordinate, Relays: ref.Relays, NIP05: ref.NIP05, Source: SourceFlag, Detail: repoFlag}
		} else {
			if !cfg.hasRemote(ref.Remote) {
				return Selection{}, fmt.Errorf("--repo %q: no such remote in %s (remotes: %s)", ref.Remote, c.dir, remoteNames(cfg))
			}
			cands, err := remoteCandidates(ref.Remote, cfg.getAll("remote."+ref.Remote+".url"))
			if err != nil {
				return Selection{}, err
			}
			if len(cands) == 0 {
				return Selection{}, fmt.Errorf("--repo %q: remote %s has no nostr:// URL; pass an naddr or nostr:// URL instead", ref.Remote, ref.Remote)
			}
			if sel, err = pick(SourceFlag, cands); err != nil {
				return Selection{}, err
			}
		}
		sel.Disagrees = disagreeingConfig(cfg, sel)
		return sel, nil
	}

	// 1. git config nostr.repo: an naddr (ngit writes it without relays)
	// or a nostr:// URL, the form roster prints for people to paste.
	if vals := cfg.getAll("nostr.repo"); len(vals) > 0 {
		var cands []Candidate
		for _, v := range vals {
			cand, err := nostrRepoCandidate(v)
			if err != nil {
				return Selection{}, fmt.Errorf("git config nostr.repo in %s: %v; fix it with `git config nostr.repo <naddr|nostr-url>`", c.dir, err)
			}
			cands = append(cands, cand)
		}
		return pick(SourceGitConfig, cands)
	}

	// 2. The current branch's tracked remote, when it is nostr://.
	remote, err := c.trackedRemote(cfg)
	if err != nil {
		return Selection{}, err
	}
	if remote != "" {
		urls := cfg.getAll("remote." + remote + ".url")
		if !cfg.hasRemote(remote) {
			// git allows branch.<name>.remote to be a URL rather than a remote name.
			urls = []string{remote}
		}
		cands, err := remoteCandidates(remote, urls)
		if err != nil {
			return Selection{}, err
		}
		if len(cands) > 0 {
			return pick(SourceTrackedRemote, cands)
		}
	}

	// 3. origin, when it is nostr://.
	if cfg.hasRemote("origin") {
		cands, err := remoteCandidates("origin", cfg.getAll("remote.origin.url"))
		if err != nil {
			return Selection{}, err
		}
		if len(cands) > 0 {
			return pick(SourceOrigin, cands)
		}
	}

	// 4. The sole distinct nostr:// coordinate among all remaining remotes.
	var all []Candidate
	for _, name := range sortedRemotes(cfg) {
		cands, err := remoteCandidates(name, cfg.getAll("remote."+name+".url"))
		if err != nil {
			return Selection{}, err
		}
		all = append(all, cands...)
	}
	if len(all) > 0 {
		return pick(SourceSoleRemote, all)
	}

	// 5. maintainers.yaml, the legacy fallback.
	if c.root != "" {
		sel, found, err := readMaintainersYAML(c.root)
		if err != nil || found {
			return sel, err
		}
	}
	return Selection{}, ErrNoCoordinate
}

// disagreeingConfig are the distinct coordinates git config nostr.repo
// names other than sel's (a value that does not parse names none here:
// --repo was given, so the checkout's selection is not read).
func disagreeingConfig(cfg *repoConfig, sel Selection) []Candidate {
	want := Candidate{Coordinate: sel.Coordinate, NIP05: sel.NIP05}.key()
	seen := map[string]bool{}
	var out []Candidate
	for _, v := range cfg.getAll("nostr.repo") {
		cand, err := nostrRepoCandidate(v)
		if err != nil || cand.key() == want || seen[cand.key()] {
			continue
		}
		seen[cand.key()] = true
		out = append(out, cand)
	}
	return out
}

// trackedRemote is branch.<current>.remote, or "" when HEAD is detached or
// the branch tracks nothing.
func (c *Checkout) trackedRemote(cfg *repoConfig) (string, error) {
	branch, err := c.headBranch()
	if err != nil || branch == "" {
		return "", err
	}
	remote := cfg.last("branch." + strings.TrimPrefix(branch, "refs/heads/") + ".remote")
	if remote == "." {
		return "", nil
	}
	return remote, nil
}

// remoteCandidates parses every nostr:// URL of a remote (its url values).
// A malformed nostr:// URL is an error, not a silent skip.
func remoteCandidates(name string, urls []string) ([]Candidate, error) {
	var out []Candidate
	for _, u := range urls {
		ref, err := ParseNostrURL(u)
		if errors.Is(err, ErrNotNostrURL) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("remote %s: %v; fix it with `git remote set-url %s <nostr-url>`", name, err, name)
		}
		out = append(out, Candidate{Coordinate: ref.Coordinate, NIP05: ref.NIP05, Relays: ref.Relays, From: "remote " + name})
	}
	return out, nil
}

// pick returns the single distinct candidate, merging relay hints of
// duplicates, or an *AmbiguousError listing every candidate.
func pick(step string, cands []Candidate) (Selection, error) {
	distinct := map[string]bool{}
	for _, c := range cands {
		distinct[c.key()] = true
	}
	if len(distinct) > 1 {
		return Selection{}, &AmbiguousError{Step: step, Candidates: cands}
	}
	first := cands[0]
	sel := Selection{Coordinate: first.Coordinate, NIP05: first.NIP05, Source: step, Detail: first.From}
	var froms []string
	for _, c := range cands {
		for _, r := range c.Relays {
			sel.Relays = appendUnique(sel.Relays, r)
		}
		froms = appendUnique(froms, c.From)
	}
	sel.Detail = strings.Join(froms, ", ")
	return sel, nil
}

func sortedRemotes(cfg *repoConfig) []string {
	names := cfg.remoteNames()
	sort.Strings(names)
	return names
}

func remoteNames(cfg *repoConfig) string {
	names := sortedRemotes(cfg)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// nostrRepoCandidate parses one git config nostr.repo value: an naddr or a
// nostr:// URL (which may name the maintainer by NIP-05).
func nostrRepoCandidate(v string) (Candidate, error) {
	from := "git config nostr.repo"
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(v)), "nostr://") {
		ref, err := ParseNostrURL(v)
		if err != nil {
			return Candidate{}, err
		}
		return Candidate{Coordinate: ref.Coordinate, NIP05: ref.NIP05, Relays: ref.Relays, From: from}, nil
	}
	coord, relays, err := DecodeNaddr(v)
	if err != nil {
		return Candidate{}, err
	}
	return Candidate{Coordinate: coord, Relays: relays, From: from}, nil
}
