//go:build !linux

package devrelay

import "io"

// holdPort holds nothing here: only Linux's bind rules are relied on
// (hold_port_linux.go), and roster's tests run there.
func holdPort(string) io.Closer { return nil }
