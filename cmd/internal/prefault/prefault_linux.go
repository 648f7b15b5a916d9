// Package prefault maps in, each with one system call, the memory that a
// command's start-up is about to touch: all of orgctl's machine code, and
// the next stretch of the heap. It runs as soon as the runtime lets a
// package run code.
//
// Otherwise each page is mapped in by a page fault at its first use, and
// most of a command's start-up goes to those faults: package
// initialisation alone calls into most of a binary this size and
// allocates about a megabyte, and on virtual machines each fault costs
// tens of microseconds. Code pages are in the page cache already: mapping
// them takes no memory beyond page tables, though they count in RSS once
// mapped.
package prefault

import (
	"syscall"
	"unsafe"
)

const (
	madvPopulateRead  = 22 // Linux 5.14: fault pages in without writing them
	madvPopulateWrite = 23 // the same, writable: anonymous pages are zeroed
)

// heapAhead is how much of the heap is populated: about what start-up
// allocates after this package's initialisation (the runtime hands out
// the lowest free pages first, so those come next), and what any command
// uses anyway.
const heapAhead = 1 << 20

// Err is what the kernel said to populating the code and the heap: nil
// when both are mapped, or why not (an older kernel says EINVAL; start-up
// is then as it was).
var Err error

// heapMark is an object on the heap, whose address says where the heap is.
var heapMark *[16]byte

func init() {
	heapMark = new([16]byte)
	Err = populateStart(uintptr(unsafe.Pointer(heapMark)))
}

// populateStart finds the executable's code and the heap at heapAt in
// /proc/self/maps and populates them. It uses syscall alone, so that it
// runs before most other packages' initialisation.
func populateStart(heapAt uintptr) error {
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	// The executable's mappings come first and the heap's soon after;
	// a read may return less than asked.
	var buf [16 << 10]byte
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err != nil {
			syscall.Close(fd)
			return err
		}
		if m == 0 {
			break
		}
		n += m
	}
	syscall.Close(fd)
	ms := parseMaps(buf[:n])
	code, ok := codeMapping(ms)
	if !ok {
		return syscall.ENOENT
	}
	if err := populate(code.lo, code.hi, madvPopulateRead); err != nil {
		return err
	}
	heap, ok := mappingAt(ms, heapAt)
	if !ok {
		return syscall.ENOENT
	}
	lo := heapAt &^ uintptr(syscall.Getpagesize()-1) // madvise takes whole pages
	return populate(lo, min(heap.hi, lo+heapAhead), madvPopulateWrite)
}

// parseMaps returns the mappings that whole lines of /proc/self/maps
// describe; a line cut by the buffer's end is left out. The first mapping
// is the executable's own: those of the same file are marked exe.
func parseMaps(maps []byte) []mapping {
	var ms []mapping
	var exe []byte
	for rest := maps; len(rest) > 0; {
		i := indexByte(rest, '\n')
		if i < 0 {
			break
		}
		m, path, ok := parseMapping(rest[:i])
		rest = rest[i+1:]
		if !ok {
			continue
		}
		if len(ms) == 0 && len(path) > 0 && path[0] == '/' {
			exe = path
		}
		m.exe = exe != nil && string(path) == string(exe)
		ms = append(ms, m)
	}
	return ms
}

// codeMapping returns the executable's code mapping.
func codeMapping(ms []mapping) (mapping, bool) {
	for _, m := range ms {
		if m.exe && m.code {
			return m, true
		}
	}
	return mapping{}, false
}

// mappingAt returns the mapping that holds addr.
func mappingAt(ms []mapping, addr uintptr) (mapping, bool) {
	for _, m := range ms {
		if m.lo <= addr && addr < m.hi {
			return m, true
		}
	}
	return mapping{}, false
}

// populate maps in the pages from lo to hi, as advice says.
func populate(lo, hi uintptr, advice int) error {
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, uintptr(advice)); e != 0 {
		return e
	}
	return nil
}

type mapping struct {
	lo, hi uintptr
	code   bool // readable and executable, private: "r-xp"
	exe    bool // of the executable's file (set by parseMaps)
}

// parseMapping reads a line of /proc/self/maps, returning the mapped
// file's path too (empty for anonymous memory):
// "00400000-00af5000 r-xp 00000000 fd:01 1234       /usr/bin/orgctl".
func parseMapping(line []byte) (m mapping, path []byte, ok bool) {
	fields := [6][]byte{}
	n := 0
	for i := 0; i < len(line) && n < 6; {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		if n == 5 {
			j = len(line) // the path may hold spaces
		}
		for j < len(line) && line[j] != ' ' {
			j++
		}
		fields[n] = line[i:j]
		n++
		i = j
	}
	if n < 5 {
		return m, nil, false
	}
	dash := indexByte(fields[0], '-')
	if dash < 0 {
		return m, nil, false
	}
	var ok1, ok2 bool
	m.lo, ok1 = parseHex(fields[0][:dash])
	m.hi, ok2 = parseHex(fields[0][dash+1:])
	if !ok1 || !ok2 || m.hi <= m.lo {
		return m, nil, false
	}
	m.code = string(fields[1]) == "r-xp"
	return m, fields[5], true
}

func parseHex(b []byte) (uintptr, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uintptr
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uintptr(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uintptr(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
