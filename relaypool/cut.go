package relaypool

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// CutWindow is how far apart in time the relays' answers of one recheck may
// be for them to count as one state of a repository, and CutRounds how many
// re-asks a write spends at most getting them there. The membership and the
// state publication pipelines both take their recheck's cut with Cut
// (membership.CutWindow says why the cut is needed).
const (
	CutWindow = 250 * time.Millisecond
	CutRounds = 3
)

// LatestAnswer is when the slowest relay of res answered (zero for nil).
func LatestAnswer(res *FetchResult) time.Time {
	var t time.Time
	if res == nil {
		return t
	}
	for _, r := range res.Relays {
		if r.Answered.After(t) {
			t = r.Answered
		}
	}
	return t
}

// StaleRelays are the relays of res whose answer arrived more than
// CutWindow before ref.
func StaleRelays(res *FetchResult, ref time.Time) []string {
	var out []string
	for _, r := range res.Relays {
		if r.Answered.Before(ref.Add(-CutWindow)) {
			out = append(out, r.URL)
		}
	}
	return out
}

// CutError is a recheck whose answers could not be made a consistent cut:
// Relays are the relays still more than CutWindow apart after every re-ask
// was spent (Failed false), or those that did not answer a re-ask (Failed
// true, each "url (status: reason)"). Error is the sentence the pipelines
// put before "nothing was published".
type CutError struct {
	Relays []string
	Failed bool
}

func (e *CutError) Error() string {
	if e.Failed {
		return "asked again for a consistent recheck, not every relay answered: " + strings.Join(e.Relays, ", ")
	}
	return fmt.Sprintf("the relays' answers to the recheck stayed more than %s apart after %d re-asks (%s): they are not one state of the repository",
		CutWindow, CutRounds, strings.Join(e.Relays, ", "))
}

// Cut makes res (whose slowest answer is at ref) a consistent cut: every
// relay that answered more than CutWindow before the slowest is asked again
// with reask, until all answers lie within CutWindow of each other. left is
// how many re-asks remain (each spends one; a write's recheck and the one
// after a slow signer share them). It fails closed: no reask, the re-asks
// spent, or a relay that does not answer again is a *CutError, and a done
// ctx is ctx's error, never a torn read passed on as a cut.
func Cut(ctx context.Context, res *FetchResult, ref time.Time, left *int,
	reask func(context.Context, *FetchResult, []string) *FetchResult) (*FetchResult, error) {
	for {
		stale := StaleRelays(res, ref)
		if len(stale) == 0 {
			return res, nil
		}
		if *left <= 0 || reask == nil {
			return nil, &CutError{Relays: stale}
		}
		*left--
		res = reask(ctx, res, stale)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !res.Complete {
			var failed []string
			for _, r := range res.Relays {
				if r.Status != StatusOK {
					failed = append(failed, fmt.Sprintf("%s (%s: %s)", r.URL, r.Status, r.Reason))
				}
			}
			return nil, &CutError{Relays: failed, Failed: true}
		}
		ref = LatestAnswer(res)
	}
}
