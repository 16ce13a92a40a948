package cmdutil

import (
	"errors"
	"io"

	"github.com/roster-cli/roster/internal/jsonout"
	"github.com/roster-cli/roster/suggest"
)

// Output selection, as gh does it (roster help formatting, docs/json.md):
// --json prints the command's object; --json-fields a,b keeps only those
// top-level fields of it; --jq <expr> runs a jq expression over it
// (internal/jsonout). Both imply --json. They are applied here, to whatever
// object a command hands writeJSON, never per command. An error is printed
// unfiltered, the {"error": ...} object a script branches on: on stdout
// with --json, on stderr with --jq or --json-fields (as gh does), so that
// stdout carries only the selected output (errorOut).

// PrepareOutput builds the filter before the command runs, so a bad
// expression is refused before any relay is asked.
func PrepareOutput(a *Factory) error {
	if a.Opts.JQ != "" || len(a.Opts.JSONFields) > 0 {
		a.Opts.JSON, a.Selecting = true, true
	}
	f, err := jsonout.New(a.Opts.JQ, a.Opts.JSONFields)
	if err != nil {
		return outputError(err)
	}
	if f != nil {
		a.output = f
	}
	return nil
}

// ErrorOut is where the JSON error object goes: stderr when --jq or
// --json-fields select what stdout carries, else stdout.
func (a *Factory) ErrorOut() io.Writer {
	if a.Selecting {
		return a.Io.Err
	}
	return a.Io.Out
}

// outputError is a jsonout refusal as the usage error it is, pointing at
// roster help formatting; other errors pass unchanged.
func outputError(err error) error {
	help := []suggest.Command{suggest.Roster("help", "formatting").Pin()}
	var jq *jsonout.JQError
	var fields *jsonout.FieldsError
	switch {
	case errors.Is(err, jsonout.ErrNoFields):
		return &ExitError{Code: ExitUsage, Kind: "usage", Err: err, Commands: help}
	case errors.As(err, &jq):
		return &ExitError{Code: ExitUsage, Kind: "usage", Err: err,
			Details: map[string]any{"jq": jq.Expr}, Commands: help}
	case errors.As(err, &fields):
		return &ExitError{Code: ExitUsage, Kind: "usage", Err: err,
			Details: map[string]any{"unknown": fields.Unknown, "available": fields.Available}, Commands: help}
	}
	return err
}

// EmitJSON prints v on stdout: indented (writeJSON) or on one line (the
// dev relay's start line), through --json-fields and --jq when given.
func (a *Factory) EmitJSON(v any, indent bool) error {
	if err := a.output.Write(a.Io.Out, v, indent); err != nil {
		return outputError(err)
	}
	return nil
}
