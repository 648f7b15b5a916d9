package prefault

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

func skipWithoutPopulate(t *testing.T) {
	t.Helper()
	if errors.Is(Err, syscall.EINVAL) {
		t.Skip("this kernel cannot populate mappings (MADV_POPULATE_READ needs Linux 5.14)")
	}
}

// rss returns the kilobytes resident and mapped of the mapping starting at
// lo, from /proc/self/smaps.
func rss(t *testing.T, lo uintptr) (resident, size int) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if !strings.HasSuffix(fields[0], ":") {
			start, _, _ := strings.Cut(fields[0], "-")
			v, err := strconv.ParseUint(start, 16, 64)
			in = err == nil && uintptr(v) == lo
			continue
		}
		if !in || len(fields) < 2 {
			continue
		}
		kb, _ := strconv.Atoi(fields[1])
		switch fields[0] {
		case "Size:":
			size = kb
		case "Rss:":
			return kb, size
		}
	}
	t.Fatalf("no mapping at %#x in /proc/self/smaps", lo)
	return 0, 0
}

// populateWhole populates b, a fresh mapping of its own of 1 MiB, as
// advice says: none of it may be resident before, all of it after.
func populateWhole(t *testing.T, b []byte, advice int) {
	t.Helper()
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if resident, _ := rss(t, lo); resident != 0 {
		t.Fatalf("before populating: %d kB resident, want 0", resident)
	}
	if err := populate(lo, lo+uintptr(len(b)), advice); err != nil {
		t.Fatal(err)
	}
	if resident, size := rss(t, lo); resident != size || size != 1024 {
		t.Fatalf("after populating: %d kB resident of %d kB, want all of 1024", resident, size)
	}
}

// A file mapped and never read has nothing resident; populated, all of it.
func TestPopulateMapsAFileWhole(t *testing.T) {
	skipWithoutPopulate(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := syscall.Mmap(int(f.Fd()), 0, 1<<20, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(b)
	populateWhole(t, b, madvPopulateRead)
}

// Fresh anonymous memory has nothing resident; populated for writing,
// all of it, still zero.
func TestPopulateWriteMapsAnonymousMemoryWhole(t *testing.T) {
	skipWithoutPopulate(t)
	// The writable megabyte sits between inaccessible ones, so that the
	// kernel cannot merge it with a neighbouring mapping.
	whole, err := syscall.Mmap(-1, 0, 3<<20, syscall.PROT_NONE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(whole)
	b := whole[1<<20 : 2<<20]
	if err := syscall.Mprotect(b, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		t.Fatal(err)
	}
	populateWhole(t, b, madvPopulateWrite)
	for i, c := range b {
		if c != 0 {
			t.Fatalf("byte %d is %d after populating", i, c)
		}
	}
}

func TestMappingAt(t *testing.T) {
	const maps = "00400000-00af5000 r-xp 00000000 fd:01 12 /usr/bin/orgctl\n" +
		"c000000000-c000400000 rw-p 00000000 00:00 0 \n" +
		"7f0000000000-7f0000100000 r-xp 00000000 fd:01 13 /usr/lib/libc.so.6\n"
	for _, c := range []struct {
		addr uintptr
		lo   uintptr
		ok   bool
	}{
		{0xc000000000, 0xc000000000, true}, {0xc000123456, 0xc000000000, true}, {0xc0003fffff, 0xc000000000, true},
		{0xc000400000, 0, false}, {0x400000, 0x400000, true}, {0x3fffff, 0, false}, {0x7f00000fffff, 0x7f0000000000, true},
	} {
		m, ok := mappingAt(parseMaps([]byte(maps)), c.addr)
		if ok != c.ok || m.lo != c.lo {
			t.Errorf("mappingAt(%#x) = %#x, %v; want %#x, %v", c.addr, m.lo, ok, c.lo, c.ok)
		}
	}
}

// Initialising the package found this process's code and heap and
// populated them.
func TestInitFindsTheCode(t *testing.T) {
	skipWithoutPopulate(t)
	if Err != nil {
		t.Fatalf("populating the code and the heap: %v", Err)
	}
}

func TestCodeMapping(t *testing.T) {
	const exe = "00400000-00af5000 r-xp 00000000 fd:01 12 /usr/bin/orgctl\n" +
		"00af5000-0120d000 r--p 006f5000 fd:01 12 /usr/bin/orgctl\n"
	const pie = "55d0c0000000-55d0c0001000 r--p 00000000 08:01 99 /home/a b/orgctl\n" +
		"55d0c0001000-55d0c0800000 r-xp 00001000 08:01 99 /home/a b/orgctl\n"
	for _, c := range []struct {
		name, maps string
		lo, hi     uintptr
	}{
		{"code first", exe, 0x400000, 0xaf5000},
		{"position-independent", pie, 0x55d0c0001000, 0x55d0c0800000},
		{"another file's code", "00400000-00500000 r--p 00000000 fd:01 12 /usr/bin/orgctl\n7f0000000000-7f0000100000 r-xp 00000000 fd:01 13 /usr/lib/libc.so.6\n", 0, 0},
		{"first mapping anonymous", "7f0000000000-7f0000100000 r-xp 00000000 00:00 0 \n", 0, 0},
		{"cut before the code", "00400000-00500000 r--p 00000000 fd:01 12 /usr/bin/orgctl\n00500000-00600000 r-xp 00000000 fd:01 12 /usr/bi", 0, 0},
		{"empty", "", 0, 0},
	} {
		m, ok := codeMapping(parseMaps([]byte(c.maps)))
		if c.lo == 0 {
			if ok {
				t.Errorf("%s: found %#x-%#x, want none", c.name, m.lo, m.hi)
			}
			continue
		}
		if !ok || m.lo != c.lo || m.hi != c.hi {
			t.Errorf("%s: %#x-%#x, %v; want %#x-%#x", c.name, m.lo, m.hi, ok, c.lo, c.hi)
		}
	}
}

func TestParseMapping(t *testing.T) {
	for _, c := range []struct {
		line string
		want mapping
		path string
		ok   bool
	}{
		{"00400000-00af5000 r-xp 00000000 fd:01 1234       /usr/bin/orgctl", mapping{lo: 0x400000, hi: 0xaf5000, code: true}, "/usr/bin/orgctl", true},
		{"7f00aa000000-7f00aa021000 rw-p 00000000 00:00 0 ", mapping{lo: 0x7f00aa000000, hi: 0x7f00aa021000}, "", true},
		{"55d0c0000000-55d0c0001000 r--p 00000000 08:01 99 /home/a b/orgctl (deleted)", mapping{lo: 0x55d0c0000000, hi: 0x55d0c0001000}, "/home/a b/orgctl (deleted)", true},
		{"00400000-00af5000 r-xp 00000000 fd:01", mapping{}, "", false},
		{"00400000_00af5000 r-xp 00000000 fd:01 1 /x", mapping{}, "", false},
		{"00af5000-00400000 r-xp 00000000 fd:01 1 /x", mapping{}, "", false},
		{"0040000g-00af5000 r-xp 00000000 fd:01 1 /x", mapping{}, "", false},
		{"", mapping{}, "", false},
	} {
		got, path, ok := parseMapping([]byte(c.line))
		if ok != c.ok || (ok && (got != c.want || string(path) != c.path)) {
			t.Errorf("parseMapping(%q) = %+v, %q, %v; want %+v, %q, %v", c.line, got, path, ok, c.want, c.path, c.ok)
		}
	}
}
