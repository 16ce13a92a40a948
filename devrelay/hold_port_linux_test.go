package devrelay

import (
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Rule (a stopped relay's port stays its own): while a relay is stopped
// its port refuses connections, as a relay that is down does, and is bound
// by the relay alone, so the kernel gives it to no other listener asking
// for any free port (a parallel test's relay); Start serves on it again.
// Without this a test that stops a relay to see a refusal can reach
// another test's relay instead.
func TestAStoppedRelayKeepsItsPort(t *testing.T) {
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	hostport := strings.TrimPrefix(r.URL(), "ws://")
	r.Stop()

	if c, err := net.DialTimeout("tcp", hostport, 2*time.Second); err == nil {
		c.Close()
		t.Fatalf("a stopped relay's port %s accepted a connection", hostport)
	} else if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("connecting to a stopped relay's port: %v, want connection refused", err)
	}
	if err := bindOnly(t, hostport); !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("binding the stopped relay's port %s: %v, want it in use (held by the relay)", hostport, err)
	}

	if err := r.Start(); err != nil {
		t.Fatalf("start again: %v", err)
	}
	if got := strings.TrimPrefix(r.URL(), "ws://"); got != hostport {
		t.Fatalf("started again on %s, want %s", got, hostport)
	}
	c, err := net.DialTimeout("tcp", hostport, 2*time.Second)
	if err != nil {
		t.Fatalf("the relay started again refuses: %v", err)
	}
	c.Close()
}

// bindOnly binds a fresh socket (without SO_REUSEADDR) to hostport and
// closes it: what the kernel answers is whether the port is free.
func bindOnly(t *testing.T, hostport string) error {
	t.Helper()
	addr, err := net.ResolveTCPAddr("tcp4", hostport)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	sa := &syscall.SockaddrInet4{Port: addr.Port}
	copy(sa.Addr[:], addr.IP.To4())
	return syscall.Bind(fd, sa)
}
