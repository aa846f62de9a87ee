package value

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/number"
)

// Tests for bugs found while writing the fuzz targets and table tests. Each
// fails until the fix proposed with it is applied.

// decompose saturates an exponent (at 2^40, since raised to 10^17), so two
// numbers with long but different exponents compare equal, or in the wrong
// order, and CanonicalNumber returns a different number. FuzzNumbers found
// it (testdata/fuzz/FuzzNumbers/4ec3d2b706f498dd, with the 2^40 limit).
func TestBugHugeExponent(t *testing.T) {
	compare := []struct {
		a, b string
		want int
	}{
		{"1e99999999999999", "1e9999999999999", 1},
		{"1e99999999999999", "2e9999999999999", 1},
		{"1e10995116277760", "1e1099511627776", 1},
		{"1e-99999999999999", "1e-9999999999999", -1},
		{"-1e99999999999999", "-1e9999999999999", -1},
		{"1e99999999999999999999", "1e99999999999999999998", 1},
		{"1e99999999999999999999", "9e9999999999999999999", 1},
		{"-1e99999999999999999999", "-9e9999999999999999999", -1},
		{"1e100000000000000000000", "10e99999999999999999999", 0},
		{"0.1e100000000000000000001", "1e100000000000000000000", 0},
		{"1e99999999999999999999", "1e400", 1},
		{"1e-99999999999999999999", "1e-400", -1},
		{"1e-99999999999999999999", "0", 1},
		{"1e0000000000000000000000000000005", "100000", 0}, // leading zeros do not make it long
	}
	for _, tt := range compare {
		if got := number.Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("number.Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := number.Compare(tt.b, tt.a); got != -tt.want {
			t.Errorf("number.Compare(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
	canonical := []struct{ in, want string }{
		{"1e-99999999999999", "1e-99999999999999"},
		{"-1.0e-11000000000000", "-1e-11000000000000"},
		{"12.5e99999999999999999999", "1.25e100000000000000000000"},
		{"0.05e-100000000000000000000", "5e-100000000000000000002"},
	}
	for _, tt := range canonical {
		if got := number.Canonical(tt.in); got != tt.want {
			t.Errorf("number.Canonical(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	a, _ := Parse(`{"x":1e99999999999999}`)
	b, _ := Parse(`{"x":1e9999999999999}`)
	if Equal(a, b) {
		t.Errorf("Equal(%v, %v) is true", a, b)
	}
	for in, want := range map[string]bool{"1e99999999999999999999": true, "1e-99999999999999999999": false, "1.5e99999999999999999999": true} {
		n, _ := NumberOf(in)
		if got := number.IsInteger(n.Str()); got != want {
			t.Errorf("IsInteger(%s) = %v, want %v", in, got, want)
		}
	}
}

// NumberOf reports offset 0 for every literal that stops being a number
// before its end: max(n, 0) discards scanNumber's -offset.
func TestBugNumberOfOffset(t *testing.T) {
	for in, want := range map[string]int{"1.": 2, "-": 1, "1e+": 3, "-.5": 1, "1.e5": 2, "01": 1, "5a": 1, "": 0, "x": 0} {
		_, err := NumberOf(in)
		var pe *Error
		if !errors.As(err, &pe) || pe.Offset != want {
			t.Errorf("NumberOf(%q) error = %v, want offset %d", in, err, want)
		}
	}
}

// FromAny rejects named scalar types: a suite written in Go with
// type Cabin string, or a time.Duration, gets "cannot use". The reflection
// path handles named slices and maps, and the Int8 and Int16 kinds, but no
// named int, int32, int64, uint64, float, string or bool.
func TestBugFromAnyNamedScalars(t *testing.T) {
	type (
		cabin   string
		count   int
		celsius float64
		flag    bool
		id      uint64
		small   int32
	)
	for _, tt := range []struct {
		in   any
		want string
	}{
		{cabin("economy"), `"economy"`},
		{count(2), `2`},
		{celsius(21.5), `21.5`},
		{flag(true), `true`},
		{id(math.MaxUint64), `18446744073709551615`},
		{small(-3), `-3`},
		{time.Duration(1500), `1500`},
		{[]cabin{"economy", "business"}, `["economy","business"]`},
		{map[string]count{"passengers": 2}, `{"passengers":2}`},
	} {
		v, err := FromAny(tt.in)
		if err != nil || v.String() != tt.want {
			t.Errorf("FromAny(%#v) = %v, %v; want %s", tt.in, v, err, tt.want)
		}
	}
	if _, err := FromAny(celsius(math.NaN())); !errors.Is(err, ErrNonFinite) {
		t.Errorf("FromAny(celsius(NaN)) error = %v, want ErrNonFinite", err)
	}
}

// AppendJSON's documentation promises strings "escaped as encoding/json does
// without HTML escaping", but AppendQuote writes \b and \f as \u0008 and
// \u000c, where encoding/json writes \b and \f, and leaves U+2028 and U+2029
// unescaped, where encoding/json always escapes them.
func TestBugAppendQuoteEncodingJSON(t *testing.T) {
	for _, s := range []string{"\b", "\f", "a\u2028b\u2029c", "\x00\x1f\t\n\r\"\\/<>&é😀\x7f"} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(buf.String(), "\n")
		if got := string(jsontext.AppendQuote(nil, s)); got != want {
			t.Errorf("jsontext.AppendQuote(%q) = %s, encoding/json writes %s", s, got, want)
		}
	}
}
