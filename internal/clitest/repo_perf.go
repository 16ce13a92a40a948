package clitest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
)

// TimeRepo runs roster in-process (like invocation.roster, but usable from
// benchmarks) once and returns the wall time and decoded output.
func TimeRepo(t testing.TB, env map[string]string, args ...string) (time.Duration, map[string]any) {
	var out, errb bytes.Buffer
	s := &cmdutil.IoStreams{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] }, Now: time.Now}
	start := time.Now()
	code := root.RunContext(context.Background(), tree, args, s, cmdutil.Seams{})
	d := time.Since(start)
	r := Result{Out: out.String(), Err: errb.String(), Code: code}
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return d, m
}
