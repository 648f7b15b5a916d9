package ratebudget

import (
	"fmt"
	"testing"
)

func TestLockPIDs(t *testing.T) {
	table := []byte(`1: POSIX  ADVISORY  WRITE 812 00:1a:4242 0 EOF
2: FLOCK  ADVISORY  WRITE 4242 fd:01:1835269 0 EOF
2: -> FLOCK  ADVISORY  WRITE 5151 fd:01:1835269 0 EOF
3: FLOCK  ADVISORY  READ 77 fd:01:1835269 0 EOF
4: FLOCK  ADVISORY  WRITE 99 fd:01:1835270 0 EOF
5: OFDLCK ADVISORY  READ -1 fd:01:1835269 0 EOF
garbage
`)
	got := lockPIDs(table, 0xfd, 0x01, 1835269)
	if fmt.Sprint(got) != "[4242 77]" {
		t.Errorf("lockPIDs = %v, want [4242 77]", got)
	}
	if got := lockPIDs(table, 0, 0x1a, 4242); fmt.Sprint(got) != "[812]" {
		t.Errorf("lockPIDs = %v, want [812]", got)
	}
}
