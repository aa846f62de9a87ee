package main

import "testing"

// --max-line-bytes takes a number of bytes, or one with a binary unit
// (KiB, MiB, GiB, or K, M, G) or a decimal one (KB, MB, GB), and refuses
// anything else, zero and negatives included.
func TestByteSizeFlag(t *testing.T) {
	for in, want := range map[string]int{
		"1048576": 1 << 20, "256MiB": 256 << 20, "1GiB": 1 << 30, "512K": 512 << 10,
		"64M": 64 << 20, "2 MiB": 2 << 20, "1MB": 1000000, "100B": 100,
	} {
		var b byteSize
		if err := b.Set(in); err != nil || int(b) != want {
			t.Errorf("%q: %d, %v; want %d", in, int(b), err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "1.5MiB", "MiB", "1TiB", "99999999999999999999"} {
		var b byteSize
		if err := b.Set(in); err == nil {
			t.Errorf("%q: %d, want an error", in, int(b))
		}
	}
	if s := byteSize(256 << 20); s.String() != "256MiB" {
		t.Errorf("default shown as %s", s.String())
	}
}
