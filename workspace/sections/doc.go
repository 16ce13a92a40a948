// Package sections is the client side of NIP-SW owner-scoped channel-section
// workspaces: the typed commands 9050–9054 with their tag grammar and
// validation rules, AES-256-GCM labels bound to their AAD, NIP-44 key
// envelopes, verification and revision rules of the relay's kind 30623
// projection, and migration from the legacy kind 30078
// d=channel-sections blob. The relay-side authority (devrelay/swrelay) reuses
// the same parsing and validation so both sides enforce one rule set.
//
// Session is the client pipeline on top: one owner's workspace on one relay
// (Sync, Load, Write, Import), with the relay access, publish function,
// signer, clock and cache passed in by the caller.
package sections
