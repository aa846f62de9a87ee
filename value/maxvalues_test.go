package value

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/jsontext"
)

// TestMaxValues: Limits.MaxValues counts every value, containers too, and
// refuses the first past it, so that a long document of small values is
// refused before its tree outgrows its text.
func TestMaxValues(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		max  int
		fail bool
	}{
		{`1`, 1, false},
		{`[1]`, 1, true},
		{`[1]`, 2, false},
		{`{"a":1,"b":[true,null]}`, 5, false},
		{`{"a":1,"b":[true,null]}`, 4, true},
		{`{"a":{"b":{"c":"d"}}}`, 4, false},
		{`{"a":{"b":{"c":"d"}}}`, 3, true},
		{`[{},[],"",0]`, 0, false}, // no limit
		{`[` + strings.Repeat(`1,`, 999) + `1]`, 1000, true},
		{`[` + strings.Repeat(`1,`, 999) + `1]`, 1001, false},
	} {
		_, err := parseLimits(tt.doc, Limits{MaxValues: tt.max})
		if got := errors.Is(err, ErrTooLarge); got != tt.fail {
			t.Errorf("%.40s with MaxValues %d: err %v, want too large %v", tt.doc, tt.max, err, tt.fail)
		}
		var p Parser
		_, err2 := p.Parse(tt.doc, Limits{MaxValues: tt.max})
		if (err == nil) != (err2 == nil) {
			t.Errorf("%.40s: Parser.Parse %v, a nil Parser %v", tt.doc, err2, err)
		}
	}
	_, err := parseLimits(`{"k1":1,"k2":2,"k3":3}`, Limits{MaxValues: 3})
	var e *Error
	if !errors.As(err, &e) || e.Err != ErrTooLarge || e.Detail != "more than 3 values" || e.Offset != 20 {
		t.Errorf("got %#v, want too large at byte 20 (the fourth value), more than 3 values", err)
	}
	// A document long enough to hold more values than the limit is
	// counted before it is parsed; the count and the offset are the
	// parse's own.
	for _, tt := range []struct {
		doc      string
		max, off int
	}{
		{`[` + strings.Repeat(`1,`, 999) + `1]`, 10, 19},
		{`{"a":[` + strings.Repeat(`"x\"",`, 99) + `"x"]}`, 50, 6 + 48*6},
		{`["` + strings.Repeat("x", 1000) + `",1,{"k":[true,false,null]}]`, 8, -1},
		{`["` + strings.Repeat("x", 1000) + `",1,{"k":[true,false,null]}]`, 7, 1023},
	} {
		_, err := parseLimits(tt.doc, Limits{MaxValues: tt.max})
		var e *Error
		switch {
		case tt.off < 0 && err != nil:
			t.Errorf("%.30s… with MaxValues %d: %v, want no error", tt.doc, tt.max, err)
		case tt.off >= 0 && (!errors.As(err, &e) || e.Err != ErrTooLarge || e.Offset != tt.off):
			t.Errorf("%.30s… with MaxValues %d: %v, want too large at byte %d", tt.doc, tt.max, err, tt.off)
		}
	}
	// The count starts again with each document a Parser reads.
	var p Parser
	for range 3 {
		if _, err := p.Parse(`[1,2]`, Limits{MaxValues: 3}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMaxValuesMemory: a document of a million small members past the
// limit costs what was read up to the limit, not the whole document.
func TestMaxValuesMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 1_000_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`":1`)
	}
	b.WriteString("}")
	doc := b.String()
	lim := Limits{MaxBytes: len(doc) + 1, MaxValues: 1000}
	allocs := testing.Benchmark(func(tb *testing.B) {
		tb.ReportAllocs()
		for range tb.N {
			if _, err := parseLimits(doc, lim); !errors.Is(err, ErrTooLarge) {
				tb.Fatal(err)
			}
		}
	})
	if n := allocs.AllocedBytesPerOp(); n > 256<<10 {
		t.Errorf("refusing a document past 1,000 values allocated %d bytes, want under 256 KiB", n)
	}
}

// FuzzMaxValues: for a document that parses, Limits.MaxValues refuses it
// exactly when it holds more values than the limit, and the count taken
// before a long document is parsed (jsontext.CountValues) stops at the value the
// parse itself stops at.
func FuzzMaxValues(f *testing.F) {
	for _, s := range []string{`1`, `[1,2,3]`, `{"a":{"b":[true,null,"x"]},"c":-1.5e3}`, `[[],{},""]`, ` [ "\"", {"k" : [ 1 ] } ] `} {
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, m uint8) {
		v, err := parseLimits(s, Limits{MaxBytes: len(s) + 1})
		if err != nil {
			return
		}
		n := countValues(v)
		max := int(m)%(n+1) + 1 // from 1 to n+1
		_, err = parseLimits(s, Limits{MaxBytes: len(s) + 1, MaxValues: max})
		var pe *Error
		over := errors.As(err, &pe) && pe.Err == ErrTooLarge
		if over != (n > max) {
			t.Fatalf("%q holds %d values; with MaxValues %d: %v", s, n, max, err)
		}
		off, scanOver := jsontext.CountValues(s, max)
		if scanOver != over || over && off != pe.Offset {
			t.Fatalf("%q with MaxValues %d: the scanner says %v at %d, the parse %v", s, max, scanOver, off, err)
		}
	})
}

// countValues counts v and every value inside it.
func countValues(v Value) int {
	n := 1
	switch v.Kind() {
	case Array:
		for _, e := range v.Elems() {
			n += countValues(e)
		}
	case Object:
		for _, m := range v.Members() {
			n += countValues(m.Value)
		}
	}
	return n
}
