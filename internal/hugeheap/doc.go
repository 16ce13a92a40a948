// Package hugeheap asks Linux to back the start of the Go heap with
// transparent huge pages, because on many machines first touching a page
// is most of what a short roster command costs.
//
// A warm `roster repo --offline --json` touches about 340 pages of heap,
// nearly all of it before main runs (the runtime, then every linked
// package's init), in two 2 MiB regions. Each first touch is a page fault;
// under a hypervisor that keeps shadow page tables one costs 11–13 µs, so
// the heap alone was 4 ms of a 22 ms command. Where the system hands out
// huge pages only to programs that ask (transparent_hugepage "madvise",
// the common default), this package asks: its init, which runs before the
// packages that allocate most (it imports only syscall and unsafe, and
// init order follows import paths), marks the heap arena MADV_HUGEPAGE so
// a region first touched later faults once, and collapses
// (MADV_COLLAPSE) the regions the runtime has already touched (the run of
// them around a fresh heap object: the heap grows from its base upwards)
// into huge pages, so the rest of them is never faulted. Heap the runtime
// maps after init, in chunks of 4 MiB, is not advised. docs/PERFORMANCE.md
// has the figures.
//
// It does nothing where the system already gives huge pages to everyone
// ("always"), gives none ("never"), or has none; nothing under
// GODEBUG=disablethp=1, the Go runtime's own switch for huge pages; and
// nothing but the advice on kernels older than 6.1, which have no
// MADV_COLLAPSE. Every failure is ignored: the heap then works as it
// would have. Only the arena in use at start is advised, at most 64 MiB
// of address space of which a command touches two regions, so a
// long-running `roster dev relay` keeps at most a few MiB more resident.
//
// cmd/roster imports it for its init alone.
package hugeheap
