package gitstate

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"unicode"
)

// CloneForm is how a clone URL was written.
type CloneForm string

const (
	// FormURL: scheme://… (ssh, git, http, https, file, and git's ssh
	// aliases git+ssh and ssh+git).
	FormURL CloneForm = "url"
	// FormSCP: git's scp-like "[user@]host:path" (an ssh URL).
	FormSCP CloneForm = "scp"
	// FormPath: a local path, absolute or relative.
	FormPath CloneForm = "path"
)

// CloneURL is a clone URL parsed the way git parses it (git-clone(1),
// "GIT URLS"): a URL with a scheme, git's scp-like "[user@]host:path"
// (a colon before any slash), or else a local path.
type CloneURL struct {
	// Raw is the string as given.
	Raw string
	// Form is how Raw was written.
	Form CloneForm
	// Scheme is "ssh", "git", "http", "https" or "file" (a local path is
	// "file"; git+ssh:// and ssh+git:// are "ssh").
	Scheme string
	// User, Host and Port are the server's (empty for file).
	User, Host, Port string
	// Path is the repository's path on the server; for a local path as
	// written (possibly relative), for file:// the absolute path.
	Path string
	// rest is the URL's query and fragment for http(s), kept verbatim;
	// password an http(s) URL's password, kept (but never in Server).
	rest     string
	password *string
}

// CloneURLError is a clone URL git would not clone from, and why.
type CloneURLError struct {
	Raw, Why string
}

func (e *CloneURLError) Error() string {
	return fmt.Sprintf("%q is not a Git clone URL: %s", e.Raw, e.Why)
}

// ParseCloneURL parses raw as git does: "<scheme>://…" for ssh, git,
// http(s) and file (git+ssh and ssh+git are ssh); "[user@]host:path" with
// the colon before any slash, or "[user@host:port]:path", as scp-like ssh;
// anything else as a local path. Remote-helper forms ("<helper>::<address>",
// nostr://…) and other schemes are a *CloneURLError: they name no Git
// server roster can ask. Surrounding space is trimmed; control characters
// are refused.
func ParseCloneURL(raw string) (CloneURL, error) {
	s := strings.TrimSpace(raw)
	bad := func(why string) (CloneURL, error) { return CloneURL{}, &CloneURLError{Raw: raw, Why: why} }
	if s == "" {
		return bad("it is empty")
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return bad("it contains a control character")
	}
	if i := strings.Index(s, "://"); i > 0 && isScheme(s[:i]) {
		return parseURLForm(raw, s)
	}
	if i := strings.Index(s, "::"); i > 0 && isScheme(s[:i]) && !strings.Contains(s[:i], "/") {
		return bad(fmt.Sprintf("it uses the remote helper %q, not a Git server", s[:i]))
	}
	if isSCPLike(s) {
		return parseSCP(raw, s)
	}
	return CloneURL{Raw: raw, Form: FormPath, Scheme: "file", Path: s}, nil
}

