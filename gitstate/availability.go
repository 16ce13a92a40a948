package gitstate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// MaxServers bounds how many Git servers CheckAvailability contacts: the
// first MaxServers usable URLs, in the order given. The clone URLs come
// from announcements, which anybody in the component writes, so their
// number is attacker-controlled; the rest are reported skipped.
const MaxServers = 8

// MaxFetchBytes bounds what the fetches asking one server for the state's
// objects may write into their quarantine repository: a server is
// untrusted, and answers a fetch with whatever pack it likes.
const MaxFetchBytes = 64 << 20

// MaxProbedObjects bounds the one-object-at-a-time fetches made when a
// server refused a fetch of all the objects at once (to say which ones it
// lacks); objects beyond it count as not served by that server.
const MaxProbedObjects = 16

// fetchCap is MaxFetchBytes; tests lower it.
var fetchCap int64 = MaxFetchBytes

// Verdict is the answer to "can every OID be fetched from an advertised
// Git server?".
type Verdict string

const (
	// Available: every checked OID was served by some server (or there was
	// nothing to check).
	Available Verdict = "available"
	// Missing: at least one server answered and some OID was served by
	// none of them. Availability.Missing names each ref, the servers that
	// lack it and the push that fixes it. Callers refuse (exit 3).
	Missing Verdict = "missing"
	// Unknown: there were OIDs to check but no server answered (all
	// unreachable, or none contacted). Callers refuse for want of evidence
	// (exit 4), except where the component's servers did not change
	// (membership's removal of a server).
	Unknown Verdict = "unknown"
)

// ServerStatus is what became of one Git server.
type ServerStatus string

const (
	// ServerAnswered: the server was asked for the objects and answered;
	// Served and Lacks say how.
	ServerAnswered    ServerStatus = "answered"
	ServerUnreachable ServerStatus = "unreachable"
	// ServerSkipped: not contacted, or not to the end (Reason is
	// ReasonUnsupported, ReasonLocalURL, ReasonOverLimit or
	// ReasonNotNeeded).
	ServerSkipped ServerStatus = "skipped"
)

// ReasonOverLimit: a usable URL beyond the first MaxServers.
const ReasonOverLimit Reason = "over-limit"

// Server is one advertised clone URL and whether the acting author's own
// announcement advertises it.
type Server struct {
	URL string
	// Own: the author's announcement lists it. Only then is a file:// URL
	// or a local path asked: anybody else's names a path on the reader's
	// machine, which is no evidence that others can fetch.
	Own bool
}

// ServersOf marks every URL as own or not.
func ServersOf(urls []string, own bool) []Server {
	out := make([]Server, 0, len(urls))
	for _, u := range urls {
		out = append(out, Server{URL: u, Own: own})
	}
	return out
}

// ServerCheck is one Git server's outcome.
type ServerCheck struct {
	// URL is the normalized clone URL (scp-like host:path as ssh://, a path
	// as file://); Announced is the URL as announced, when different.
	URL, Announced string
	Own            bool
	Status         ServerStatus
	// Reason and Detail say why a server is unreachable or skipped, in
	// plain words ("host unknown (ssh: Could not resolve hostname …)").
	Reason Reason
	Detail string
	// Served are the OIDs a fetch from it delivered; Lacks those it was
	// asked for and did not serve (sorted).
	Served, Lacks []string
}

// RefAvailability is one checked ref.
type RefAvailability struct {
	Ref, OID string
	// ServedBy are the servers a fetch of OID worked from, in server
	// order. Empty when the OID is missing or the verdict is Unknown.
	ServedBy []string
}

// MissingRef is a ref whose OID no server served.
type MissingRef struct {
	Ref, OID string
	// LackedBy are the servers that answered and did not serve it.
	LackedBy []string
	// Push is `git push <url> <ref>` to the first server that answered,
	// run in the checkout that has the object. A peeled "<tag>^{}" entry
	// is pushed as its tag.
	Push suggest.Command
}

// Availability is CheckAvailability's answer.
type Availability struct {
	Verdict Verdict
	// Refs are the checked refs, sorted by name.
	Refs []RefAvailability
	// Servers are the distinct non-nostr:// URLs given, in order.
	Servers []ServerCheck
	// Missing are the refs to push when Verdict is Missing, sorted; a
	// "<tag>^{}" entry is folded into its tag's when both are missing.
	Missing []MissingRef
}

