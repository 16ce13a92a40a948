// Package signrules holds no code: its test finds every place the module's
// non-test code signs a Nostr event (a call of SignEvent or of an event's
// or a signing function's Sign, or SignEvent taken as a function value) and
// fails when one is not in its table of allowed call sites: each signs a
// write that the journal of unfinished writes keeps from before the first
// relay is sent the event until it is verified (and the test checks that
// the function named for it keeps it, through journal/track), or is an
// exception with its reason (a NIP-42 AUTH event, a NIP-46 request, a
// relay's own events, a signer's implementation), or, until it is, names
// who journals it. So a new signing path cannot skip the journal unseen.
package signrules
