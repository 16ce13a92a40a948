package gitstate

import "testing"

// Rule: the cause named for an unreachable server is the ssh or HTTP
// error, never git's closing boilerplate ("and the repository exists."),
// which follows every failure and read alone is a fragment.
func TestTheServerErrorNamedIsNotGitsBoilerplate(t *testing.T) {
	stderr := "ssh: Could not resolve hostname nowhere.invalid: Name or service not known\r\n" +
		"fatal: Could not read from remote repository.\n\n" +
		"Please make sure you have the correct access rights\n" +
		"and the repository exists.\n"
	if got, want := lastLine(stderr), "ssh: Could not resolve hostname nowhere.invalid: Name or service not known"; got != want {
		t.Fatalf("lastLine = %q, want %q", got, want)
	}
	if got := lastLine("fatal: Could not read from remote repository.\nand the repository exists.\n"); got != "" {
		t.Fatalf("boilerplate alone gave %q, want nothing", got)
	}
}