// Unreachable are the servers that were contacted and did not answer.
func (a Availability) Unreachable() []ServerCheck {
	var out []ServerCheck
	for _, s := range a.Servers {
		if s.Status == ServerUnreachable {
			out = append(out, s)
		}
	}
	return out
}

// contacted reports whether any server was (to be) asked.
func (a Availability) contacted() bool {
	for _, s := range a.Servers {
		if s.Status != ServerSkipped || s.Reason == ReasonNotNeeded || s.Reason == ReasonOverLimit {
			return true
		}
	}
	return false
}

// CloneServers is the union of the announcements' clone URLs, in order,
// each once: the Git servers a repository advertises (maintainers.md:
// the component's clone tags, unioned from the confirmed component).
func CloneServers(anns []*graph.Announcement) []string {
	var out []string
	for _, a := range anns {
		if a == nil {
			continue
		}
		for _, u := range a.Clone {
			if u = strings.TrimSpace(u); u != "" && !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}

// PlanServers decides which servers CheckAvailability contacts: each
// distinct URL once (compared normalized: ParseCloneURL) in the given
// order, nostr:// URLs dropped (they name the repository, not a Git
// server), URLs git would not clone from skipped with ReasonUnsupported,
// file:// URLs and paths nobody's own skipped with ReasonLocalURL, and
// usable URLs after the first MaxServers skipped with ReasonOverLimit. The
// contacted ones have an empty Status.
func PlanServers(servers []Server) []ServerCheck {
	type entry struct {
		c   ServerCheck
		err error
	}
	var order []string
	byKey := map[string]*entry{}
	for _, s := range servers {
		raw := strings.TrimSpace(s.URL)
		if raw == "" || strings.HasPrefix(strings.ToLower(raw), "nostr://") {
			continue
		}
		key, c := raw, ServerCheck{URL: raw}
		u, err := ParseCloneURL(raw)
		if err == nil {
			key, c.URL = u.String(), u.String()
			if c.URL != raw {
				c.Announced = raw
			}
		}
		if e, ok := byKey[key]; ok {
			e.c.Own = e.c.Own || s.Own
			continue
		}
		c.Own = s.Own
		e := &entry{c: c, err: err}
		if err == nil && u.Local() {
			e.err = errLocal
		}
		byKey[key] = e
		order = append(order, key)
	}
	var out []ServerCheck
	contacted := 0
	for _, key := range order {
		e := byKey[key]
		c := e.c
		switch {
		case e.err == errLocal && !c.Own:
			c.Status, c.Reason = ServerSkipped, ReasonLocalURL
			c.Detail = "another maintainer's file:// URL or path names a directory on this machine, not a server others can fetch from: shown, never counted"
		case e.err != nil && e.err != errLocal:
			c.Status, c.Reason, c.Detail = ServerSkipped, ReasonUnsupported, e.err.Error()
		case contacted >= MaxServers:
			c.Status, c.Reason, c.Detail = ServerSkipped, ReasonOverLimit, fmt.Sprintf("only the first %d Git servers are contacted", MaxServers)
		default:
			contacted++
		}
		out = append(out, c)
	}
	return out
}

var errLocal = fmt.Errorf("a local path")

// CheckAvailability asks the advertised Git servers whether every OID in
// oids (ref -> oid, the kind 30618 shape) can be fetched. An OID counts as
// available only when a fetch of it from a server worked: asked by id
// (protocol v2 serves any object it has; so a commit behind a moved branch
// counts), or, from a server that serves only advertised objects by id,
// found in what a fetch of the server's advertised branches and tags
// delivered. An advertisement alone is never evidence (a server can
// advertise what it does not have). The fetches go into a temporary
// quarantine repository (never the user's), each server's bounded by
// MaxFetchBytes, shallow (depth 1, no trees where the server filters) when
// asked by id. Entries that are not refs/ names with object-id values
// (HEAD's "ref: ...") are not objects and are not checked; with nothing to
// check no server is contacted.
//
// Servers are planned by PlanServers (at most MaxServers contacted) and
// asked in parallel until ctx's deadline (DefaultServerTimeout when ctx has
// none): the whole check takes at most that one budget. Once every OID has
// been served, servers still answering are stopped and reported skipped
// (ReasonNotNeeded): a hanging server beside a working one costs nothing.
func CheckAvailability(ctx context.Context, servers []Server, oids map[string]string) Availability {
	plan := PlanServers(servers)
	want := wantedOIDs(oids)
	if len(want) == 0 {
		return EvaluateAvailability(plan, oids)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultServerTimeout)
		defer cancel()
	}
	all, stopAll := context.WithCancel(ctx)
	defer stopAll()
	var mu sync.Mutex
	covered := map[string]bool{}
	stopped := false
	var wg sync.WaitGroup
	done := make([]bool, len(plan))
	for i := range plan {
		if plan[i].Status != "" {
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := &plan[i]
			served, lacks, err := probeServer(all, c.URL, want)
			mu.Lock()
			defer mu.Unlock()
			if stopped && err != nil && err.Reason == ReasonTimeout {
				c.Served = served
				return // stopped because it was not needed: marked below
			}
			done[i] = true
			c.Served, c.Lacks = served, lacks
			if err != nil {
				c.Status, c.Reason, c.Detail = ServerUnreachable, err.Reason, err.Err.Error()
			} else {
				c.Status = ServerAnswered
			}
			for _, o := range served {
				covered[o] = true
			}
			if len(covered) == len(want) && !stopped {
				stopped = true
				stopAll()
			}
		}(i)
	}
	wg.Wait()
	for i := range plan {
		if plan[i].Status == "" && !done[i] {
			plan[i].Status, plan[i].Reason = ServerSkipped, ReasonNotNeeded
			plan[i].Detail = "not asked to the end: other servers had served every object"
		}
	}
	return EvaluateAvailability(plan, oids)
}

// EvaluateAvailability is CheckAvailability without the network: servers
// are the outcomes (what each served and lacks), oids the refs to check.
// Pure.
func EvaluateAvailability(servers []ServerCheck, oids map[string]string) Availability {
	a := Availability{Servers: servers, Verdict: Available}
	refs := checkedRefs(oids)
	var firstAnswered string
	for _, s := range servers {
		if s.Status == ServerAnswered {
			firstAnswered = s.URL
			break
		}
	}
	missing := map[string]bool{}
	for _, ref := range refs {
		ra := RefAvailability{Ref: ref, OID: strings.ToLower(oids[ref])}
		for _, s := range servers {
			if slices.Contains(s.Served, ra.OID) {
				ra.ServedBy = append(ra.ServedBy, s.URL)
			}
		}
		if len(ra.ServedBy) == 0 {
			missing[ref] = true
		}
		a.Refs = append(a.Refs, ra)
	}
	if len(missing) == 0 {
		return a
	}
	if firstAnswered == "" {
		a.Verdict = Unknown
		return a
	}
	for _, ra := range a.Refs {
		if !missing[ra.Ref] {
			continue
		}
		tag, peeled := strings.CutSuffix(ra.Ref, "^{}")
		if peeled && missing[tag] {
			continue // pushing the tag brings its peeled object
		}
		m := MissingRef{Ref: ra.Ref, OID: ra.OID, Push: suggest.Git("push", firstAnswered, tag)}
		for _, s := range servers {
			if s.Status == ServerAnswered || slices.Contains(s.Lacks, ra.OID) {
				m.LackedBy = append(m.LackedBy, s.URL)
			}
		}
		a.Missing = append(a.Missing, m)
	}
	a.Verdict = Missing
	return a
}

// checkedRefs are the refs/ entries with object-id values, sorted.
func checkedRefs(oids map[string]string) []string {
	var out []string
	for ref, oid := range oids {
		if strings.HasPrefix(ref, "refs/") && isObjectID(strings.ToLower(oid)) {
			out = append(out, ref)
		}
	}
	slices.Sort(out)
	return out
}

// wantedOIDs are the distinct OIDs of checkedRefs, sorted.
func wantedOIDs(oids map[string]string) []string {
	var out []string
	for _, ref := range checkedRefs(oids) {
		if o := strings.ToLower(oids[ref]); !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	slices.Sort(out)
	return out
}
