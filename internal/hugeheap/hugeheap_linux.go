package hugeheap

import (
	"syscall"
	"unsafe"
)

const (
	madvHugepage = 14 // MADV_HUGEPAGE
	madvCollapse = 25 // MADV_COLLAPSE (Linux 6.1)

	hugePage = 2 << 20
	// arenaBytes is the Go heap's arena on 64-bit Linux: arenas are
	// aligned to it, and the heap of a starting process is in one. On
	// 32-bit systems arenas are smaller and nothing is asked.
	arenaBytes = 64 << 20
	is64bit    = unsafe.Sizeof(uintptr(0)) == 8

	modeFile = "/sys/kernel/mm/transparent_hugepage/enabled"
)

// outcome is what init did, for the tests.
type outcome struct {
	mode      string        // the system's mode, "" when it has none
	optedOut  bool          // GODEBUG=disablethp=1
	advised   bool          // MADV_HUGEPAGE was asked for
	adviceErr syscall.Errno // its answer (the advice holds for every mapping in the range even when it is ENOMEM)
	collapsed int           // regions collapsed into a huge page
	refused   syscall.Errno // the last MADV_COLLAPSE refusal, if any
	arena     uintptr       // the start of the arena advised
}

var (
	done outcome
	// probe is a heap object whose address names the arena.
	probe *[16]byte
	// resident is mincore's answer for one region; a global, so reading it
	// touches no new heap page.
	resident [hugePage / 4096]byte
)

func init() {
	done.mode = systemMode()
	godebug, _ := syscall.Getenv("GODEBUG")
	done.optedOut = disablesTHP(godebug)
	if !asks(done) {
		return
	}
	probe = new([16]byte)
	done.arena = uintptr(unsafe.Pointer(probe)) &^ (arenaBytes - 1)
	advise()
}

// asks says whether init asks for huge pages: on 64-bit Linux where the
// system waits to be asked, unless GODEBUG turned them off.
func asks(o outcome) bool {
	return is64bit && o.mode == "madvise" && !o.optedOut
}

// advise marks the arena MADV_HUGEPAGE and collapses the touched regions
// around the probe's: the heap grows from its base upwards, so the touched
// regions are the run that holds the probe.
func advise() {
	done.advised = true
	done.adviceErr = madvise(done.arena, arenaBytes, madvHugepage)
	at := uintptr(unsafe.Pointer(probe)) &^ (hugePage - 1)
	for r := at; r >= done.arena && touched(r); r -= hugePage {
		collapse(r)
	}
	for r := at + hugePage; r < done.arena+arenaBytes && touched(r); r += hugePage {
		collapse(r)
	}
}

// collapse asks for the region at r to become one huge page, twice if the
// kernel was busy (EAGAIN). A kernel before 6.1 answers EINVAL; the heap
// then keeps its small pages.
func collapse(r uintptr) {
	e := madvise(r, hugePage, madvCollapse)
	if e == syscall.EAGAIN {
		e = madvise(r, hugePage, madvCollapse)
	}
	if e != 0 {
		done.refused = e
		return
	}
	done.collapsed++
}

func madvise(addr, n uintptr, advice int) syscall.Errno {
	_, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, n, uintptr(advice))
	return e
}

// touched says whether any page of the region at r is resident; a region
// that is not mapped at all is not.
func touched(r uintptr) bool {
	_, _, e := syscall.Syscall(syscall.SYS_MINCORE, r, hugePage, uintptr(unsafe.Pointer(&resident[0])))
	if e != 0 {
		return false
	}
	for _, b := range resident {
		if b&1 != 0 {
			return true
		}
	}
	return false
}

// systemMode reads the bracketed word of the kernel's transparent huge
// page mode ("always [madvise] never"); "" when there is none.
func systemMode() string {
	fd, err := syscall.Open(modeFile, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return ""
	}
	defer syscall.Close(fd)
	var buf [128]byte
	n, err := syscall.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return ""
	}
	return bracketed(string(buf[:n]))
}
