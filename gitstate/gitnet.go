package gitstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The git commands that talk to Git servers (git ls-remote, git fetch into
// a quarantine repository) run here, bounded by the caller's context and,
// for fetches, by the bytes they write.

// netEnv is gitEnv for a command that contacts url: the user's ssh
// settings are kept (GIT_SSH_COMMAND, GIT_SSH, GIT_SSH_VARIANT, else
// core.sshCommand, else ssh) with -o BatchMode=yes appended, so that ssh
// never asks for a password, a passphrase or a host key.
func netEnv(dir, rawURL string) []string {
	env := gitEnv()
	for _, k := range []string{"GIT_SSH", "GIT_SSH_VARIANT"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if !strings.HasPrefix(rawURL, "ssh://") {
		return env
	}
	cmd := os.Getenv("GIT_SSH_COMMAND")
	if cmd == "" && os.Getenv("GIT_SSH") != "" {
		cmd = shellQuote(os.Getenv("GIT_SSH"))
	}
	if cmd == "" {
		if out, err := runGit(dir, "reading core.sshCommand", "config", "--get", "core.sshCommand"); err == nil {
			cmd = strings.TrimSpace(string(out))
		}
	}
	if cmd == "" {
		cmd = "ssh"
	}
	return append(env, "GIT_SSH_COMMAND="+cmd+" -o BatchMode=yes")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// errTooMuchData is a fetch stopped for writing more than its byte bound.
type errTooMuchData struct{ limit int64 }

func (e errTooMuchData) Error() string {
	return fmt.Sprintf("the server sent more than %d bytes", e.limit)
}

// netResult is one network git command's outcome.
type netResult struct {
	stdout []byte
	stderr string
	err    error // nil, ctx's error, errTooMuchData, or the exit error
}

// runNet runs git with args in dir against rawURL until ctx is done. With
// dirLimit > 0 the command is stopped once dir holds more than dirLimit
// bytes in its objects directory; stdout is kept up to stdoutLimit bytes (more stops the command).
func runNet(ctx context.Context, dir, rawURL string, dirLimit, stdoutLimit int64, args ...string) netResult {
	bin, err := exec.LookPath("git")
	if err != nil {
		return netResult{err: &GitMissingError{Need: "asking a Git server for objects"}}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = netEnv(dir, rawURL)
	cmd.Stdin = nil
	cmd.WaitDelay = 500 * time.Millisecond
	detach(cmd)
	stdout := &boundedBuffer{limit: stdoutLimit, over: func() { cancel(errTooMuchData{stdoutLimit}) }}
	var stderr boundedBuffer
	stderr.limit = 64 << 10
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	var wg sync.WaitGroup
	if dirLimit > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			watchSize(ctx, filepath.Join(dir, "objects"), dirLimit, func() { cancel(errTooMuchData{dirLimit}) })
		}()
	}
	err = cmd.Run()
	stoppedEarly := ctx.Err() != nil
	cancel(nil)
	wg.Wait()
	var tooMuch errTooMuchData
	if stoppedEarly && errors.As(context.Cause(ctx), &tooMuch) {
		// A bound was passed; git may still have exited 0 before the kill
		// landed. What it sent is over the bound either way.
		return netResult{stderr: stderr.String(), err: tooMuch}
	}
	if dirLimit > 0 && !stoppedEarly && dirSize(filepath.Join(dir, "objects")) > dirLimit {
		// Finished between two looks: the bound holds all the same.
		return netResult{stderr: stderr.String(), err: errTooMuchData{dirLimit}}
	}
	r := netResult{stdout: stdout.Bytes(), stderr: stderr.String(), err: err}
	if err != nil && stoppedEarly {
		r.err = context.Cause(ctx)
		if errors.Is(r.err, context.Canceled) && !errors.As(r.err, new(errTooMuchData)) {
			r.err = ctx.Err()
		}
	}
	return r
}

// watchSize calls over once dir's files add up to more than limit bytes,
// looking every 50 ms until ctx is done.
func watchSize(ctx context.Context, dir string, limit int64, over func()) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if dirSize(dir) > limit {
			over()
			return
		}
	}
}

