package client

import (
	"syscall"
	"unsafe"
)

// largeAnswer is the buffer size from which huge pages pay: below it the
// answer takes a few hundred page faults at most.
const largeAnswer = 4 << 20

// adviseHugePages asks the kernel to back b with transparent huge pages,
// before anything is written to it. Where THP is left to madvise (a common
// default), a 32 MB answer otherwise faults in 8,000 4-KiB pages, which on a
// virtual machine can take longer than receiving the bytes; with huge pages
// it takes 16 faults. The advice is only advice: an error changes nothing.
func adviseHugePages(b []byte) {
	const page = 4096
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	first := (page - int(start%page)) % page // madvise wants whole pages
	if first >= len(b) {
		return
	}
	n := (len(b) - first) &^ (page - 1)
	if n == 0 {
		return
	}
	_ = syscall.Madvise(b[first:first+n], syscall.MADV_HUGEPAGE)
}
