package membership

import (
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// Failure kinds, the stable codes of roster.mutation/v1 errors.
const (
	// KindConcurrentChange: an event the preview used changed before
	// signing; nothing was published.
	KindConcurrentChange = "concurrent-change"
	// KindSignerMismatch: the signer signed with another key than the
	// preview's author; nothing was published.
	KindSignerMismatch = "signer"
	// KindPublishFailed: no relay accepted the event; nothing was published.
	KindPublishFailed = "publish-failed"
	// KindUnverified: published, but the read-back or the re-resolution
	// did not confirm the preview.
	KindUnverified = "unverified"
	// KindGitConfig: the checkout could not be switched to the lead.
	KindGitConfig = "git-config"
	// KindLocalRefs: the checkout's refs, which the change compares with
	// the repository state, cannot be read; nothing was published.
	KindLocalRefs = "local-refs-unreadable"
	// KindSuperseded: published, but a relay keeps another, newer version
	// of the coordinate as its latest: another edit may have won.
	KindSuperseded = "superseded"
	// KindInconsistentRead: the recheck could not take a consistent cut of
	// the relays (they answered too far apart, or not at all when asked
	// again); nothing was published.
	KindInconsistentRead = "inconsistent-read"
)

// Failure is a change that was stopped, or published and not verified.
type Failure struct {
	Kind    string
	Message string
	// Outcome is what had happened so far (the preview, the delivery).
	Outcome *Outcome
	// Changed are the fingerprint keys that changed (concurrent-change),
	// described as people say them.
	Changed []string
	// Problems are the verification problems (unverified).
	Problems []string
	// Switch is the attempted checkout switch (git-config).
	Switch *Switch
	// Superseded maps each relay keeping a newer version of the coordinate
	// than the one published to that version's id (superseded).
	Superseded map[string]string
	// Relays are the relays a recheck could not cut consistently
	// (inconsistent-read).
	Relays []string
	// Commands are what to run next, in order (the rerun of the intent
	// first); cmd renders them with the user's selectors.
	Commands []suggest.Command
	// Availability is the object check (objects-unavailable, objects-unknown).
	Availability *gitstate.Availability
	Err          error
}

func (f *Failure) Error() string { return f.Message }
func (f *Failure) Unwrap() error { return f.Err }

// SignerError is the signer failing to give its key or a signature.
type SignerError struct{ Err error }

func (e *SignerError) Error() string { return e.Err.Error() }
func (e *SignerError) Unwrap() error { return e.Err }

func concurrentChange(out *Outcome, keys []string) *Failure {
	changed := DescribeFingerprintKeys(keys)
	return &Failure{Kind: KindConcurrentChange, Outcome: out, Changed: changed,
		Message: "the repository changed after the preview (" + strings.Join(changed, ", ") +
			"); nothing was published: rerun the command to preview the current state"}
}

// DescribeFingerprintKeys renders "30617:<hex>" keys as people say them.
func DescribeFingerprintKeys(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		kind, rest, _ := strings.Cut(k, ":")
		switch kind {
		case "30617":
			out = append(out, "announcement of "+graph.Npub(rest))
		case "30618":
			out = append(out, "repository state of "+graph.Npub(rest))
		default:
			out = append(out, "deletion "+rest)
		}
	}
	return out
}
