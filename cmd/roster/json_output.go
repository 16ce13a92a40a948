package main

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

// Output selection, as gh does it (roster help formatting, docs/json.md):
// --json prints the command's object; --json-fields a,b keeps only those
// top-level fields of it; --jq <expr> runs a jq expression over it. Both
// imply --json. They are applied here, to whatever object a command hands
// writeJSON, never per command. Errors are printed unfiltered: the
// {"error": ...} object is the contract a script branches on.

// outputFilter is the compiled --jq expression and the --json-fields.
type outputFilter struct {
	expr   string
	code   *gojq.Code
	fields []string
}

func (f *outputFilter) active() bool { return f != nil && (f.code != nil || len(f.fields) > 0) }

// prepareOutput compiles --jq and normalizes --json-fields before the
// command runs, so a bad expression is refused before any relay is asked.
func prepareOutput(a *app) error {
	if a.opts.JQ == "" && len(a.opts.JSONFields) == 0 {
		return nil
	}
	f := &outputFilter{expr: a.opts.JQ}
	for _, name := range a.opts.JSONFields {
		if name = strings.TrimSpace(name); name != "" && !slices.Contains(f.fields, name) {
			f.fields = append(f.fields, name)
		}
	}
	if len(a.opts.JSONFields) > 0 && len(f.fields) == 0 {
		return &exitError{Code: exitUsage, Kind: "usage", Err: errors.New("--json-fields names no field: give a comma-separated list, e.g. --json-fields schema,complete"),
			Commands: []suggest.Command{suggest.Roster("help", "formatting").Pin()}}
	}
	if a.opts.JQ != "" {
		q, err := gojq.Parse(a.opts.JQ)
		if err == nil {
			f.code, err = gojq.Compile(q)
		}
		if err != nil {
			return jqError(a.opts.JQ, err)
		}
	}
	a.opts.JSON = true
	a.output = f
	return nil
}

func jqError(expr string, err error) *exitError {
	return &exitError{Code: exitUsage, Kind: "usage",
		Err:      fmt.Errorf("--jq %s: %v", shellQuote(expr), err),
		Details:  map[string]any{"jq": expr},
		Commands: []suggest.Command{suggest.Roster("help", "formatting").Pin()}}
}

// emitJSON prints v on stdout: indented (writeJSON) or on one line (the
// dev relay's start line), through --json-fields and --jq when given.
func (a *app) emitJSON(v any, indent bool) error {
	if !a.output.active() {
		return encodeJSONTo(a.io.Out, v, indent)
	}
	raw, err := marshalJSON(v)
	if err != nil {
		return err
	}
	if len(a.output.fields) > 0 {
		if raw, err = selectFields(raw, a.output.fields); err != nil {
			return err
		}
	}
	if a.output.code == nil {
		return writeRaw(a.io.Out, raw, indent)
	}
	return runJQ(a.io.Out, a.output, raw, indent)
}

// marshalJSON is v as compact JSON with `<`, `>` and `&` literal.
func marshalJSON(v any) ([]byte, error) {
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
// order they were asked for; a name the object lacks is a usage error that
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
		return nil, &exitError{Code: exitUsage, Kind: "usage",
			Err:      fmt.Errorf("--json-fields: no field %s in this output; its fields are %s", strings.Join(unknown, ", "), strings.Join(keys, ", ")),
			Details:  map[string]any{"unknown": unknown, "available": keys},
			Commands: []suggest.Command{suggest.Roster("help", "formatting").Pin()}}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := marshalJSON(f)
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
// line: a string as plain text (jq -r), anything else as JSON.
func runJQ(w io.Writer, f *outputFilter, raw []byte, indent bool) error {
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
			return jqError(f.expr, err)
		}
		if s, isString := v.(string); isString {
			out.WriteString(s)
			out.WriteByte('\n')
			continue
		}
		b, err := marshalJSON(v)
		if err != nil {
			return jqError(f.expr, err)
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
