package devrelay

import (
	"io"
	"net"
	"syscall"
)

// holdPort binds a socket to addr (the stopped relay's host:port) without
// listening on it, so the port stays the relay's while it is stopped: the
// kernel does not give a port some socket is bound to to a listener that
// asks for any free one (a parallel test's relay), and a connection to it
// is refused, as to a relay that is down. SO_REUSEADDR lets the bind
// succeed beside the connections the stop just closed (TIME_WAIT) and lets
// Start listen there again. Best effort: nil when the bind fails.
func holdPort(addr string) io.Closer {
	tcp, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil
	}
	var sa syscall.Sockaddr
	family := syscall.AF_INET
	if ip4 := tcp.IP.To4(); ip4 != nil {
		a := &syscall.SockaddrInet4{Port: tcp.Port}
		copy(a.Addr[:], ip4)
		sa = a
	} else if ip6 := tcp.IP.To16(); ip6 != nil {
		a := &syscall.SockaddrInet6{Port: tcp.Port}
		copy(a.Addr[:], ip6)
		sa, family = a, syscall.AF_INET6
	} else {
		return nil
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	if syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1) != nil || syscall.Bind(fd, sa) != nil {
		_ = syscall.Close(fd)
		return nil
	}
	return heldPort(fd)
}

type heldPort int

func (fd heldPort) Close() error { return syscall.Close(int(fd)) }
