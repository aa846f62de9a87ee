package suite

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A locator places offsets as lineCol does, in whatever order they come,
// in text of any bytes.
func TestLocatorIsLineCol(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "\n", "é", "日", "\xff", "\xe6\x97", "\r", " ", "😀"}
	for range 300 {
		var b []byte
		for range r.IntN(60) {
			b = append(b, alphabet[r.IntN(len(alphabet))]...)
		}
		s := string(b)
		offs := make([]int, 1+r.IntN(12))
		for i := range offs {
			offs[i] = r.IntN(len(s)+3) - 1
		}
		if r.IntN(2) == 0 {
			slices.Sort(offs) // the order the decoder gives them in
		}
		l := &locator{s: s}
		for _, off := range offs {
			gl, gc := l.lineCol(off)
			wl, wc := lineCol(s, off)
			if gl != wl || gc != wc {
				t.Fatalf("%q at %d (offsets %v): locator %d:%d, lineCol %d:%d", s, off, offs, gl, gc, wl, wc)
			}
		}
	}
}
