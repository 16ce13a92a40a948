// Rendering the typed errors and suggested commands of the workspace
// pipelines (workspace/projects, workspace/sections) into exitError.

package render

import (
	"errors"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// PipelineErr renders what a pipeline returned: a *pipeline.Error becomes
// its exitError, a signer failure the signer's, anything else is returned
// as is.
func PipelineErr(err error) error {
	var pe *pipeline.Error
	var se *pipeline.SignerError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se):
		return cmdutil.SignerError(se.Err)
	case errors.As(err, &pe):
		// A pipeline's message is one sentence that may quote a relay's
		// reply ("... refused the change: <message>").
		return cmdutil.FailureError(pe).OneLine()
	}
	return err
}
