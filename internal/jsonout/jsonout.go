// Package jsonout is roster's output selection, as gh does it (roster help
// formatting, docs/json.md): --json-fields a,b keeps only those top-level
// fields of a command's JSON object, --jq <expr> runs a jq expression (gojq)
// over it. A Filter is built from the two flags before the command runs, so
// a bad expression is refused before any relay is asked, and applied to
// whatever object the command prints. It imports only the standard library,
// gojq and suggest (for quoting the expression in its error).
package jsonout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"

	"github.com/itchyny/gojq"

	"github.com/roster-cli/roster/suggest"
)

// ErrNoFields is New's answer to --json-fields given with only empty names.
var ErrNoFields = errors.New("--json-fields names no field: give a comma-separated list, e.g. --json-fields schema,complete")

// JQError is an expression that did not compile, or failed while it ran.
type JQError struct {
	Expr string
	Err  error
}

func (e *JQError) Error() string {
	return fmt.Sprintf("--jq %s: %v", suggest.Quote(e.Expr), e.Err)
}
func (e *JQError) Unwrap() error { return e.Err }

// FieldsError is --json-fields naming fields the output does not have.
type FieldsError struct {
	// Unknown are the asked-for names the object lacks, in the order asked.
	Unknown []string
	// Available are the object's top-level fields, in its order.
	Available []string
}

func (e *FieldsError) Error() string {
	return fmt.Sprintf("--json-fields: no field %s in this output; its fields are %s", strings.Join(e.Unknown, ", "), strings.Join(e.Available, ", "))
}

// Filter is the compiled --jq expression and the normalized --json-fields.
// A nil *Filter selects nothing: Write prints the object as given.
type Filter struct {
	expr   string
	code   *gojq.Code
	fields []string
}

// New builds the filter of the flags: field names trimmed, empty ones and
// repeats dropped; the expression parsed and compiled. With neither flag it
// returns nil and no error.
func New(jq string, fields []string) (*Filter, error) {
	if jq == "" && len(fields) == 0 {
		return nil, nil
	}
	f := &Filter{expr: jq}
	for _, name := range fields {
		if name = strings.TrimSpace(name); name != "" && !slices.Contains(f.fields, name) {
			f.fields = append(f.fields, name)
		}
	}
	if len(fields) > 0 && len(f.fields) == 0 {
		return nil, ErrNoFields
	}
	if jq != "" {
		q, err := gojq.Parse(jq)
		if err == nil {
			f.code, err = gojq.Compile(q)
		}
		if err != nil {
			return nil, &JQError{Expr: jq, Err: err}
		}
	}
	return f, nil
}

// Active is whether the filter changes what is printed.
func (f *Filter) Active() bool { return f != nil && (f.code != nil || len(f.fields) > 0) }

// Write prints v to w through the filter: indented or on one line. With
// --json-fields, the object's selected fields in the order asked; with
// --jq, each result on its own line, a string as plain text (jq -r) and
// anything else as JSON. `<`, `>` and `&` stay literal. Nothing is written
// when the filter fails.
func (f *Filter) Write(w io.Writer, v any, indent bool) error {
	if !f.Active() {
		return Encode(w, v, indent)
	}
	raw, err := marshal(v)
	if err != nil {
		return err
	}
	if len(f.fields) > 0 {
		if raw, err = selectFields(raw, f.fields); err != nil {
			return err
		}
	}
	if f.code == nil {
		return writeRaw(w, raw, indent)
	}
	return f.runJQ(w, raw, indent)
}

// Encode is v as JSON on one line (indent false) or indented, unfiltered,
// with `<`, `>` and `&` literal.
func Encode(w io.Writer, v any, indent bool) error {
	enc := json.NewEncoder(w)
	if indent {
		enc.SetIndent("", "  ")
	}
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// marshal is v as compact JSON with `<`, `>` and `&` literal.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}

func writeRaw(w io.Writer, raw []byte, indent bool) error {
	var b bytes.Buffer
	if indent {
		if err := json.Indent(&b, raw, "", "  "); err != nil {
			return err
		}
	} else {
		b.Write(raw)
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

// selectFields keeps the named top-level fields of the object raw, in the
// order they were asked for; a name the object lacks is a *FieldsError that
// lists the fields it has.
func selectFields(raw []byte, fields []string) ([]byte, error) {
	keys, values, err := objectFields(raw)
	if err != nil {
		return nil, err
	}
	var unknown []string
	for _, f := range fields {
		if _, ok := values[f]; !ok {
			unknown = append(unknown, f)
		}
	}
	if len(unknown) > 0 {
		return nil, &FieldsError{Unknown: unknown, Available: keys}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := marshal(f)
		b.Write(name)
		b.WriteByte(':')
		b.Write(values[f])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// objectFields reads the top-level keys of a JSON object in order, with
// each value's raw JSON.
func objectFields(raw []byte) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("--json-fields: the output is not a JSON object")
	}
	var keys []string
	values := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys = append(keys, k)
		values[k] = v
	}
	return keys, values, nil
}

// runJQ runs the expression over raw and prints each result on its own
// line; `halt` (with no value) ends the output without an error.
func (f *Filter) runJQ(w io.Writer, raw []byte, indent bool) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	var out bytes.Buffer
	iter := f.code.Run(jqValue(doc))
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				break
			}
			return &JQError{Expr: f.expr, Err: err}
		}
		if s, isString := v.(string); isString {
			out.WriteString(s)
			out.WriteByte('\n')
			continue
		}
		b, err := marshal(v)
		if err != nil {
			return &JQError{Expr: f.expr, Err: err}
		}
		if err := writeRaw(&out, b, indent); err != nil {
			return err
		}
	}
	_, err := w.Write(out.Bytes())
	return err
}

// jqValue turns decoded JSON into the values gojq takes: json.Number
// becomes int, *big.Int or float64, so that large integers stay exact.
func jqValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jqValue(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = jqValue(e)
		}
		return x
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		if n, ok := new(big.Int).SetString(x.String(), 10); ok {
			return n
		}
		fl, _ := x.Float64()
		return fl
	}
	return v
}
