package main

import (
	"fmt"
	"io"
	"sync"
)

// relayProgress is the "reading relays" indicator: one self-overwriting line
// on stderr, only when stderr is a terminal, erased when discovery ends so
// it never mixes with output. Relays report from several goroutines.
type relayProgress struct {
	w    io.Writer
	on   bool
	mu   sync.Mutex
	base int // relays finished in earlier rounds
	last int // total of the current round
}

func newRelayProgress(w io.Writer, tty bool) *relayProgress {
	p := &relayProgress{w: w, on: tty}
	if tty {
		fmt.Fprint(w, "\rreading relays...")
	}
	return p
}

// update is relaypool's Progress callback.
func (p *relayProgress) update(done, total int) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = total
	// "done", not "answered": relaypool counts a relay that failed or timed
	// out as finished, and roster never calls a silent relay an answer.
	fmt.Fprintf(p.w, "\r\x1b[Kreading relays: %d of %d done", p.base+done, p.base+total)
}

// nextRound starts counting a follow-up round after the finished one.
func (p *relayProgress) nextRound() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.base += p.last
	p.last = 0
}

// done erases the indicator line.
func (p *relayProgress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
