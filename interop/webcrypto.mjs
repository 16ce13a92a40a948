// Node 18 (Debian bookworm's nodejs) has no global `crypto`; nostr-tools'
// hashing and signing libraries read it when they load. Imported first.
import { webcrypto } from 'node:crypto';

if (!globalThis.crypto) globalThis.crypto = webcrypto;
