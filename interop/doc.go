// Package interop tests roster against software nobody here wrote:
// nostr-tools (signing, verification, NIP-19, NIP-44, NIP-49) and an
// independent relay (@nostr-relay/core with its SQLite event repository).
// Its tests build the roster binary once and run it as a separate process;
// the JavaScript side lives beside them (tools.mjs, relay.mjs) and is
// installed with `npm ci` here. See docs/interop.md.
package interop
