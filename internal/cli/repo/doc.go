// Package repo holds `roster repo` and the reads beside it (graph,
// history): loading the repository view from the relays and the cache, the
// selection of the repository and its relays, and the human and JSON views.
// The writes (repo/change), health, state and check-event import it, never
// the other way round.
package repo
