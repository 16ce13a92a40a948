package devrelay

import "net"

// DropConnections breaks every open connection (no CLOSE, no close frame:
// the TCP connection goes, as when a relay restarts or a network path
// fails) while the relay keeps listening, so clients can reconnect at
// once. It reports how many connections it broke.
func (r *Relay) DropConnections() int {
	r.mu.Lock()
	conns := make([]net.Conn, 0, len(r.rawConns))
	for c := range r.rawConns {
		conns = append(conns, c)
	}
	r.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
	return len(conns)
}
