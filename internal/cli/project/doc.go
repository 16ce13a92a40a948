// Package project holds `roster project` (NIP-PC): create, show, list,
// update, relate and delete.
package project
