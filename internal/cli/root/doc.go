// Package root runs a command tree: it builds the root command over a
// Tree of command groups (it knows no noun itself; roster's whole list is
// internal/cli/commands.All), checks the global settings before a command
// runs, and maps its outcome to an exit code.
package root
