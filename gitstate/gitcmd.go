package gitstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// gitTimeout bounds every git command gitstate runs. Reading config or refs
// of a local repository takes milliseconds; a hung command (a lock held by a
// stuck process, a network file system) must not hang roster.
var gitTimeout = 30 * time.Second

// GitMissingError is returned when a checkout needs the git command (go-git
// cannot open its format, its config uses includes, or roster is about to
// edit its config) and no git binary is on PATH.
type GitMissingError struct {
	// Need says what the git command was needed for.
	Need string
}

func (e *GitMissingError) Error() string {
	return fmt.Sprintf("%s needs the git command, and no git is on PATH: install Git (https://git-scm.com/downloads) or add it to PATH, then rerun", e.Need)
}

// GitCommandError is a git command that failed or timed out.
type GitCommandError struct {
	Dir    string
	Args   []string
	Stderr string
	Err    error
}

func (e *GitCommandError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s in %s: %s", strings.Join(e.Args, " "), e.Dir, msg)
}

func (e *GitCommandError) Unwrap() error { return e.Err }

// exitCode is the command's exit status, or -1 when it did not exit normally.
func (e *GitCommandError) exitCode() int {
	var ee *exec.ExitError
	if errors.As(e.Err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// gitEnv is the environment for the git commands gitstate runs: the user's
// environment without any GIT_* variable, so GIT_DIR, GIT_WORK_TREE,
// GIT_CONFIG_* or GIT_NAMESPACE cannot point roster at another repository or
// inject config; replace objects are off (go-git does not honour them
// either) and messages are in the C locale.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "LC_ALL=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_NO_REPLACE_OBJECTS=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}

// runGit runs git with args in dir and returns its stdout. need names, for
// GitMissingError, what the command is for.
func runGit(dir, need string, args ...string) ([]byte, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return nil, &GitMissingError{Need: need}
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("did not finish within %s: %w", gitTimeout, ctx.Err())
			return nil, &GitCommandError{Dir: dir, Args: args, Err: err}
		}
		return nil, &GitCommandError{Dir: dir, Args: args, Stderr: stderr.String(), Err: err}
	}
	if w := brokenRefWarning(stderr.String()); w != "" {
		return nil, &GitCommandError{Dir: dir, Args: args, Stderr: w, Err: errors.New(w)}
	}
	return stdout.Bytes(), nil
}

// brokenRefWarning is git's "ignoring broken ref" warning, which git prints
// while still exiting 0 and leaving the ref out of its answer.
func brokenRefWarning(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "ignoring broken ref") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}
