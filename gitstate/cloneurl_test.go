package gitstate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every form git clones from parses, and normalizes to the URL other
// people fetch from: scp-like host:path is ssh://host/path.
func TestCloneURLFormsGitAcceptsNormalize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want, server string
		form             CloneForm
		local            bool
	}{
		{"git@github.com:o/r.git", "ssh://git@github.com/o/r.git", "github.com", FormSCP, false},
		{"  git@github.com:o/r.git\n", "ssh://git@github.com/o/r.git", "github.com", FormSCP, false},
		{"host.xz:/srv/r.git", "ssh://host.xz/srv/r.git", "host.xz", FormSCP, false},
		{"host.xz:~alice/r.git", "ssh://host.xz/~alice/r.git", "host.xz", FormSCP, false},
		{"[git@127.0.0.1:2222]:srv/r.git", "ssh://git@127.0.0.1:2222/srv/r.git", "127.0.0.1:2222", FormSCP, false},
		{"[::1]:r.git", "ssh://[::1]/r.git", "::1", FormSCP, false},
		{"ssh://git@github.com/o/r.git", "ssh://git@github.com/o/r.git", "github.com", FormURL, false},
		{"SSH://git@Example.org:2222/o/r.git", "ssh://git@Example.org:2222/o/r.git", "Example.org:2222", FormURL, false},
		{"git+ssh://h/o/r.git", "ssh://h/o/r.git", "h", FormURL, false},
		{"ssh+git://h/o/r.git", "ssh://h/o/r.git", "h", FormURL, false},
		{"ssh://[::1]:22/r.git", "ssh://[::1]:22/r.git", "[::1]:22", FormURL, false},
		{"git://127.0.0.1:9418/r.git", "git://127.0.0.1:9418/r.git", "127.0.0.1:9418", FormURL, false},
		{"https://github.com/o/r.git", "https://github.com/o/r.git", "github.com", FormURL, false},
		{"http://127.0.0.1:8080/git/r.git", "http://127.0.0.1:8080/git/r.git", "127.0.0.1:8080", FormURL, false},
		{"https://u:p@h/r.git", "https://u:p@h/r.git", "h", FormURL, false},
		{"https://h/r", "https://h/r", "h", FormURL, false},
		{"file:///srv/r.git", "file:///srv/r.git", "/srv/r.git", FormURL, true},
		{"file:///srv/a%20b.git", "file:///srv/a%20b.git", "/srv/a b.git", FormURL, true},
		{"/srv/r.git", "file:///srv/r.git", "/srv/r.git", FormPath, true},
		{"/srv/a:b.git", "file:///srv/a:b.git", "/srv/a:b.git", FormPath, true},
		{"./x:y", "", "./x:y", FormPath, true},
	}
	for _, c := range cases {
		u, err := ParseCloneURL(c.in)
		if err != nil {
			t.Errorf("ParseCloneURL(%q): %v", c.in, err)
			continue
		}
		if u.Form != c.form || u.Local() != c.local || u.Server() != c.server {
			t.Errorf("ParseCloneURL(%q) = form %s local %v server %q, want %s %v %q", c.in, u.Form, u.Local(), u.Server(), c.form, c.local, c.server)
		}
		if c.want == "" {
			continue
		}
		if got := u.String(); got != c.want {
			t.Errorf("ParseCloneURL(%q).String() = %q, want %q", c.in, got, c.want)
		}
		// Normalizing is idempotent: the normalized URL parses to itself.
		again, err := NormalizeCloneURL(c.want)
		if err != nil || again != c.want {
			t.Errorf("NormalizeCloneURL(%q) = %q, %v; want it unchanged", c.want, again, err)
		}
	}
}

// A relative path is a local path, made absolute against the working
// directory as git would.
func TestCloneURLRelativePathIsLocalAndAbsolute(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	got, err := NormalizeCloneURL("../r.git")
	if err != nil {
		t.Fatal(err)
	}
	if want := "file://" + filepath.ToSlash(filepath.Join(filepath.Dir(wd), "r.git")); got != want {
		t.Fatalf("NormalizeCloneURL(../r.git) = %q, want %q", got, want)
	}
}

// What names no Git server roster can ask is refused with the reason.
func TestCloneURLNamingNoGitServerIsRefused(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"", "   ", "nostr://npub1xyz/relay.example/r", "https::https://h/r", "ftp://h/r.git",
		"git@:o/r.git", "@h:r", "h:", "-oProxyCommand=x:r", "ssh://-oProxyCommand=x/r",
		"ssh://h", "git://h/", "ssh://u:pw@h/r", "https://h:/r", "ssh://h:port/r", "file://h/r",
		"git@github.com:o/r.git\x00", "[h:r",
	} {
		u, err := ParseCloneURL(in)
		var ce *CloneURLError
		if !errors.As(err, &ce) {
			t.Errorf("ParseCloneURL(%q) = %+v, %v; want a *CloneURLError", in, u, err)
		}
	}
}

// Whatever parses normalizes to a URL that parses to itself, of the same
// scheme, host and locality, and never to a host git would read as an
// ssh option.
func FuzzParseCloneURL(f *testing.F) {
	for _, s := range []string{"git@github.com:o/r.git", "ssh://h:22/r", "[u@h:2]:r", "file:///x", "/x/y", "x", "https://u:p@h/r?q#f", "h:~u/r", "git://h/r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		u, err := ParseCloneURL(in)
		if err != nil {
			return
		}
		if strings.HasPrefix(u.Host, "-") {
			t.Fatalf("%q: host %q", in, u.Host)
		}
		n := u.String()
		v, err := ParseCloneURL(n)
		if err != nil {
			t.Fatalf("%q normalized to %q, which does not parse: %v", in, n, err)
		}
		if v.String() != n || v.Scheme != u.Scheme || v.Local() != u.Local() || v.Host != u.Host {
			t.Fatalf("%q -> %q -> %+v", in, n, v)
		}
	})
}
