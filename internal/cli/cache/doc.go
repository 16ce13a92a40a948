// Package cache holds `roster cache`: what the local cache keeps and how
// to clear it.
package cache
