package announce

import (
	"errors"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/gitstate"
)

// CloneURLsToWrite is what an announcement's clone tag carries for urls:
// each parsed the way git parses it (gitstate.ParseCloneURL) and written as
// the URL other people fetch from. scp-like "git@host:o/r.git" becomes
// "ssh://git@host/o/r.git". A local path is a URL nobody else can fetch
// from: written as file://<absolute path> only when the user gave it
// explicitly (--clone), refused otherwise (origin's URL taken by default),
// with the fix. A string git cannot clone from is refused; an empty one
// is skipped. Duplicates after normalization are dropped.
func CloneURLsToWrite(urls []string, explicit bool) ([]string, error) {
	out := []string{}
	for _, raw := range urls {
		if strings.TrimSpace(raw) == "" {
			continue // --clone "": no clone URL
		}
		u, err := gitstate.ParseCloneURL(raw)
		if err != nil {
			var ce *gitstate.CloneURLError
			if errors.As(err, &ce) {
				return nil, fmt.Errorf("clone URL %s; give one other people can fetch from, e.g. --clone https://git.example/<repo>.git", err)
			}
			return nil, err
		}
		if u.Form == gitstate.FormPath && !explicit {
			return nil, &LocalCloneError{URL: raw}
		}
		s := u.String()
		if u.Form == gitstate.FormURL {
			s = strings.TrimSpace(raw) // a URL is written as given: it already says where to fetch
		}
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out, nil
}

// LocalCloneError is origin's URL as a local path, which init does not
// announce by default: nobody else can fetch from a path on this machine.
type LocalCloneError struct{ URL string }

func (e *LocalCloneError) Error() string {
	return fmt.Sprintf("origin's URL %q is a path on this machine, which nobody else can clone from, so repo init will not announce it; "+
		"name the Git server people clone from with --clone https://… (or pass the path with --clone to announce it as file://)", e.URL)
}
