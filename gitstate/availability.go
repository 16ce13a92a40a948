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
// first MaxServers supported URLs, in the order given. The clone URLs come
// from announcements, which anybody in the component writes, so their
// number is attacker-controlled; the rest are reported skipped.
const MaxServers = 8

// Verdict is the answer to "can every OID be fetched from an advertised
// Git server?".
type Verdict string

const (
	// Available: every checked OID is advertised by a listed server (or
	// there was nothing to check).
	Available Verdict = "available"
	// Missing: at least one server was listed and some OID is advertised by
	// none of the listed servers. Availability.Missing names each ref and
	// the push that fixes it. Callers refuse (exit 3).
	Missing Verdict = "missing"
	// Unknown: there were OIDs to check but no server could be listed (all
	// unreachable, all skipped, or none given). Callers refuse for want of
	// evidence (exit 4).
	Unknown Verdict = "unknown"
)

// ServerStatus is what became of one Git server.
type ServerStatus string

const (
	ServerListed      ServerStatus = "listed"
	ServerUnreachable ServerStatus = "unreachable"
	// ServerSkipped: not contacted (Reason is ReasonUnsupported or
	// ReasonOverLimit).
	ServerSkipped ServerStatus = "skipped"
)

// ReasonOverLimit: a supported URL beyond the first MaxServers.
const ReasonOverLimit Reason = "over-limit"

// ServerCheck is one Git server's outcome.
type ServerCheck struct {
	URL    string
	Status ServerStatus
	// Reason and Detail say why a server is unreachable or skipped.
	Reason Reason
	Detail string
	// Refs is how many refs (peeled entries included) a listed server
	// advertised.
	Refs int
}

// RefAvailability is one checked ref.
type RefAvailability struct {
	Ref, OID string
	// AdvertisedBy are the listed servers advertising OID as a ref value or
	// peeled tag, in server order. Empty when the OID is missing or the
	// verdict is Unknown.
	AdvertisedBy []string
}

// MissingRef is a ref whose OID no listed server advertises.
type MissingRef struct {
	Ref, OID string
	// Push is `git push <url> <ref>` to the first listed server, run in
	// the checkout that has the object. A peeled "<tag>^{}" entry is
	// pushed as its tag.
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

// Unreachable are the servers that were contacted and could not be listed.
func (a Availability) Unreachable() []ServerCheck {
	var out []ServerCheck
	for _, s := range a.Servers {
		if s.Status == ServerUnreachable {
			out = append(out, s)
		}
	}
	return out
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
// distinct URL once in the given order, nostr:// URLs dropped (they name the
// repository, not a Git server), URLs that are not file://, http(s)://,
// git:// or ssh:// skipped with ReasonUnsupported, and supported URLs after
// the first MaxServers skipped with ReasonOverLimit. The contacted ones have
// an empty Status.
func PlanServers(servers []string) []ServerCheck {
	var out []ServerCheck
	seen := map[string]bool{}
	contacted := 0
	for _, raw := range servers {
		u := strings.TrimSpace(raw)
		if u == "" || seen[u] || strings.HasPrefix(strings.ToLower(u), "nostr://") {
			continue
		}
		seen[u] = true
		c := ServerCheck{URL: u}
		if _, err := serverEndpoint(u); err != nil {
			c.Status, c.Reason, c.Detail = ServerSkipped, ReasonUnsupported, err.Error()
		} else if contacted >= MaxServers {
			c.Status, c.Reason, c.Detail = ServerSkipped, ReasonOverLimit, fmt.Sprintf("only the first %d Git servers are contacted", MaxServers)
		} else {
			contacted++
		}
		out = append(out, c)
	}
	return out
}

// CheckAvailability asks the advertised Git servers whether every OID in
// oids (ref -> oid, the kind 30618 shape) can be fetched: whether some
// server advertises the OID as a ref value or a peeled tag value. Only
// advertised tips count; a commit merely reachable from one is reported
// missing (servers need not serve unadvertised objects by default). Entries
// that are not refs/ names with object-id values (HEAD's "ref: ...") are
// not objects and are not checked. With nothing to check no server is
// contacted.
//
// Servers are planned by PlanServers (at most MaxServers contacted) and
// listed in parallel, each within DefaultServerTimeout or ctx's deadline,
// whichever is sooner, so the whole check takes at most about one server
// timeout.
func CheckAvailability(ctx context.Context, servers []string, oids map[string]string) Availability {
	plan := PlanServers(servers)
	if len(checkedRefs(oids)) == 0 {
		return EvaluateAvailability(plan, nil, oids)
	}
	ads := make([]Advertised, len(plan))
	var wg sync.WaitGroup
	for i := range plan {
		if plan[i].Status != "" {
			continue
		}
		wg.Add(1)
		go func(c *ServerCheck, ad *Advertised) {
			defer wg.Done()
			sctx, cancel := context.WithTimeout(ctx, DefaultServerTimeout)
			defer cancel()
			got, err := ListRemoteRefs(sctx, c.URL)
			if err != nil {
				c.Status = ServerUnreachable
				c.Reason, c.Detail = ReasonProtocol, err.Error()
				if ue, ok := err.(*UnreachableError); ok {
					c.Reason, c.Detail = ue.Reason, ue.Err.Error()
				}
				return
			}
			c.Status, c.Refs, *ad = ServerListed, len(got.Refs), got
		}(&plan[i], &ads[i])
	}
	wg.Wait()
	var listed []Advertised
	for i, c := range plan {
		if c.Status == ServerListed {
			listed = append(listed, ads[i])
		}
	}
	return EvaluateAvailability(plan, listed, oids)
}

// EvaluateAvailability is CheckAvailability without the network: servers
// are the outcomes (ServerListed ones have their advertisement in
// advertised), oids the refs to check. Pure.
func EvaluateAvailability(servers []ServerCheck, advertised []Advertised, oids map[string]string) Availability {
	a := Availability{Servers: servers, Verdict: Available}
	refs := checkedRefs(oids)
	var firstListed string
	for _, s := range servers {
		if s.Status == ServerListed {
			firstListed = s.URL
			break
		}
	}
	if len(refs) > 0 && firstListed == "" {
		a.Verdict = Unknown
	}
	missing := map[string]bool{}
	for _, ref := range refs {
		ra := RefAvailability{Ref: ref, OID: strings.ToLower(oids[ref])}
		for _, ad := range advertised {
			if ad.Has(ra.OID) {
				ra.AdvertisedBy = append(ra.AdvertisedBy, ad.URL)
			}
		}
		if len(ra.AdvertisedBy) == 0 && a.Verdict != Unknown {
			missing[ref] = true
		}
		a.Refs = append(a.Refs, ra)
	}
	for _, ra := range a.Refs {
		if !missing[ra.Ref] {
			continue
		}
		tag, peeled := strings.CutSuffix(ra.Ref, "^{}")
		if peeled && missing[tag] {
			continue // pushing the tag brings its peeled object
		}
		a.Missing = append(a.Missing, MissingRef{Ref: ra.Ref, OID: ra.OID,
			Push: suggest.Git("push", firstListed, tag)})
	}
	if len(a.Missing) > 0 {
		a.Verdict = Missing
	}
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
