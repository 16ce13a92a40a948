// Package health holds `roster repo health`: findings with who can act on
// them, --strict, and the CI formats.
package health
