package gitstate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	gitproto "github.com/go-git/go-git/v5/plumbing/transport/git"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// MaxAdvertisementBytes bounds the body of one smart-HTTP ref
// advertisement ListRemoteRefs reads (a server is untrusted input); a
// longer advertisement is an unreachable server with reason
// ReasonProtocol. ssh:// advertisements (listed by git ls-remote) are cut
// at the same size; git:// and file:// ones are bounded by the caller's
// deadline only: go-git owns those connections.
const MaxAdvertisementBytes = 16 << 20

// advertisementCap is MaxAdvertisementBytes; tests lower it.
var advertisementCap int64 = MaxAdvertisementBytes

// Advertised is what one Git server advertises to a fetching client: every
// ref's value, each annotated tag's peeled value as "<tag>^{}", and HEAD's
// value as "HEAD". These are the objects any client can fetch by name.
type Advertised struct {
	URL  string
	Refs map[string]string
}

// Has reports whether the server advertises oid as some ref's value or
// peeled tag value.
func (a Advertised) Has(oid string) bool {
	for _, v := range a.Refs {
		if v == oid {
			return true
		}
	}
	return false
}

// Reason says why a Git server could not be listed.
type Reason string

const (
	// ReasonUnsupported: the URL is not file://, http(s)://, git:// or
	// ssh:// (a nostr:// URL, scp-like "host:path", a bare path); it was
	// not contacted.
	ReasonUnsupported Reason = "unsupported-url"
	// ReasonNetwork: no connection (refused, no route, DNS).
	ReasonNetwork Reason = "network"
	// ReasonTimeout: the deadline passed before the advertisement arrived.
	ReasonTimeout Reason = "timeout"
	// ReasonAuth: the server asked for credentials or refused them
	// (including an unknown ssh host key).
	ReasonAuth Reason = "auth"
	// ReasonNotRepository: the server answered that there is no
	// repository at that path.
	ReasonNotRepository Reason = "not-a-repository"
	// ReasonProtocol: something answered, but not with a Git ref
	// advertisement (or one larger than MaxAdvertisementBytes).
	ReasonProtocol Reason = "protocol"
	// ReasonLacks: the server answered, and a fetch of the object failed
	// (it does not have it, or will not serve it).
	ReasonLacks Reason = "lacks"
	// ReasonLocalURL: a file:// URL or path in another author's
	// announcement: it names the reader's own disk, not a server anybody
	// else can fetch from, so it is never contacted or counted.
	ReasonLocalURL Reason = "local-url"
	// ReasonNotNeeded: not asked to the end, because other servers had
	// already served every object.
	ReasonNotNeeded Reason = "not-needed"
)

