package client

import (
	"syscall"
	"testing"
)

// BenchmarkFreshAnswerBuffer shows what a whole-answer buffer costs before
// a byte arrives: faulting in 32 MB of fresh memory, in 4-KiB pages and
// with the huge pages adviseHugePages asks for. Each round maps new memory,
// as a new process does; on a virtual machine a 4-KiB fault can cost more
// than receiving its bytes. Compare the two ns/op figures with each other.
func BenchmarkFreshAnswerBuffer(b *testing.B) {
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
					adviseHugePages(m)
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
