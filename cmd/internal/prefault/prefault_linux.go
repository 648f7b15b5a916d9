// Package prefault maps all of orgctl's machine code into the process
// with one system call, as soon as the runtime lets a package run code.
//
// Otherwise the code is mapped in page by page, at the first call into
// each stretch of it, and most of a command's start-up goes to those page
// faults: package initialisation alone calls into most of a binary this
// size, and on virtual machines each fault costs tens of microseconds.
// Mapping pages already in the page cache takes no memory beyond page
// tables; the code pages count in RSS once mapped.
package prefault

import "syscall"

// madvPopulateRead (Linux 5.14) faults pages in without writing them.
const madvPopulateRead = 22

// Err is what the kernel said to populating the code: nil when it is all
// mapped, or why not (an older kernel says EINVAL; start-up is then as
// it was).
var Err error

func init() { Err = populateCode() }

// populateCode finds the executable's code in /proc/self/maps and
// populates it. It uses syscall alone, so that it runs before most other
// packages' initialisation.
func populateCode() error {
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	var buf [4096]byte // the executable's mappings come first
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil {
		return err
	}
	lo, hi, err := codeMapping(buf[:n])
	if err != nil {
		return err
	}
	return populate(lo, hi)
}

// codeMapping returns the executable's code mapping in maps: the first
// mapping is the executable's own, and its code mapping has the same path.
func codeMapping(maps []byte) (lo, hi uintptr, err error) {
	var exe string
	for rest := maps; len(rest) > 0; {
		i := indexByte(rest, '\n')
		if i < 0 {
			break // a line cut by the buffer's end
		}
		line := rest[:i]
		rest = rest[i+1:]
		m, ok := parseMapping(line)
		if !ok {
			continue
		}
		if exe == "" {
			if m.path == "" || m.path[0] != '/' {
				return 0, 0, syscall.ENOENT
			}
			exe = m.path
		}
		if m.path == exe && m.perms == "r-xp" {
			return m.lo, m.hi, nil
		}
	}
	return 0, 0, syscall.ENOENT
}

// populate maps in the pages from lo to hi.
func populate(lo, hi uintptr) error {
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvPopulateRead); e != 0 {
		return e
	}
	return nil
}

type mapping struct {
	lo, hi uintptr
	perms  string
	path   string
}

// parseMapping reads a line of /proc/self/maps:
// "00400000-00af5000 r-xp 00000000 fd:01 1234       /usr/bin/orgctl".
func parseMapping(line []byte) (mapping, bool) {
	var m mapping
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
		return m, false
	}
	dash := indexByte(fields[0], '-')
	if dash < 0 {
		return m, false
	}
	var ok1, ok2 bool
	m.lo, ok1 = parseHex(fields[0][:dash])
	m.hi, ok2 = parseHex(fields[0][dash+1:])
	if !ok1 || !ok2 || m.hi <= m.lo {
		return m, false
	}
	m.perms = string(fields[1])
	m.path = string(fields[5])
	return m, true
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
