package termui

import (
	"fmt"
	"io"
	"sync"
)

// Progress is the "reading relays" indicator, or for a write the phase it
// is in ("publishing: 1 of 2 relays done"): one self-overwriting line on
// stderr, only when stderr is a terminal, erased when discovery (or the
// write) ends so it never mixes with output. Relays report from several
// goroutines.
type Progress struct {
	w     io.Writer
	on    bool
	mu    sync.Mutex
	base  int    // relays finished in earlier rounds
	last  int    // total of the current round
	phase string // what a write is doing ("publishing"); "" for a read
}

// NewProgress starts the indicator on w when tty is true (else it is silent).
func NewProgress(w io.Writer, tty bool) *Progress {
	p := &Progress{w: w, on: tty}
	if tty {
		fmt.Fprint(w, "\rreading relays...")
	}
	return p
}

// Update is relaypool's Progress callback.
func (p *Progress) Update(done, total int) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = total
	// "done", not "answered": relaypool counts a relay that failed or timed
	// out as finished, and roster never calls a silent relay an answer.
	if p.phase != "" {
		fmt.Fprintf(p.w, "\r\x1b[K%s: %d of %d relays done", p.phase, p.base+done, p.base+total)
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[Kreading relays: %d of %d done", p.base+done, p.base+total)
}

// Phase names what a write does now ("rechecking", "publishing") and
// starts counting its relays afresh; the line shows the phase at once.
func (p *Progress) Phase(name string) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase, p.base, p.last = name, 0, 0
	fmt.Fprintf(p.w, "\r\x1b[K%s...", name)
}

// NextRound starts counting a follow-up round after the finished one.
func (p *Progress) NextRound() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.base += p.last
	p.last = 0
}

// Done erases the indicator line.
func (p *Progress) Done() {
	if p.on {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