// NormalizeCloneURL is ParseCloneURL(raw).String(): the URL other people
// fetch from (scp-like → ssh://user@host/path, a local path → file://
// with its absolute path).
func NormalizeCloneURL(raw string) (string, error) {
	u, err := ParseCloneURL(raw)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// Local reports whether the URL names the reader's own file system (a
// local path or file://): nobody else can fetch from it, so it is never
// evidence that someone else's objects are available.
func (u CloneURL) Local() bool { return u.Scheme == "file" }

// Server names the server for messages: "host" or "host:port" ("user@"
// omitted), or the path for a local URL.
func (u CloneURL) Server() string {
	if u.Local() {
		return u.Path
	}
	if u.Port != "" {
		return joinHostPort(u.Host, u.Port)
	}
	return u.Host
}

// String is the normalized URL: "<scheme>://[user@]host[:port]/path" for
// servers (scp-like "host:path" becomes ssh://host/path and
// "host:~u/p" ssh://host/~u/p), "file://<absolute path>" for local ones
// (a relative path is made absolute against the working directory, as git
// does).
func (u CloneURL) String() string {
	if u.Local() {
		p := u.Path
		if u.Form == FormPath {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			p = filepath.ToSlash(p)
			if !strings.HasPrefix(p, "/") {
				p = "/" + p // a Windows drive path: file:///C:/…
			}
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	v := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	if u.Port != "" {
		v.Host = joinHostPort(u.Host, u.Port)
	} else if strings.Contains(u.Host, ":") {
		v.Host = "[" + u.Host + "]"
	}
	if u.password != nil {
		v.User = url.UserPassword(u.User, *u.password)
	} else if u.User != "" {
		v.User = url.User(u.User)
	}
	return v.String() + u.rest
}

func joinHostPort(host, port string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}

// isScheme: RFC 3986 scheme characters, starting with a letter.
func isScheme(s string) bool {
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// isSCPLike is git's url_is_local_not_ssh negated: a colon, and no slash
// before it (and, on Windows, not a drive letter "C:…").
func isSCPLike(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return false
	}
	if slash := strings.IndexByte(s, '/'); slash >= 0 && slash < colon {
		return false
	}
	if runtime.GOOS == "windows" && colon == 1 && unicode.IsLetter(rune(s[0])) {
		return false
	}
	return true
}

func parseSCP(raw, s string) (CloneURL, error) {
	bad := func(why string) (CloneURL, error) { return CloneURL{}, &CloneURLError{Raw: raw, Why: why} }
	var hostPart, path string
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || len(s) <= end+1 || s[end+1] != ':' {
			return bad("a '[' host needs its ']' followed by ':path'")
		}
		hostPart, path = s[1:end], s[end+2:]
	} else {
		i := strings.IndexByte(s, ':')
		hostPart, path = s[:i], s[i+1:]
	}
	u := CloneURL{Raw: raw, Form: FormSCP, Scheme: "ssh"}
	if at := strings.LastIndexByte(hostPart, '@'); at >= 0 {
		u.User, hostPart = hostPart[:at], hostPart[at+1:]
		if u.User == "" {
			return bad("the user before '@' is empty")
		}
	}
	if strings.HasPrefix(s, "[") && strings.Count(hostPart, ":") == 1 {
		// [host:port]:path
		i := strings.IndexByte(hostPart, ':')
		hostPart, u.Port = hostPart[:i], hostPart[i+1:]
		if !isPort(u.Port) {
			return bad(fmt.Sprintf("the port %q is not a number", u.Port))
		}
	}
	u.Host = hostPart
	if err := checkHost(u.Host); err != "" {
		return bad(err)
	}
	if path == "" {
		return bad("the path after ':' is empty")
	}
	// scp-like paths are relative to the login directory; GitHub and the
	// like serve the same repository at ssh://host/path, which is what
	// everybody writes, so "o/r.git" becomes "/o/r.git".
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	u.Path = path
	return u, nil
}

func parseURLForm(raw, s string) (CloneURL, error) {
	bad := func(why string) (CloneURL, error) { return CloneURL{}, &CloneURLError{Raw: raw, Why: why} }
	i := strings.Index(s, "://")
	scheme := strings.ToLower(s[:i])
	switch scheme {
	case "git+ssh", "ssh+git":
		scheme = "ssh"
	case "ssh", "git", "http", "https", "file":
	default:
		return bad(fmt.Sprintf("roster fetches from ssh://, git://, http(s)://, file:// and scp-like host:path URLs, not %s://", scheme))
	}
	u := CloneURL{Raw: raw, Form: FormURL, Scheme: scheme}
	if scheme == "file" {
		// git takes everything after file:// as the path (percent-decoded);
		// file://localhost/p is not special to git either, so only an
		// empty host is a path roster can name.
		rest := s[i+3:]
		if !strings.HasPrefix(rest, "/") {
			return bad("a file:// URL needs an absolute path (file:///path)")
		}
		p, err := url.PathUnescape(rest)
		if err != nil {
			return bad("its path has a bad %-escape")
		}
		u.Path = p
		return u, nil
	}
	v, err := url.Parse(scheme + s[i:])
	if err != nil {
		return bad(strings.TrimPrefix(err.Error(), "parse "))
	}
	if v.User != nil {
		u.User = v.User.Username()
		if pw, has := v.User.Password(); has {
			if scheme == "ssh" || scheme == "git" {
				return bad("an ssh:// or git:// URL cannot carry a password")
			}
			u.password = &pw
		}
	}
	u.Host, u.Port = v.Hostname(), v.Port()
	if err := checkHost(u.Host); err != "" {
		return bad(err)
	}
	if strings.HasSuffix(v.Host, ":") || (u.Port != "" && !isPort(u.Port)) {
		return bad("its port is empty or not a number")
	}
	u.Path = v.Path
	if u.Path == "" || u.Path == "/" {
		if scheme == "ssh" || scheme == "git" {
			return bad("it names no repository path")
		}
	}
	if scheme == "http" || scheme == "https" {
		if v.RawQuery != "" || v.ForceQuery {
			u.rest = "?" + v.RawQuery
		}
		if v.Fragment != "" {
			u.rest += "#" + v.EscapedFragment()
		}
	}
	return u, nil
}

func checkHost(h string) string {
	switch {
	case h == "":
		return "it names no host"
	case strings.HasPrefix(h, "-"):
		// git refuses these too: ssh would read them as options.
		return fmt.Sprintf("the host %q starts with '-'", h)
	case strings.ContainsAny(h, " /\\@[]"):
		return fmt.Sprintf("the host %q contains a character hosts cannot have", h)
	}
	return ""
}

func isPort(p string) bool {
	if p == "" || len(p) > 5 {
		return false
	}
	for _, r := range p {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
