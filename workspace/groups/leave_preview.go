// What a leave request would act on, read without sending anything: the
// basis of `group leave`'s consequence preview.

package groups

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/workspace/pipeline"
)

// PreviewLeave reads the group and my membership as Leave does and refuses
// what Leave refuses before sending (no relay hosts the group, several do,
// it is archived or deleted). Outcome is OutcomeNotMember when Leave would
// send nothing, else "" (a leave request would be sent). Nothing is signed
// or sent.
func PreviewLeave(ctx context.Context, in RequestInput) (RequestResult, error) {
	ask := in.Ask
	if in.Host != "" {
		ask = []string{in.Host}
	}
	host, err := hostOf(ReadMember(ctx, in.Relays, ask, in.ID, in.Me), in.ID, "leave", in.Command)
	if err != nil {
		return RequestResult{}, err
	}
	res := RequestResult{Kind: KindLeaveRequest, Relay: host.URL, Before: *host.Me, After: *host.Me, Read: host}
	if !host.Live {
		return res, &pipeline.Error{Class: pipeline.Refused, Code: CodeNotLive, Details: map[string]any{"relay": host.URL, "id": in.ID},
			Msg: fmt.Sprintf("group %s on %s is archived or deleted, so roster sends no leave request", in.ID, host.URL)}
	}
	if !host.Me.Member {
		res.Outcome = OutcomeNotMember
	}
	return res, nil
}
