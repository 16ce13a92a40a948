// Package help holds the help topics and `roster version`.
package help
