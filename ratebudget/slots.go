package ratebudget

import (
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/orgctl/orgctl/output/fsguard"
)

// A slot file is one header line followed by the state as JSON:
//
//	orgctl-ledger 2 <seq: 16 hex> <payload length: 8 hex> <crc32c: 8 hex>\n{...}
//
// The CRC (Castagnoli) covers the header up to and including the space
// before it, then the payload, so a torn header fails it as surely as a torn
// payload. Bytes past the payload (left by a write that died before its
// truncate) are ignored.
const slotMagic = "orgctl-ledger 2 "

const (
	seqAt     = len(slotMagic)
	lenAt     = seqAt + 16 + 1
	crcAt     = lenAt + 8 + 1
	headerLen = crcAt + 8 + 1
)

// slots is the ledger's pair of slot files. Every write goes in place into
// the slot not holding the newest valid state, so a process killed mid-write
// can only damage that slot and the other still holds the last good state;
// no rename means no forced flush (ext4 syncs data on rename-over-existing).
// Callers hold the file lock and Ledger.mu (buf is reused across writes).
type slots struct {
	paths [2]string
	buf   []byte
}

// loaded is what reading the slots found, for the write that may follow.
type loaded struct {
	newest int      // slot holding the newest valid state; -1 if neither does
	seq    uint64   // its sequence number; 0 if none
	sizes  [2]int64 // each slot file's size; 0 if missing
}

// read loads the newest slot whose checksum verifies and whose payload is this
// format. If no slot exists the ledger is empty. If slots exist but none is
// valid (both garbled, truncated, written by something else), the state is
// one charge of the whole capacity dated at the latest slot's modification
// time: whatever they held was written no later than that and no more than
// the capacity, so assuming a full window then can only delay requests (by at
// most one window), never overdraw into a block. recovered reports that case.
func (sl *slots) read(capacity int, now time.Time) (s state, ld loaded, recovered bool, err error) {
	ld.newest = -1
	exists := false
	var (
		data [2][]byte
		seqs [2]uint64
		ok   [2]bool
	)
	for i, p := range sl.paths {
		b, err := readNoFollow(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return state{}, loaded{}, false, err
		}
		exists = true
		ld.sizes[i] = int64(len(b))
		data[i] = b
		seqs[i], ok[i] = verifySlot(b)
	}
	order := [2]int{0, 1}
	if ok[1] && (!ok[0] || seqs[1] > seqs[0]) {
		order = [2]int{1, 0}
	}
	for _, i := range order {
		if !ok[i] {
			continue
		}
		cand, err := decodeState(data[i][headerLen : headerLen+payloadLen(data[i])])
		if err == nil && cand.Version == fileVersion {
			s, ld.newest, ld.seq = cand, i, seqs[i]
			break
		}
	}
	if ld.newest >= 0 {
		return s, ld, false, nil
	}
	if !exists {
		return state{Version: fileVersion}, ld, false, nil
	}
	var at time.Time
	for _, p := range sl.paths {
		if fi, err := os.Lstat(p); err == nil && fi.ModTime().After(at) {
			at = fi.ModTime()
		}
	}
	if at.IsZero() || at.After(now) {
		at = now
	}
	return state{
		Version:    fileVersion,
		Unreadable: at.UnixNano(),
		Entries:    []entry{{Points: capacity, At: at.UnixNano()}},
	}, ld, true, nil
}

// readNoFollow reads a slot, refusing a symlink in its place.
func readNoFollow(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|fsguard.NoFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// verifySlot checks a slot's header and checksum and returns its sequence.
func verifySlot(data []byte) (seq uint64, ok bool) {
	if len(data) < headerLen || string(data[:seqAt]) != slotMagic ||
		data[lenAt-1] != ' ' || data[crcAt-1] != ' ' || data[headerLen-1] != '\n' {
		return 0, false
	}
	seq, err1 := strconv.ParseUint(string(data[seqAt:lenAt-1]), 16, 64)
	n, err2 := strconv.ParseUint(string(data[lenAt:crcAt-1]), 16, 32)
	sum, err3 := strconv.ParseUint(string(data[crcAt:headerLen-1]), 16, 32)
	if err1 != nil || err2 != nil || err3 != nil || n > uint64(len(data)-headerLen) {
		return 0, false
	}
	tab := crc32.MakeTable(crc32.Castagnoli) // made once by hash/crc32, on first use
	crc := crc32.Update(crc32.Checksum(data[:crcAt], tab), tab, data[headerLen:headerLen+int(n)])
	return seq, crc == uint32(sum)
}

// payloadLen is the payload length of a slot verifySlot accepted.
func payloadLen(data []byte) int {
	n, _ := strconv.ParseUint(string(data[lenAt:crcAt-1]), 16, 32)
	return int(n)
}

// frame fills in the header of slot, whose payload follows headerLen
// reserved bytes.
func frame(slot []byte, seq uint64) {
	h := append(slot[:0], slotMagic...)
	h = appendHex(h, seq, 16)
	h = append(h, ' ')
	h = appendHex(h, uint64(len(slot)-headerLen), 8)
	h = append(h, ' ')
	tab := crc32.MakeTable(crc32.Castagnoli)
	crc := crc32.Update(crc32.Checksum(h, tab), tab, slot[headerLen:])
	h = appendHex(h, uint64(crc), 8)
	_ = append(h, '\n')
}

func appendHex(buf []byte, v uint64, width int) []byte {
	const digits = "0123456789abcdef"
	for i := width - 1; i >= 0; i-- {
		buf = append(buf, digits[(v>>(4*uint(i)))&0xf])
	}
	return buf
}

// write stores s as the next sequence in the slot read did not choose.
func (sl *slots) write(ld loaded, s *state) error {
	slot := 0
	if ld.newest == 0 {
		slot = 1
	}
	sl.buf = appendState(append(sl.buf[:0], make([]byte, headerLen)...), s)
	frame(sl.buf, ld.seq+1)
	f, err := os.OpenFile(sl.paths[slot], os.O_WRONLY|os.O_CREATE|fsguard.NoFollow, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.WriteAt(sl.buf, 0)
	// Never truncate to zero: ext4 flushes data on close after that, too.
	if werr == nil && ld.sizes[slot] > int64(len(sl.buf)) {
		werr = f.Truncate(int64(len(sl.buf)))
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}
