package ratebudget

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockHolder describes the processes holding a lock on path, from the
// kernel's table of locks, or "" when they cannot be told.
func lockHolder(path string) string {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return ""
	}
	table, err := os.ReadFile("/proc/locks")
	if err != nil {
		return ""
	}
	var who []string
	for _, pid := range lockPIDs(table, devMajor(uint64(st.Dev)), devMinor(uint64(st.Dev)), st.Ino) {
		who = append(who, describeProcess(pid))
	}
	return strings.Join(who, " and ")
}

// lockPIDs reads /proc/locks lines such as
//
//	1: FLOCK  ADVISORY  WRITE 4242 fd:01:1835269 0 EOF
//
// and returns the pids holding a lock on the file (waiters, marked "->",
// are skipped).
func lockPIDs(table []byte, major, minor, ino uint64) []int {
	var pids []int
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, ino)
	for _, line := range bytes.Split(table, []byte("\n")) {
		f := strings.Fields(string(line))
		if len(f) < 6 || f[1] == "->" {
			continue
		}
		if !sameFileID(f[5], want, major, minor, ino) {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// sameFileID compares "maj:min:inode" fields; the kernel pads the hex
// device numbers to two digits, but be lenient about that.
func sameFileID(field, want string, major, minor, ino uint64) bool {
	if field == want {
		return true
	}
	parts := strings.Split(field, ":")
	if len(parts) != 3 {
		return false
	}
	ma, err1 := strconv.ParseUint(parts[0], 16, 64)
	mi, err2 := strconv.ParseUint(parts[1], 16, 64)
	in, err3 := strconv.ParseUint(parts[2], 10, 64)
	return err1 == nil && err2 == nil && err3 == nil && ma == major && mi == minor && in == ino
}

// Linux's encoding of a device number (see makedev(3)).
func devMajor(dev uint64) uint64 { return (dev>>8)&0xfff | (dev>>32)&^0xfff }
func devMinor(dev uint64) uint64 { return dev&0xff | (dev>>12)&^0xff }

// describeProcess names a process and says when it is stopped or a zombie.
func describeProcess(pid int) string {
	name := ""
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil {
		name = strings.TrimSpace(string(b))
	}
	state := ""
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// "pid (comm) S ...": the state follows the last ')'.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
			switch b[i+2] {
			case 'T', 't':
				state = "stopped"
			case 'Z':
				state = "exited, not yet reaped"
			case 'D':
				state = "waiting on a device or network file system"
			}
		}
	}
	var notes []string
	if name != "" {
		notes = append(notes, name)
	}
	if state != "" {
		notes = append(notes, state)
	}
	if len(notes) == 0 {
		return fmt.Sprintf("pid %d", pid)
	}
	return fmt.Sprintf("pid %d (%s)", pid, strings.Join(notes, ", "))
}
