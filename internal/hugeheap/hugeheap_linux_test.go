package hugeheap

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// reportEnv makes a test binary print what init did and exit, so a test
// can see init run under another environment.
const reportEnv = "HUGEHEAP_TEST_REPORT"

func TestMain(m *testing.M) {
	if os.Getenv(reportEnv) == "1" {
		fmt.Printf("mode=%s optedOut=%t advised=%t collapsed=%d\n", done.mode, done.optedOut, done.advised, done.collapsed)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Rule (package doc): where the kernel gives huge pages only to programs
// that ask, the arena the heap starts in is advised MADV_HUGEPAGE, and a
// region the runtime had touched and the kernel collapsed is one huge
// page; anywhere else nothing is asked.
func TestTheStartingHeapIsAdvisedOnlyWhereTheSystemWaitsToBeAsked(t *testing.T) {
	mode := systemMode()
	if mode != done.mode {
		t.Fatalf("init read mode %q, the system says %q", done.mode, mode)
	}
	if !asks(done) {
		if done.advised || done.collapsed != 0 {
			t.Fatalf("mode %q (opted out: %t): init advised %t and collapsed %d regions, want nothing", mode, done.optedOut, done.advised, done.collapsed)
		}
		return
	}
	if !done.advised || done.arena == 0 {
		t.Fatalf("mode madvise: init did not advise the heap arena: %+v", done)
	}
	at := uintptr(unsafe.Pointer(probe))
	vmas := readSmaps(t)
	v, ok := vmaHolding(vmas, at)
	if !ok {
		t.Fatalf("no mapping holds the heap object at %#x", at)
	}
	if !v.flags["hg"] {
		t.Errorf("the heap mapping %#x-%#x holding %#x lacks the huge page advice (VmFlags %v)", v.start, v.end, at, v.flags)
	}
	if done.collapsed == 0 {
		// The kernel may refuse (no free huge page, or before 6.1); say so.
		t.Logf("no region collapsed (last refusal: %v)", done.refused)
		return
	}
	huge := 0
	for _, v := range vmas {
		if v.start >= done.arena && v.end <= done.arena+arenaBytes {
			huge += v.anonHugeKB
		}
	}
	if huge < hugePage>>10 {
		t.Errorf("init collapsed %d regions, but the arena holds %d kB of huge pages", done.collapsed, huge)
	}
}

// Rule (package doc): GODEBUG=disablethp=1, the runtime's own switch for
// huge pages, turns roster's request off too.
func TestDisablethpTurnsTheRequestOff(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), reportEnv+"=1", "GODEBUG=disablethp=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := strings.TrimSpace(string(out))
	want := fmt.Sprintf("mode=%s optedOut=true advised=false collapsed=0", systemMode())
	if got != want {
		t.Fatalf("under GODEBUG=disablethp=1 init reported %q, want %q", got, want)
	}
}

type vma struct {
	start, end uintptr
	flags      map[string]bool
	anonHugeKB int
}

func vmaHolding(vmas []vma, at uintptr) (vma, bool) {
	for _, v := range vmas {
		if v.start <= at && at < v.end {
			return v, true
		}
	}
	return vma{}, false
}

func readSmaps(t *testing.T) []vma {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vmas []vma
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if rng := strings.SplitN(fields[0], "-", 2); len(rng) == 2 && !strings.HasSuffix(fields[0], ":") {
			s, err1 := strconv.ParseUint(rng[0], 16, 64)
			e, err2 := strconv.ParseUint(rng[1], 16, 64)
			if err1 == nil && err2 == nil {
				vmas = append(vmas, vma{start: uintptr(s), end: uintptr(e), flags: map[string]bool{}})
				continue
			}
		}
		if len(vmas) == 0 {
			continue
		}
		cur := &vmas[len(vmas)-1]
		switch fields[0] {
		case "VmFlags:":
			for _, fl := range fields[1:] {
				cur.flags[fl] = true
			}
		case "AnonHugePages:":
			if len(fields) >= 2 {
				cur.anonHugeKB, _ = strconv.Atoi(fields[1])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vmas
}
