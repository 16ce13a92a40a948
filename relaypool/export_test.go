package relaypool

// PeakConcurrency is the most relays p has talked to at once.
func PeakConcurrency(p *Pool) int { return int(p.peak.Load()) }
