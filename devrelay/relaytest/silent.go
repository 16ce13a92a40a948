package relaytest

import (
	"net"
	"sync"
	"testing"
)

// SilentListener accepts TCP connections and never answers, so a websocket
// handshake to it never completes; it returns the ws:// URL. The listener
// and every connection it held close when the test ends.
func SilentListener(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return "ws://" + ln.Addr().String()
}
