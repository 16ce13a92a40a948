// Package dev holds `roster dev relay`, an embedded relay with seeded
// scenes for trying roster and for tests.
package dev