// UnreachableError is ListRemoteRefs' only error: the server at URL could
// not be listed, and why.
type UnreachableError struct {
	URL    string
	Reason Reason
	Err    error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("git server %s unreachable (%s): %v", e.URL, e.Reason, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// supportedSchemes are the Git server URL schemes roster lists.
var supportedSchemes = map[string]bool{"file": true, "http": true, "https": true, "git": true, "ssh": true}

// serverEndpoint parses a clone URL roster is willing to contact: an
// absolute URL with one of supportedSchemes. scp-like "host:path" and bare
// paths, which go-git would also accept, are refused so that what is
// contacted is exactly what the URL's scheme says.
func serverEndpoint(raw string) (*transport.Endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || !supportedSchemes[strings.ToLower(u.Scheme)] {
		return nil, fmt.Errorf("%q is not a file://, http(s)://, git:// or ssh:// URL", raw)
	}
	ep, err := transport.NewEndpoint(raw)
	if err != nil {
		return nil, err
	}
	if !supportedSchemes[ep.Protocol] {
		return nil, fmt.Errorf("%q is not a file://, http(s)://, git:// or ssh:// URL", raw)
	}
	return ep, nil
}

// ListRemoteRefs lists the refs the Git server at rawURL advertises
// (git ls-remote, with peeled tags), anonymously; ssh:// URLs are listed by
// the git command with BatchMode ssh (netEnv), and file:// URLs by the git
// command too (go-git's file transport ran git-upload-pack anyway, and
// linking it brought go-git's server and OpenPGP code into the binary). An existing empty
// repository is listed with no refs. It returns when ctx is done even if
// the transport ignores ctx (go-git's git:// dial does): the abandoned
// attempt then ends on its own. Every error is an *UnreachableError.
func ListRemoteRefs(ctx context.Context, rawURL string) (Advertised, error) {
	ep, err := serverEndpoint(rawURL)
	if err != nil {
		return Advertised{}, &UnreachableError{URL: rawURL, Reason: ReasonUnsupported, Err: err}
	}
	if ep.Protocol == "ssh" || ep.Protocol == "file" {
		// The git command: for ssh, so that the user's ssh
		// (GIT_SSH_COMMAND, core.sshCommand, ~/.ssh/config, the agent)
		// is what connects; for file, because it is what go-git's file
		// transport ran (git-upload-pack) anyway.
		return lsRemoteCLI(ctx, rawURL)
	}
	type result struct {
		ar  *packp.AdvRefs
		err error
	}
	done := make(chan result, 1)
	go func() {
		ar, err := advertisedRefs(ctx, ep)
		done <- result{ar, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		r.err = ctx.Err()
	}
	if errors.Is(r.err, transport.ErrEmptyRemoteRepository) {
		return Advertised{URL: rawURL, Refs: map[string]string{}}, nil
	}
	if r.err != nil {
		if ctx.Err() != nil {
			// Whatever the transport made of the cancelled call, the
			// cause is the deadline.
			r.err = fmt.Errorf("%w (%v)", ctx.Err(), r.err)
		}
		return Advertised{}, &UnreachableError{URL: rawURL, Reason: classify(r.err), Err: r.err}
	}
	refs := make(map[string]string, len(r.ar.References)+len(r.ar.Peeled)+1)
	for name, h := range r.ar.References {
		refs[name] = h.String()
	}
	for name, h := range r.ar.Peeled {
		refs[name+"^{}"] = h.String()
	}
	if r.ar.Head != nil {
		refs["HEAD"] = r.ar.Head.String()
	}
	return Advertised{URL: rawURL, Refs: refs}, nil
}

// advertisedRefs opens an upload-pack session and reads the advertisement.
// HTTP goes through a client of its own that bounds the body; git:// goes
// through go-git's git protocol client (imported alone: go-git's client
// package would link every transport, ssh among them).
func advertisedRefs(ctx context.Context, ep *transport.Endpoint) (*packp.AdvRefs, error) {
	var tr transport.Transport
	switch ep.Protocol {
	case "http", "https":
		tr = githttp.NewClient(&http.Client{Transport: limitedBodies{http.DefaultTransport}})
	case "git":
		tr = gitproto.DefaultClient
	default:
		return nil, fmt.Errorf("no go-git transport for %s://", ep.Protocol)
	}
	sess, err := tr.NewUploadPackSession(ep, nil)
	if err != nil {
		return nil, err
	}
	// The advertisement is what we came for; a failed goodbye does not
	// undo it.
	defer func() { _ = sess.Close() }()
	return sess.AdvertisedReferencesContext(ctx)
}

// limitedBodies caps every response body at MaxAdvertisementBytes.
type limitedBodies struct{ next http.RoundTripper }

func (l limitedBodies) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := l.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	res.Body = &capped{ReadCloser: res.Body, left: advertisementCap, limit: advertisementCap}
	return res, nil
}

// errTooLarge is what a capped body returns past the cap.
type errTooLarge struct{ limit int64 }

func (e errTooLarge) Error() string {
	return fmt.Sprintf("ref advertisement larger than %d bytes", e.limit)
}

type capped struct {
	io.ReadCloser
	left, limit int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errTooLarge{c.limit}
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.ReadCloser.Read(p)
	c.left -= int64(n)
	return n, err
}

// classify maps a transport error to a Reason.
func classify(err error) Reason {
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	msg := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		return ReasonTimeout
	case errors.Is(err, context.Canceled):
		return ReasonTimeout
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return ReasonNotRepository
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed),
		strings.Contains(msg, "ssh: handshake failed"), strings.Contains(msg, "unable to authenticate"),
		strings.Contains(msg, "knownhosts"):
		return ReasonAuth
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH),
		errors.As(err, &dnsErr), errors.As(err, &opErr):
		return ReasonNetwork
	case errors.As(err, &netErr) && netErr.Timeout():
		return ReasonTimeout
	}
	return ReasonProtocol
}

// DefaultServerTimeout bounds CheckAvailability when the caller's context
// has no deadline of its own (commands pass their --timeout).
const DefaultServerTimeout = 10 * time.Second
