package cmdutil

import (
	"bytes"
	"encoding/csv"
	"strings"

	"github.com/spf13/pflag"
)

// StringArrayVar is pflag's StringArrayVar with a nil default, and
// StringSliceVar pflag's StringSliceVar: the same type names, parsing,
// printed values and help. They exist because pflag's own define a flag by
// printing its default through an encoding/csv writer, a 4 KiB buffer per
// flag: building the repo command group (every subcommand's --relay and
// --json-fields among them) allocated and touched that for each, a
// measurable part of a warm read's page faults (docs/PERFORMANCE.md,
// "Start-up, fourth pass"). An empty value prints "[]" without the writer.
func StringArrayVar(fs *pflag.FlagSet, p *[]string, name, usage string) {
	defineSlice(fs, &stringArray{value: p}, p, name, usage)
}

// StringSliceVar: see StringArrayVar. A value is split as CSV, and each
// use adds its fields.
func StringSliceVar(fs *pflag.FlagSet, p *[]string, name, usage string) {
	defineSlice(fs, &stringSlice{value: p}, p, name, usage)
}

func defineSlice(fs *pflag.FlagSet, v pflag.Value, p *[]string, name, usage string) {
	*p = nil
	f := fs.VarPF(v, name, "", usage)
	// pflag's help leaves out a default of "[]" for its own slice types
	// only; for any other Value it leaves out "", so that is the default
	// as text here, and the help reads the same.
	f.DefValue = ""
}

// sliceText is pflag's text for a slice value: "[" CSV "]".
func sliceText(vals []string) string {
	if len(vals) == 0 {
		return "[]"
	}
	b := &bytes.Buffer{}
	w := csv.NewWriter(b)
	if err := w.Write(vals); err != nil {
		return "[]"
	}
	w.Flush()
	return "[" + strings.TrimSuffix(b.String(), "\n") + "]"
}

// stringArray is pflag's stringArrayValue.
type stringArray struct {
	value   *[]string
	changed bool
}

func (s *stringArray) Set(val string) error {
	if !s.changed {
		*s.value = []string{val}
		s.changed = true
	} else {
		*s.value = append(*s.value, val)
	}
	return nil
}

func (s *stringArray) Append(val string) error {
	*s.value = append(*s.value, val)
	return nil
}

func (s *stringArray) Replace(val []string) error {
	*s.value = append([]string(nil), val...)
	if *s.value == nil {
		*s.value = []string{}
	}
	return nil
}

func (s *stringArray) GetSlice() []string { return append([]string{}, *s.value...) }
func (s *stringArray) Type() string       { return "stringArray" }
func (s *stringArray) String() string     { return sliceText(*s.value) }

// stringSlice is pflag's stringSliceValue.
type stringSlice struct {
	value   *[]string
	changed bool
}

func (s *stringSlice) Set(val string) error {
	v, err := readAsCSV(val)
	if err != nil {
		return err
	}
	if !s.changed {
		*s.value = v
	} else {
		*s.value = append(*s.value, v...)
	}
	s.changed = true
	return nil
}

func readAsCSV(val string) ([]string, error) {
	if val == "" {
		return []string{}, nil
	}
	return csv.NewReader(strings.NewReader(val)).Read()
}

func (s *stringSlice) Append(val string) error {
	*s.value = append(*s.value, val)
	return nil
}

func (s *stringSlice) Replace(val []string) error {
	*s.value = val
	return nil
}

func (s *stringSlice) GetSlice() []string { return *s.value }
func (s *stringSlice) Type() string       { return "stringSlice" }
func (s *stringSlice) String() string     { return sliceText(*s.value) }
