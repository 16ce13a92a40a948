//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPty opens a pseudo-terminal pair with plain syscalls (no pty library
// in go.mod): the master is the user's side, the slave is roster's stdin.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pts: %v", err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

// Issue 4: `login --nsec` reads the key "from a no-echo prompt" on a
// terminal. The key typed on a real pseudo-terminal is accepted and the
// terminal never echoes it back.
func TestLoginNsecPromptOnATerminalDoesNotEcho(t *testing.T) {
	signerTestKeyring(t)
	k := newTestKey(t)
	env := homeEnv(t)
	master, slave := openPty(t)
	var out, errb bytes.Buffer
	s := &ioStreams{In: slave, Out: &out, Err: &errb, InTTY: true,
		Getenv: func(key string) string { return env[key] }, Now: time.Now}
	done := make(chan int, 1)
	go func() { done <- run([]string{"login", "--nsec"}, s) }()

	// Type only once the terminal's echo is off (observable state, not a sleep).
	deadline := time.Now().Add(10 * time.Second)
	for {
		tio, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if tio.Lflag&unix.ECHO == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("roster never turned the terminal's echo off")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := master.Write([]byte(k.nsec + "\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(out.String(), k.npub) || !strings.Contains(errb.String(), "nsec or hex secret key: ") {
			t.Fatalf("exit %d out %q err %q", code, out.String(), errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("login did not finish")
	}
	t.Cleanup(func() { invocation{Env: env}.roster(t, "logout") })

	// Everything the terminal showed the user arrives before this marker.
	if _, err := slave.Write([]byte("END-OF-SESSION\n")); err != nil {
		t.Fatal(err)
	}
	shownc := make(chan string, 1)
	go func() {
		var shown strings.Builder
		br := bufio.NewReader(master)
		for !strings.Contains(shown.String(), "END-OF-SESSION") {
			line, err := br.ReadString('\n')
			shown.WriteString(line)
			if err != nil {
				break
			}
		}
		shownc <- shown.String()
	}()
	var shown string
	select {
	case shown = <-shownc:
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal output never reached the end marker")
	}
	if strings.Contains(shown, k.nsec) || strings.Contains(shown, k.nsec[:20]) {
		t.Fatalf("the terminal echoed the secret: %q", shown)
	}
}
