//go:build linux

package main

// Helpers that drive roster's no-echo prompts on a real pseudo-terminal.
