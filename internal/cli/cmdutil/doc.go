// Package cmdutil is what every roster command shares: the Factory (one
// invocation's streams, settings, directories, signer, relay pool and cache),
// the exit errors and their codes, JSON writing, and the completion values.
// It imports no other package of the command line.
package cmdutil
