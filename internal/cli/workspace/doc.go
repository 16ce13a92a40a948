// Package workspace holds `roster workspace` (NIP-SW): create, import,
// show, list, sections and revocation.
package workspace
