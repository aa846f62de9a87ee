package words

import (
	"strings"
	"testing"
	"unsafe"
)

// The strings an Arena returns keep their text until Reset, however many
// follow them and whatever room they need; after Reset, the room is
// used again.
func TestArena(t *testing.T) {
	var a Arena
	type kept struct{ got, want string }
	var all []kept
	for i := range 3000 {
		want := strings.Repeat(string(rune('a'+i%26)), i%97) + "|" + strings.Repeat("é", i%5)
		var got string
		switch i % 4 {
		case 0:
			got = a.String([]byte(want))
		case 1:
			cut := len(want) / 2
			got = a.Join(want[:cut], "", want[cut:])
		case 2:
			// Written in place, with room enough.
			got = a.Close(append(a.Open(len(want)), want...))
		case 3:
			// Written past the room Open gave: copied in.
			got = a.Close(append(a.Open(len(want)/3), want...))
		}
		all = append(all, kept{got, want})
	}
	big := strings.Repeat("x", 3*firstRoom)
	all = append(all, kept{a.String([]byte(big)), big})
	for i, k := range all {
		if k.got != k.want {
			t.Fatalf("string %d reads %q, want %q", i, k.got, k.want)
		}
	}
	a.Reset()
	first := a.String([]byte("first"))
	if first != "first" || unsafe.StringData(first) != &a.buf[0] {
		t.Fatalf("after Reset: %q, not at the start of the kept room", first)
	}
	if cap(a.buf) < len(big) {
		t.Errorf("Reset dropped a block of %d bytes, under keepAtMost", cap(a.buf))
	}
}

// A string written where Open says, with room enough, is the arena's
// own bytes, not a copy; one grown past its room is copied in.
func TestArenaOpen(t *testing.T) {
	var a Arena
	a.String([]byte("before"))
	b := append(a.Open(16), "in place"...)
	s := a.Close(b)
	if s != "in place" || unsafe.StringData(s) != &a.buf[len("before")] {
		t.Fatalf("Close: %q, not where Open gave room", s)
	}
	after := a.String([]byte("after"))
	grown := a.Close(append(a.Open(1), strings.Repeat("g", 2*firstRoom)...))
	if s != "in place" || after != "after" || grown != strings.Repeat("g", 2*firstRoom) {
		t.Fatalf("read %q, %q, %d bytes after", s, after, len(grown))
	}
	if a.Close(a.Open(8)) != "" {
		t.Error("nothing written is not the empty string")
	}
	var nilArena *Arena
	if got := nilArena.Close(append(nilArena.Open(2), "own"...)); got != "own" {
		t.Errorf("nil Arena: %q", got)
	}
}

// An Arena keeps no more than keepAtMost across Reset.
func TestArenaDropsLargeRoom(t *testing.T) {
	var a Arena
	a.String(make([]byte, keepAtMost+1))
	a.Reset()
	if cap(a.buf) != 0 {
		t.Errorf("kept %d bytes", cap(a.buf))
	}
	if got := a.Join("a", "b"); got != "ab" {
		t.Errorf("Join after dropping the room: %q", got)
	}
}

// A nil Arena gives strings of their own; empty text takes no room.
func TestNilArena(t *testing.T) {
	var a *Arena
	b := []byte("abc")
	s := a.String(b)
	b[0] = 'x'
	if s != "abc" {
		t.Errorf("String: %q", s)
	}
	if got := a.Join("a", "b", "c"); got != "abc" {
		t.Errorf("Join: %q", got)
	}
	a.Reset()
	var z Arena
	if z.String(nil) != "" || z.Join() != "" || z.Join("", "") != "" || cap(z.buf) != 0 {
		t.Error("empty text took room")
	}
}

// Writing a message into a warm Arena allocates nothing.
func TestArenaAllocs(t *testing.T) {
	var a Arena
	msg := []byte("expected 5, got \"five\" (exact)")
	a.String(msg)
	a.Reset()
	if n := testing.AllocsPerRun(100, func() {
		a.Reset()
		for range 50 {
			a.String(msg)
			a.Join("path: ", "got string, want integer")
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
