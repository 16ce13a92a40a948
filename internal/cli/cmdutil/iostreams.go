package cmdutil

import (
	"io"
	"os"
	"time"

	"github.com/roster-cli/roster/internal/termui"
	"golang.org/x/term"
)

// IoStreams is everything a command touches outside its arguments. Tests build
// one with buffers and a fixed environment; main uses the process's own.
type IoStreams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// Getenv reads the environment (tests pass a map).
	Getenv func(string) string
	// Now is the clock; graph and preflight receive its value, never call it.
	Now func() time.Time
	// Dir is the working directory used for Git discovery ("" = process cwd).
	Dir string
	// TTY reports whether stdout/stderr are terminals (styling, progress).
	OutTTY, ErrTTY, InTTY bool
	// Columns is stdout's terminal width (0 when unknown); $COLUMNS wins.
	Columns int
}

func NewSystemIO() *IoStreams {
	return &IoStreams{
		In:     os.Stdin,
		Out:    os.Stdout,
		Err:    os.Stderr,
		Getenv: os.Getenv,
		Now:    time.Now,
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		Columns: func() int {
			w, _, err := term.GetSize(int(os.Stdout.Fd()))
			if err != nil {
				return 0
			}
			return w
		}(),
	}
}

// Color reports whether styled output is wanted on stdout: NO_COLOR,
// CLICOLOR, CLICOLOR_FORCE and TERM=dumb as termui.ColorWanted reads them
// (roster help environment).
func (s *IoStreams) Color() bool { return termui.ColorWanted(s.OutTTY, s.Getenv) }

// progress reports whether the self-erasing progress line may be drawn on
// stderr: a terminal that is not TERM=dumb.
func (s *IoStreams) progress() bool { return s.ErrTTY && !termui.Dumb(s.Getenv) }
