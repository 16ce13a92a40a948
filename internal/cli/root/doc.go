// Package root builds roster's command tree from the packages of each noun,
// checks the global settings before a command runs, and maps its outcome to
// an exit code.
package root
