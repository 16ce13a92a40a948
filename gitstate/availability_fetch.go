package gitstate

import (
	"context"
	"os"
	"slices"
	"strings"
)

// probeServer asks the server at rawURL (a normalized clone URL) for every
// OID in want by fetching them into quarantine repositories of its own,
// removed afterwards, and says which it served and which it lacks. A nil
// error means the server answered. A server that answered the fetch of
// everything at once with a refusal is asked one object at a time (at most
// MaxProbedObjects), so that what it lacks is named; one that serves only
// advertised objects by id has its advertised branches and tags fetched
// instead, and an OID counts when that fetch delivered it.
func probeServer(ctx context.Context, rawURL string, want []string) (served, lacks []string, _ *UnreachableError) {
	r, err := fetchInto(ctx, rawURL, true, want...)
	if err != nil {
		return nil, nil, err
	}
	if r.err == nil {
		return slices.Clone(want), nil, nil
	}
	c, ue := answered(rawURL, r)
	if ue != nil {
		return nil, nil, ue
	}
	if !c.byIDRefused && len(want) > 1 {
		for i, oid := range want {
			if i >= MaxProbedObjects {
				lacks = append(lacks, want[i:]...)
				break
			}
			r, err := fetchInto(ctx, rawURL, true, oid)
			if err != nil {
				return served, lacks, err
			}
			if r.err == nil {
				served = append(served, oid)
				continue
			}
			c1, ue := answered(rawURL, r)
			if ue != nil {
				return served, lacks, ue
			}
			if c1.byIDRefused {
				c = c1
				break
			}
			lacks = append(lacks, oid)
		}
		if !c.byIDRefused {
			return served, lacks, nil
		}
	}
	if !c.byIDRefused {
		return nil, slices.Clone(want), nil
	}
	// Protocol v0 without allowReachableSHA1InWant: fetch what it
	// advertises, by name, and look for the OIDs in what arrived.
	left := slices.DeleteFunc(slices.Clone(want), func(o string) bool { return slices.Contains(served, o) })
	if len(left) == 0 {
		return served, nil, nil
	}
	got, ue := fetchAdvertised(ctx, rawURL, left)
	if ue != nil {
		return served, lacks, ue
	}
	lacks = nil
	for _, o := range left {
		if got[o] {
			served = append(served, o)
		} else {
			lacks = append(lacks, o)
		}
	}
	slices.Sort(served)
	slices.Sort(lacks)
	return served, lacks, nil
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
	if _, err := runGit(dir, "checking that a Git server serves the state's objects", "init", "-q", "--bare", "--template="); err != nil {
		os.RemoveAll(dir)
		return "", &UnreachableError{URL: rawURL, Reason: ReasonProtocol, Err: err}
	}
	return dir, nil
}

// fetchFlags are every quarantine fetch's: nothing but the objects asked
// for, no prompt, no FETCH_HEAD.
var fetchFlags = []string{
	"-c", "protocol.version=2", "-c", "credential.interactive=never", "-c", "fetch.fsckObjects=false",
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
