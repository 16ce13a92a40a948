package gitstate

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// brokenAfter yields s, then fails as a truncated zlib stream does.
type brokenAfter struct{ r io.Reader }

func (b brokenAfter) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

// Rule (a read that could not be made is a failure, not a pass): a commit
// whose stored stream breaks off at a line boundary is an error, not a
// header that ended there; else a lost parent line would make a non-root
// commit the repository's root.
func TestACommitStreamBrokenAtALineBoundaryIsAnError(t *testing.T) {
	var parents []string
	each := func(k, v string) {
		if k == "parent" {
			parents = append(parents, v)
		}
	}
	broken := brokenAfter{strings.NewReader("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n")}
	if err := readHeader(broken, each); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a broken stream read as %v, want io.ErrUnexpectedEOF", err)
	}
	parents = nil
	whole := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent 1111111111111111111111111111111111111111\nauthor a <a@x> 1 +0000\n\nmessage\n"
	if err := readHeader(strings.NewReader(whole), each); err != nil || len(parents) != 1 {
		t.Fatalf("a whole commit: err %v, parents %v", err, parents)
	}
	if err := readHeader(strings.NewReader("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent 1111111111111111111111111111111111111111"), each); err != nil {
		t.Fatalf("a header ending at the object's end: %v", err)
	}
}
