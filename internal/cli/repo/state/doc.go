// Package state holds `roster repo state` and `repo state publish`: the
// repository state (kind 30618) against the checkout and the Git servers.
package state
