package clitest

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// OpenPty opens a pseudo-terminal pair with plain syscalls (no pty library
// in go.mod): the master is the user's side, the slave is roster's stdin.
func OpenPty(t *testing.T) (master, slave *os.File) {
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

// TypeAtPrompt waits until stderr has shown prompt n times and the terminal's
// echo is off (the prompt's own read has begun; observable state, never a
// sleep), then types line on the user's side of the terminal.
func TypeAtPrompt(t *testing.T, master, slave *os.File, errb *SyncBuffer, prompt string, n int, line string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		tio, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(errb.String(), prompt) >= n && tio.Lflag&unix.ECHO == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no no-echo read after prompt %q #%d; stderr so far %q", prompt, n, errb.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := master.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
}

// TerminalShows returns everything the terminal displayed to the user.
func TerminalShows(t *testing.T, master, slave *os.File) string {
	t.Helper()
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
	select {
	case s := <-shownc:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal output never reached the end marker")
		return ""
	}
}
