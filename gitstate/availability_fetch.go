package gitstate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// probeServer asks the server at rawURL (a normalized clone URL) for every
// OID in want by fetching them into quarantine repositories of its own,
// removed afterwards, and says which it served and which it lacks. A nil
// error means the server answered. A refusal of the fetch of everything at
// once names the first OID the server lacks: it is dropped and the rest
// asked again (at most MaxProbedObjects rounds; one object at a time when
// the refusal names none), so that what it lacks is named. A server that
// serves only advertised objects by id has its advertised branches and
// tags fetched instead, and an OID counts when that fetch delivered it.
func probeServer(ctx context.Context, rawURL string, want []string) (served, lacks []string, _ *UnreachableError) {
	left := slices.Clone(want)
	var c cause
	// Each refusal names the first OID the server lacks: drop it and ask
	// for the rest again, so one missing object costs one more fetch.
	for round := 0; len(left) > 0; round++ {
		if round > MaxProbedObjects {
			lacks = append(lacks, left...)
			left = nil
			break
		}
		r, err := fetchInto(ctx, rawURL, true, left...)
		if err != nil {
			return nil, nil, err
		}
		if r.err == nil {
			served = append(served, left...)
			left = nil
			break
		}
		var ue *UnreachableError
		if c, ue = answered(rawURL, r); ue != nil {
			return nil, nil, ue
		}
		if c.byIDRefused {
			break
		}
		named := refusedOID(r.stderr, left)
		if named == "" {
			if len(left) == 1 {
				named = left[0]
			} else {
				// The refusal names no OID: ask one at a time.
				s, l, ue := probeEach(ctx, rawURL, left)
				served, lacks = append(served, s...), append(lacks, l...)
				left = nil
				if ue != nil {
					return served, lacks, ue
				}
				break
			}
		}
		lacks = append(lacks, named)
		left = slices.DeleteFunc(left, func(o string) bool { return o == named })
	}
	if c.byIDRefused && len(left) > 0 {
		// Protocol v0 without allowReachableSHA1InWant: fetch what it
		// advertises, by name, and look for the OIDs in what arrived.
		got, ue := fetchAdvertised(ctx, rawURL, left)
		if ue != nil {
			return served, lacks, ue
		}
		for _, o := range left {
			if got[o] {
				served = append(served, o)
			} else {
				lacks = append(lacks, o)
			}
		}
	}
	slices.Sort(served)
	slices.Sort(lacks)
	return served, lacks, nil
}

// probeEach fetches each OID on its own (at most MaxProbedObjects; the
// rest count as lacking).
func probeEach(ctx context.Context, rawURL string, oids []string) (served, lacks []string, _ *UnreachableError) {
	for i, oid := range oids {
		if i >= MaxProbedObjects {
			return served, append(lacks, oids[i:]...), nil
		}
		r, err := fetchInto(ctx, rawURL, true, oid)
		if err != nil {
			return served, lacks, err
		}
		if r.err == nil {
			served = append(served, oid)
			continue
		}
		if _, ue := answered(rawURL, r); ue != nil {
			return served, lacks, ue
		}
		lacks = append(lacks, oid)
	}
	return served, lacks, nil
}

// refusedOID is the OID of left that git's refusal names ("not our ref
// <oid>", "unadvertised object <oid>"), or "".
func refusedOID(stderr string, left []string) string {
	s := strings.ToLower(stderr)
	for _, o := range left {
		if strings.Contains(s, o) {
			return o
		}
	}
	return ""
}

// answered classifies a failed fetch: the cause when the server answered
// and refused, else the server's unreachability.
func answered(rawURL string, r netResult) (cause, *UnreachableError) {
	if r.stderr == "" || r.err != nil && !isExit(r.err) {
		return cause{}, netError(rawURL, r)
	}
	c := classifyGit(r.stderr)
	if !c.answered {
		return c, netError(rawURL, r)
	}
	return c, nil
}

func isExit(err error) bool {
	_, ok := err.(interface{ ExitCode() int })
	return ok
}

// quarantine is an empty bare repository in a temporary directory.
func quarantine(rawURL string) (string, *UnreachableError) {
	dir, err := os.MkdirTemp("", "roster-objects-")
	if err != nil {
		return "", &UnreachableError{URL: rawURL, Reason: ReasonProtocol, Err: err}
	}
	// What `git init --bare --template=` writes, without a process.
	files := map[string]string{
		"HEAD":   "ref: refs/heads/main\n",
		"config": "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n",
	}
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags"} {
		if err = os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			break
		}
	}
	for name, body := range files {
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600)
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", &UnreachableError{URL: rawURL, Reason: ReasonProtocol, Err: err}
	}
	return dir, nil
}

// fetchFlags are every quarantine fetch's: nothing but the objects asked
// for, no prompt, no FETCH_HEAD, no maintenance afterwards.
var fetchFlags = []string{
	"-c", "protocol.version=2", "-c", "credential.interactive=never", "-c", "fetch.fsckObjects=false",
	"-c", "gc.auto=0", "-c", "maintenance.auto=false", "-c", "fetch.writeCommitGraph=false", "-c", "fetch.showForcedUpdates=false",
	"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules",
}

// fetchInto fetches wants (OIDs) from rawURL into a fresh quarantine,
// shallow and without trees where the server filters. A non-nil error is
// a local failure (no quarantine could be made).
func fetchInto(ctx context.Context, rawURL string, shallow bool, wants ...string) (netResult, *UnreachableError) {
	dir, ue := quarantine(rawURL)
	if ue != nil {
		return netResult{}, ue
	}
	defer os.RemoveAll(dir)
	args := append(slices.Clone(fetchFlags), "--filter=tree:0")
	if shallow {
		args = append(args, "--depth=1")
	}
	args = append(append(args, "--", rawURL), wants...)
	return runNet(ctx, dir, rawURL, fetchCap, 1<<20, args...), nil
}

// fetchAdvertised fetches the server's branches and tags by name into a
// fresh quarantine and reports which of oids arrived.
func fetchAdvertised(ctx context.Context, rawURL string, oids []string) (map[string]bool, *UnreachableError) {
	dir, ue := quarantine(rawURL)
	if ue != nil {
		return nil, ue
	}
	defer os.RemoveAll(dir)
	args := append(slices.Clone(fetchFlags), "--", rawURL, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
	r := runNet(ctx, dir, rawURL, fetchCap, 1<<20, args...)
	if r.err != nil {
		if _, ue := answered(rawURL, r); ue != nil {
			return nil, ue
		}
		return map[string]bool{}, nil // it lacks what it advertises: nothing counts
	}
	got := map[string]bool{}
	out, err := runGitInput(dir, strings.Join(oids, "\n")+"\n", "cat-file", "--batch-check=%(objectname)")
	if err != nil {
		return got, nil
	}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) == 1 && isObjectID(f[0]) {
			got[f[0]] = true
		}
	}
	return got, nil
}
