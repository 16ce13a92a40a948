// Package group holds `roster group` (NIP-29): show, members, list, mine
// and join.
package group
