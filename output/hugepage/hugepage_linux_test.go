package hugepage

import (
	"syscall"
	"testing"
	"unsafe"
)

// BenchmarkFreshBuffer shows what a large buffer (a whole answer, the
// output made from it) costs before a byte is in it: faulting in 32 MB of
// fresh memory, in 4-KiB pages and with the huge pages Advise asks for.
// Each round maps new memory, as a new process does; on a virtual machine a
// 4-KiB fault can cost more than receiving its bytes. Compare the two ns/op
// figures with each other.
func BenchmarkFreshBuffer(b *testing.B) {
	const size = 32 << 20
	for _, c := range []struct {
		name string
		huge bool
	}{{"4KiB-pages", false}, {"huge-pages", true}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				m, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
				if err != nil {
					b.Fatal(err)
				}
				if c.huge {
					Advise(m)
				}
				for i := 0; i < len(m); i += 4096 {
					m[i] = 1
				}
				if err := syscall.Munmap(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Alloc's buffer starts on a huge-page boundary, so that huge pages back it
// from its first byte, and has exactly the room asked for.
func TestAllocStartsOnAHugePageBoundary(t *testing.T) {
	for _, n := range []int{1, Size - 1, Size, 3*Size + 5} {
		b := Alloc(n)
		if len(b) != 0 || cap(b) != n {
			t.Fatalf("Alloc(%d): len %d, cap %d", n, len(b), cap(b))
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); p%Size != 0 {
			t.Fatalf("Alloc(%d) starts at %#x, not on a %d-byte boundary", n, p, Size)
		}
	}
}
