package main

import (
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// ioStreams is everything a command touches outside its arguments. Tests build
// one with buffers and a fixed environment; main uses the process's own.
type ioStreams struct {
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
}

func newSystemIO() *ioStreams {
	return &ioStreams{
		In:     os.Stdin,
		Out:    os.Stdout,
		Err:    os.Stderr,
		Getenv: os.Getenv,
		Now:    time.Now,
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
	}
}

// color reports whether styled output is wanted on stdout.
func (s *ioStreams) color() bool {
	return s.OutTTY && s.Getenv("NO_COLOR") == ""
}
