// Package preflight is roster's pure write side for maintainer membership
// (maintainers.md "Membership mutation contract"): for one intent it turns the
// author's current kind 30617 announcement into its replacement, resolves the
// repository before and after with package graph, compares the two, and either
// returns a Plan the command may sign or a Refusal carrying the spec's
// explanation and recovery commands.
//
// It does no I/O and reads no clock: the events, the local refs and the time
// are parameters. Everything it changes is one relationship (plus, when the
// spec requires it, one explicit governance choice); every other tag, interval,
// unparseable record and unknown tag is preserved in order and the deprecated
// `maintainers` projection is recomputed from the active M and m records.
package preflight
