// Rendering the typed errors and suggested commands of the workspace
// pipelines (workspace/projects, workspace/sections) into exitError.

package main

import (
	"context"
	"errors"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/roster-cli/roster/workspace/sections"
)

// pipelineExit maps a pipeline outcome class to its exit code.
var pipelineExit = map[pipeline.Class]int{
	pipeline.Failure:    exitFailure,
	pipeline.Usage:      exitUsage,
	pipeline.Refused:    exitRefused,
	pipeline.Incomplete: exitIncomplete,
	pipeline.Unverified: exitUnverified,
}

// pipelineErr renders what a pipeline returned: a *pipeline.Error becomes
// its exitError, a signer failure the signer's, anything else is returned
// as is.
func pipelineErr(err error) error {
	var pe *pipeline.Error
	var se *pipeline.SignerError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se):
		return signerError(se.Err)
	case errors.As(err, &pe):
		ee := &exitError{Code: pipelineExit[pe.Class], Kind: pe.Code, Err: pe, Details: pe.Details}
		for _, s := range pe.Next {
			ee.Commands = append(ee.Commands, suggestionLine(s))
		}
		return ee
	}
	return err
}

// suggestionLine is a suggested command as printed: one shell word per
// argument, then what it is for and who runs it.
func suggestionLine(s pipeline.Suggestion) string {
	words := make([]string, len(s.Argv))
	for i, w := range s.Argv {
		words[i] = shellQuote(w)
	}
	line := "roster " + strings.Join(words, " ")
	switch s.Purpose {
	case projects.SuggestShowElsewhere:
		line += " --relay wss://<relay hosting the project>"
	case projects.SuggestChange:
		line += "  # run by the project owner " + graph.Npub(s.RunBy)
	case sections.SuggestImport:
		if s.RunBy == "" {
			line += "   # you, the owner, once"
		} else {
			line += "   # run by " + graph.Npub(s.RunBy) + ", once"
		}
	case sections.SuggestGrantRead:
		line += "   # run by " + graph.Npub(s.RunBy) + ", to let you read"
	case sections.SuggestGrantRole:
		line += "   # for the owner " + graph.Npub(s.RunBy) + " to run"
	case sections.SuggestList:
		line += "   # its sections, channels and readers"
	case sections.SuggestRetryImport:
		line += "   # retry once the relay is back"
	}
	return line
}

// projectLazyAuth answers a relay's NIP-42 challenge on reads, opening the signer
// only when a relay asks.
func (a *app) projectLazyAuth(ctx context.Context, evt *nostr.Event) error {
	s, err := a.signer(ctx)
	if err != nil {
		return err
	}
	return s.SignEvent(ctx, evt)
}
