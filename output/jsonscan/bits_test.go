package jsonscan

import "testing"

func TestStrPlainBits(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
		if got := strPlain(byte(c)); got != want {
			t.Errorf("strPlain(%#x) = %v, want %v", c, got, want)
		}
	}
}
