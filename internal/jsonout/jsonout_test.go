package jsonout

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, f *Filter, v any, indent bool) (string, error) {
	t.Helper()
	var b bytes.Buffer
	err := f.Write(&b, v, indent)
	return b.String(), err
}

func TestNoFlagsIsNoFilterAndPrintsTheObjectAsGiven(t *testing.T) {
	f, err := New("", nil)
	if err != nil || f != nil {
		t.Fatalf("New(\"\", nil) = %v, %v; want nil, nil", f, err)
	}
	if f.Active() {
		t.Fatal("a nil filter is active")
	}
	got, err := write(t, f, map[string]any{"cmd": "a && <b>"}, false)
	if err != nil || got != "{\"cmd\":\"a && <b>\"}\n" {
		t.Fatalf("got %q, %v; want <, > and & literal on one line", got, err)
	}
}

func TestJSONFieldsAreTrimmedDeduplicatedAndKeptInTheOrderAsked(t *testing.T) {
	f, err := New("", []string{" b", "a", "b ", ""})
	if err != nil {
		t.Fatal(err)
	}
	got, err := write(t, f, map[string]any{"a": 1, "b": []int{2}, "c": 3}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"b\": [\n    2\n  ],\n  \"a\": 1\n}\n"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestJSONFieldsNamingOnlyEmptyNamesIsRefused(t *testing.T) {
	if _, err := New("", []string{" ", ""}); !errors.Is(err, ErrNoFields) {
		t.Fatalf("err = %v, want ErrNoFields", err)
	}
}

func TestAnUnknownFieldIsRefusedListingTheFieldsTheOutputHas(t *testing.T) {
	f, _ := New("", []string{"a", "nope", "zz"})
	type doc struct {
		B int `json:"b"`
		A int `json:"a"`
	}
	got, err := write(t, f, doc{}, true)
	var fe *FieldsError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want *FieldsError", err)
	}
	if got != "" {
		t.Fatalf("wrote %q on a refusal", got)
	}
	if !slices.Equal(fe.Unknown, []string{"nope", "zz"}) || !slices.Equal(fe.Available, []string{"b", "a"}) {
		t.Fatalf("unknown %v available %v", fe.Unknown, fe.Available)
	}
	if want := "--json-fields: no field nope, zz in this output; its fields are b, a"; err.Error() != want {
		t.Fatalf("message %q, want %q", err.Error(), want)
	}
}

func TestJSONFieldsOnANonObjectIsAnError(t *testing.T) {
	f, _ := New("", []string{"a"})
	if _, err := write(t, f, []int{1}, true); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Fatalf("err = %v", err)
	}
}

func TestABadExpressionIsRefusedBeforeAnythingRuns(t *testing.T) {
	_, err := New(".a |", nil)
	var jq *JQError
	if !errors.As(err, &jq) || jq.Expr != ".a |" {
		t.Fatalf("err = %v, want *JQError for the expression", err)
	}
	if !strings.HasPrefix(err.Error(), "--jq '.a |': ") {
		t.Fatalf("message %q does not name the quoted expression", err.Error())
	}
}

func TestJQPrintsStringsPlainAndOtherResultsAsJSONOnePerLine(t *testing.T) {
	f, err := New(".items[]", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := write(t, f, map[string]any{"items": []any{"a<b", 1, map[string]any{"k": "&"}}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a<b\n1\n{\"k\":\"&\"}\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestJQKeepsLargeIntegersExact(t *testing.T) {
	f, _ := New(".n", nil)
	got, err := write(t, f, map[string]any{"n": uint64(18446744073709551615)}, true)
	if err != nil || got != "18446744073709551615\n" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestJQRunsAfterJSONFields(t *testing.T) {
	f, _ := New("keys", []string{"b"})
	got, err := write(t, f, map[string]any{"a": 1, "b": 2}, false)
	if err != nil || got != "[\"b\"]\n" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestARuntimeJQErrorPrintsNothingAndNamesTheExpression(t *testing.T) {
	f, _ := New(`.a, error("boom")`, nil)
	got, err := write(t, f, map[string]any{"a": 1}, false)
	var jq *JQError
	if !errors.As(err, &jq) || got != "" {
		t.Fatalf("got %q, %v; want nothing written and a *JQError", got, err)
	}
}

func TestHaltEndsTheOutputWithoutAnError(t *testing.T) {
	f, _ := New(".a, halt, .b", nil)
	got, err := write(t, f, map[string]any{"a": 1, "b": 2}, false)
	if err != nil || got != "1\n" {
		t.Fatalf("got %q, %v", got, err)
	}
}
