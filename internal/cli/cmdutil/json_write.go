package cmdutil

import (
	"io"

	"github.com/roster-cli/roster/internal/jsonout"
)

func OrEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func OrEmptySlice(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteJSON prints v as indented JSON on stdout, through --json-fields and
// --jq when given (json_output.go). `<`, `>` and `&` stay literal
// (docs/json.md): messages and commands carry "<npub>" and "&&".
func WriteJSON(a *Factory, v any) error { return a.EmitJSON(v, true) }

// EncodeJSON is v as indented JSON to any writer, unfiltered.
func EncodeJSON(w io.Writer, v any) error { return EncodeJSONTo(w, v, true) }

// EncodeJSONTo is v as JSON on one line (indent false) or indented.
func EncodeJSONTo(w io.Writer, v any, indent bool) error { return jsonout.Encode(w, v, indent) }