// dirSize is the total size of dir's regular files.
func dirSize(dir string) int64 {
	var total int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

// boundedBuffer keeps at most limit bytes and calls over (once) past it.
// The buffer is a field, not embedded: an embedded bytes.Buffer would lend
// boundedBuffer its ReadFrom, and io.Copy (what exec uses to fill a
// command's Stdout) would call that and read everything, past the bound.
type boundedBuffer struct {
	buf   bytes.Buffer
	limit int64
	over  func()
	done  bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if left := b.limit - int64(b.buf.Len()); int64(len(p)) > left {
		if left > 0 {
			b.buf.Write(p[:left])
		}
		if !b.done && b.over != nil {
			b.done = true
			b.over()
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *boundedBuffer) Bytes() []byte  { return b.buf.Bytes() }
func (b *boundedBuffer) String() string { return b.buf.String() }

// cause is what git's stderr says about a server, in plain words.
type cause struct {
	reason Reason
	words  string
	// answered: a Git server answered and refused the request (it lacks
	// the object, or will not serve it by id); false when it was never
	// reached or is no repository.
	answered bool
	// byIDRefused: the server answered that it serves only advertised
	// objects by id (protocol v0 without allowReachableSHA1InWant).
	byIDRefused bool
}

// classifyGit reads a failed network git command's stderr.
func classifyGit(stderr string) cause {
	s := strings.ToLower(stderr)
	has := func(subs ...string) bool {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
		return false
	}
	switch {
	case has("could not resolve hostname", "could not resolve host", "name or service not known", "temporary failure in name resolution", "nodename nor servname"):
		return cause{reason: ReasonNetwork, words: "host unknown"}
	case has("connection refused", "couldn't connect to server", "failed to connect"):
		return cause{reason: ReasonNetwork, words: "connection refused"}
	case has("no route to host", "network is unreachable"):
		return cause{reason: ReasonNetwork, words: "no route to host"}
	case has("connection timed out", "operation timed out"):
		return cause{reason: ReasonTimeout, words: "connection timed out"}
	case has("permission denied (publickey"):
		return cause{reason: ReasonAuth, words: "permission denied (publickey)"}
	case has("host key verification failed", "no ed25519 host key is known", "host key is known"):
		return cause{reason: ReasonAuth, words: "host key unknown or changed (not in known_hosts)"}
	case has("permission denied", "authentication failed", "could not read username", "could not read password", "terminal prompts disabled", "http basic: access denied", "the requested url returned error: 401", "the requested url returned error: 403"):
		return cause{reason: ReasonAuth, words: "permission denied (credentials needed)"}
	case has("does not allow request for unadvertised object"):
		return cause{reason: ReasonLacks, words: "serves only its advertised refs by id", answered: true, byIDRefused: true}
	case has("not our ref", "no such remote ref", "couldn't find remote ref", "unable to find", "bad object", "missing object"):
		return cause{reason: ReasonLacks, words: "does not have the object", answered: true}
	case has("does not appear to be a git repository", "repository not found", "not found", "returned error: 404", "no such file or directory", "not a git repository"):
		return cause{reason: ReasonNotRepository, words: "no repository at that path"}
	case has("connection reset", "connection closed", "broken pipe", "unexpected disconnect", "early eof", "remote end hung up"):
		return cause{reason: ReasonNetwork, words: "the connection was cut"}
	}
	return cause{reason: ReasonProtocol, words: "not a Git server answer"}
}

// gitBoilerplate are the lines git adds after every failed remote
// command, whatever the cause: they say nothing about the server, and the
// last of them ("and the repository exists.") read alone is a fragment.
var gitBoilerplate = []string{
	"fatal: could not read from remote repository.",
	"please make sure you have the correct access rights",
	"and the repository exists.",
}

// lastLine is the last non-empty line of git's stderr that says something
// about the server (the ssh or HTTP error, not git's closing boilerplate),
// for details.
func lastLine(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "warning: filtering not recognized") || slices.Contains(gitBoilerplate, strings.ToLower(l)) {
			continue
		}
		return l
	}
	return ""
}

// lsRemoteCLI lists rawURL's advertisement with git ls-remote: how
// ssh:// servers are listed (the user's ssh, agent and config apply).
func lsRemoteCLI(ctx context.Context, rawURL string) (Advertised, error) {
	dir, err := os.MkdirTemp("", "roster-ls-remote-")
	if err != nil {
		return Advertised{}, &UnreachableError{URL: rawURL, Reason: ReasonProtocol, Err: err}
	}
	defer os.RemoveAll(dir)
	r := runNet(ctx, dir, rawURL, 0, advertisementCap, "ls-remote", "--", rawURL)
	if r.err != nil {
		return Advertised{}, netError(rawURL, r)
	}
	refs := map[string]string{}
	for _, line := range strings.Split(string(r.stdout), "\n") {
		oid, name, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if !ok || !isObjectID(oid) {
			continue
		}
		refs[name] = oid
	}
	return Advertised{URL: rawURL, Refs: refs}, nil
}

// netError is a failed network command as an *UnreachableError.
func netError(rawURL string, r netResult) *UnreachableError {
	var big errTooMuchData
	switch {
	case errors.As(r.err, &big):
		return &UnreachableError{URL: rawURL, Reason: ReasonProtocol, Err: big}
	case errors.Is(r.err, context.DeadlineExceeded), errors.Is(r.err, context.Canceled):
		return &UnreachableError{URL: rawURL, Reason: ReasonTimeout, Err: fmt.Errorf("no answer within the time budget (%w)", r.err)}
	case errors.As(r.err, new(*GitMissingError)):
		return &UnreachableError{URL: rawURL, Reason: ReasonProtocol, Err: r.err}
	}
	c := classifyGit(r.stderr)
	detail := c.words
	if l := lastLine(r.stderr); l != "" {
		detail += " (" + l + ")"
	}
	return &UnreachableError{URL: rawURL, Reason: c.reason, Err: errors.New(detail)}
}

// runGitInput is runGit with stdin (a local command: gitTimeout bounds it).
func runGitInput(dir, stdin string, args ...string) ([]byte, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return nil, &GitMissingError{Need: "reading a quarantine repository"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gitEnv(), strings.NewReader(stdin)
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return nil, &GitCommandError{Dir: dir, Args: args, Err: err}
	}
	return out, nil
}
