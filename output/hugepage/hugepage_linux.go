// Package hugepage asks the kernel to back large buffers with transparent
// huge pages.
package hugepage

import (
	"syscall"
	"unsafe"
)

// Worth is the buffer size from which huge pages pay: below it a buffer
// takes a few hundred page faults at most.
const Worth = 4 << 20

// Size is the size of a huge page on x86-64 and arm64 with 4-KiB pages.
const Size = 2 << 20

// Alloc returns an empty buffer with room for n bytes, backed by huge
// pages from its first byte to its last: it starts on a huge-page boundary
// and is advised up to the next one after n. Memory from a plain make
// starts anywhere, so a few MB at each end of it would fault in 4-KiB
// pages. Only the pages written to take memory.
func Alloc(n int) []byte {
	whole := (n + Size - 1) / Size * Size
	b := make([]byte, whole+Size)
	off := (Size - int(uintptr(unsafe.Pointer(unsafe.SliceData(b)))%Size)) % Size
	Advise(b[off : off+whole])
	return b[off : off : off+n]
}

// Advise asks the kernel to back b with transparent huge pages, before
// anything is written to it. Where THP is left to madvise (a common
// default), a 32 MB buffer otherwise faults in 8,000 4-KiB pages, which on a
// virtual machine can take longer than receiving the bytes; with huge pages
// it takes 16 faults. The advice is only advice: an error changes nothing.
func Advise(b []byte) {
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
