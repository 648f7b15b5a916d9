//go:build !linux

// Package hugepage asks the kernel to back large buffers with transparent
// huge pages; elsewhere than Linux it does nothing.
package hugepage

// Worth is the buffer size from which huge pages pay: never, here.
const Worth = 1 << 62

// Advise does nothing: only Linux takes the advice.
func Advise([]byte) {}

// Alloc returns an empty buffer with room for n bytes.
func Alloc(n int) []byte { return make([]byte, 0, n) }
