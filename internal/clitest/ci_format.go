package clitest

import (
	"regexp"
	"strings"
	"testing"
)

// WorkflowCommand is one parsed GitHub Actions workflow command.
type WorkflowCommand struct {
	Command string
	Props   map[string]string
	Message string
}

var (
	WorkflowLine = regexp.MustCompile(`^::([a-z-]+)(?: ([^:]*))?::(.*)$`)
	WorkflowProp = regexp.MustCompile(`^([A-Za-z]+)=([^,:]*)$`)
	// escapes the runner decodes; any other % sequence is a grammar error.
	DataEscape = regexp.MustCompile(`%(25|0D|0A)|%`)
	PropEscape = regexp.MustCompile(`%(25|0D|0A|3A|2C)|%`)
)

// UnescapeStrict decodes a workflow command value, failing on a "%" that
// starts no escape the grammar knows.
func UnescapeStrict(t *testing.T, s string, re *regexp.Regexp) string {
	t.Helper()
	return re.ReplaceAllStringFunc(s, func(m string) string {
		switch m {
		case "%25":
			return "%"
		case "%0D":
			return "\r"
		case "%0A":
			return "\n"
		case "%3A":
			return ":"
		case "%2C":
			return ","
		}
		t.Fatalf("unescaped %% in workflow command value %q", s)
		return m
	})
}

// ParseWorkflowCommands is a strict parser of the workflow-command grammar
// (::command key=value,key=value::message): every line of out must be one
// of error, warning or notice, with well-formed, escaped properties and
// Message.
func ParseWorkflowCommands(t *testing.T, out string) []WorkflowCommand {
	t.Helper()
	var cmds []WorkflowCommand
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := WorkflowLine.FindStringSubmatch(line)
		if m == nil || strings.ContainsAny(line, "\r") {
			t.Fatalf("not a workflow command: %q\n%s", line, out)
		}
		c := WorkflowCommand{Command: m[1], Props: map[string]string{}}
		switch c.Command {
		case "error", "warning", "notice":
		default:
			t.Fatalf("unexpected workflow command %q in %q", c.Command, line)
		}
		if m[2] != "" {
			for _, p := range strings.Split(m[2], ",") {
				pm := WorkflowProp.FindStringSubmatch(p)
				if pm == nil {
					t.Fatalf("malformed property %q in %q", p, line)
				}
				c.Props[pm[1]] = UnescapeStrict(t, pm[2], PropEscape)
			}
		}
		c.Message = UnescapeStrict(t, m[3], DataEscape)
		cmds = append(cmds, c)
	}
	return cmds
}
