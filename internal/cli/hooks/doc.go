// Package hooks holds `roster hooks`: the Git hooks roster installs and the
// pre-push guard they run.
package hooks
