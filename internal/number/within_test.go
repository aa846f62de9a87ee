package number

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestWithinAbs(t *testing.T) {
	long := "1." + strings.Repeat("0", 9000) + "1" // 1 + 10^-9001
	tests := []struct {
		a, b, tol string
		want      bool
	}{
		{"21.4", "21", "0.5", true},
		{"21.5", "21", "0.5", true}, // the bound is inclusive
		{"21.50000000000000001", "21", "0.5", false},
		{"20.5", "21", "0.5", true},
		{"20.49999999999999999", "21", "0.5", false},
		{"1.1", "1.0", "0.1", true}, // no float64 rounding at the bound
		{"0.30000000000000004", "0.3", "1e-9", true},
		{"0.30000000000000004", "0.3", "1e-17", false},
		{"0.30000000000000004", "0.3", "4e-17", true},
		// The cases: a rounding allowance of 1e-12 of the value
		// let these pass.
		{"1704067200002", "1704067200000", "0.5", false},
		{"1704067200000.5", "1704067200000", "0.5", true},
		{"1200000000000544", "1200000000000000", "0.5", false},
		{"1200000000000000.5", "1200000000000000", "0.5", true},
		{"9007199254740993", "9007199254740992", "0.5", false},
		{"9007199254740993", "9007199254740992", "1", true},
		// Beyond float64: within nothing usual.
		{"1e400", "1", "0.5", false},
		{"-1e400", "1", "0.5", false},
		{"1", "1e400", "1e300", false},
		{"1e400", "1e400", "0", true},
		{"1e400", "1.0e400", "0.5", true},
		{"1e400", "1e400", "0.5", true},
		{"1.0000000000000000001e400", "1e400", "1e381", true},
		{"1.0000000000000000001e400", "1e400", "0.99e381", false},
		{"1e-400", "0", "1e-401", false},
		{"1e-400", "0", "1e-400", true},
		{"1e-400", "0", "0.5", true},
		{"1e10000000", "1", "0.5", false},
		{"1e-100000000", "0", "0.5", true},
		{"1e100000000000000000000", "1", "0.5", false},
		{"1e100000000000000000000", "1e100000000000000000000", "0.5", true},
		{"-1e-100000000000000000000", "0", "0.5", false}, // conservative beyond 10^-2^40
		// Signs and zero.
		{"-0.25", "0.25", "0.5", true},
		{"-0.25", "0.26", "0.5", false},
		{"0", "-0", "0", true},
		{"0", "0.5", "0.5", true},
		{"5", "5.0", "0", true},
		{"5", "6", "0", false},
		{"5", "6", "-1", false},
		// Long literals: decided past the first 4096 places, conservatively.
		{long, "1", "1e-4000", true},
		{long, "1", "1e-9000", false}, // true, but past 4096 places
		{long, "1", "0.5", true},
		{"1." + strings.Repeat("9", 20000), "2", "1e-30", true},
		{"1." + strings.Repeat("9", 20000), "1", "1.000001", true},
		{"1." + strings.Repeat("9", 20000), "1", "1", true},   // the cut digits of one number cannot reach the bound
		{"-1." + strings.Repeat("9", 20000), "1", "3", false}, // true, but two numbers cut may reach it
		{"-1." + strings.Repeat("9", 20000), "1", "3.0000000001", true},
		// Exact down to 4096 places below the leading digit (docs/rules.md).
		{"1." + strings.Repeat("9", 4096), "1", "1", true},
		{"1", "0." + strings.Repeat("9", 4096), "1", true},
		{"1", "1." + strings.Repeat("0", 4095) + "1", "1e-4096", true},
		{"1", "1." + strings.Repeat("0", 4095) + "1", "0.9e-4096", false},
		{"1", "1." + strings.Repeat("0", 4096) + "1", "1e-4097", false}, // true, but past 4096 places
		// A tolerance beyond 10^2^40 holds any two numbers this side of it.
		{"1", "5", "1e2000000000000", true},
		{"-9e300", "9e300", "1e99999999999999999999", true},
		{"1", "5", "1e1099511627777", true},
		{"1", "5", "1e1099511627776", true},
		{"1", "-5", "5e1099511627776", true},
		{"9e1099511627774", "-9e1099511627774", "1e1099511627776", true},
		{"-9e1099511627775", "9e1099511627775", "1e1099511627776", false},
		{"1e1099511627775", "1", "1e1099511627776", false}, // true, but decided conservatively at the edge
		{"1", "5", "1e-2000000000000", false},
		{"1." + strings.Repeat("9", 20000), "1", "0.9999", false},
	}
	for _, tt := range tests {
		if got := WithinAbs(tt.a, tt.b, tt.tol); got != tt.want {
			t.Errorf("WithinAbs(%.40s, %.40s, %s) = %v, want %v", tt.a, tt.b, tt.tol, got, tt.want)
		}
	}
}

func TestWithinRel(t *testing.T) {
	tests := []struct {
		a, b, frac string
		want       bool
	}{
		{"104", "100", "0.05", true},
		{"105", "100", "0.05", true},
		{"105.0000000001", "100", "0.05", false},
		{"95", "100", "0.05", true},
		{"94.99", "100", "0.05", false},
		{"-105", "-100", "0.05", true},
		{"1", "0", "0.5", false}, // relative to zero: only zero
		{"0", "0", "0.5", true},
		{"1e400", "1e400", "0.1", true},
		{"1.05e400", "1e400", "0.05", true},
		{"1.06e400", "1e400", "0.05", false},
		{"1e400", "1", "0.5", false},
		{"1", "1e400", "0.5", false},
		{"1704067200002", "1704067200000", "2e-12", true},
		{"1704067200002", "1704067200000", "1e-12", false},
	}
	for _, tt := range tests {
		if got := WithinRel(tt.a, tt.b, tt.frac); got != tt.want {
			t.Errorf("WithinRel(%s, %s, %s) = %v, want %v", tt.a, tt.b, tt.frac, got, tt.want)
		}
	}
}

// TestWithinAgreesWithRat checks both paths (the small one and the big one)
// against exact rational arithmetic on random literals.
func TestWithinAgreesWithRat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lit := func() string {
		var b strings.Builder
		if r.IntN(3) == 0 {
			b.WriteByte('-')
		}
		b.WriteString(strconv.Itoa(r.IntN(100000)))
		if r.IntN(2) == 0 {
			b.WriteString("." + strconv.Itoa(r.IntN(1000)))
		}
		if r.IntN(3) == 0 {
			b.WriteString("e" + strconv.Itoa(r.IntN(60)-30))
		}
		return b.String()
	}
	rat := func(s string) *big.Rat {
		x, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad literal %q", s)
		}
		return x
	}
	for range 200000 {
		a, b := lit(), lit()
		tol := strings.TrimPrefix(lit(), "-")
		if r.IntN(4) == 0 {
			// A tolerance exactly at the difference.
			d := new(big.Rat).Sub(rat(a), rat(b))
			d.Abs(d)
			if d.IsInt() || r.IntN(2) == 0 {
				tol = d.FloatString(40)
			}
		}
		d := new(big.Rat).Sub(rat(a), rat(b))
		want := d.Abs(d).Cmp(rat(tol)) <= 0
		if got := WithinAbs(a, b, tol); got != want {
			t.Fatalf("WithinAbs(%s, %s, %s) = %v, want %v", a, b, tol, got, want)
		}
		frac := strings.TrimPrefix(lit(), "-")
		bound := new(big.Rat).Mul(rat(frac), new(big.Rat).Abs(rat(b)))
		d = new(big.Rat).Sub(rat(a), rat(b))
		want = d.Abs(d).Cmp(bound) <= 0
		if got := WithinRel(a, b, frac); got != want {
			t.Fatalf("WithinRel(%s, %s, %s) = %v, want %v", a, b, frac, got, want)
		}
	}
}

func TestIsMultipleOf(t *testing.T) {
	tests := []struct {
		x, m string
		want bool
	}{
		{"1.5", "0.5", true},
		{"0.25", "0.5", false},
		{"1", "0.5", true},
		{"0.3", "0.1", true},
		{"0.05", "0.1", false},
		{"0", "7", true},
		{"-14", "7", true},
		{"15", "7", false},
		{"1e400", "0.5", true},
		{"1e400", "3", false},
		{"3e400", "3", true},
		{"1e10000000", "0.5", true},
		{"1e-100000000", "0.5", false},
		{"1e100000000000000000000", "0.5", true},
		{"1e100000000000000000000", "7", false},
		{"1e-100000000000000000000", "0.5", false},
		{"123456789012345678901234567890", "10", true},
		{"123456789012345678901234567891", "3", false},
		{"123456789012345678901234567891", "123456789012345678901234567891", true},
		{"246913578024691357802469135782", "123456789012345678901234567891", true},
		{"246913578024691357802469135783", "123456789012345678901234567891", false},
		{"0.0001", "0.0001", true},
		{"1", "0.3", false},
		{"0.9", "0.3", true},
		{"2.5e-1", "0.05", true},
		{"1" + strings.Repeat("0", 5000), "8", true},
	}
	for _, tt := range tests {
		if got := IsMultipleOf(tt.x, tt.m); got != tt.want {
			t.Errorf("IsMultipleOf(%.30s, %s) = %v, want %v", tt.x, tt.m, got, tt.want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		x := strconv.Itoa(r.IntN(200000)-100000) + "e" + strconv.Itoa(r.IntN(12)-6)
		m := strconv.Itoa(r.IntN(999)+1) + "e" + strconv.Itoa(r.IntN(8)-4)
		q, _ := new(big.Rat).SetString(x)
		mr, _ := new(big.Rat).SetString(m)
		want := q.Quo(q, mr).IsInt()
		if got := IsMultipleOf(x, m); got != want {
			t.Fatalf("IsMultipleOf(%s, %s) = %v, want %v", x, m, got, want)
		}
	}
}

func BenchmarkWithinAbs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		WithinAbs("21.4", "21", "0.5")
	}
}

// FuzzWithin holds WithinAbs and WithinRel to exact rational arithmetic: a
// pass is always real, and within maxSpan places of the largest number's
// leading digit the answer is exact.
func FuzzWithin(f *testing.F) {
	nines := "1." + strings.Repeat("9", 4096)
	for _, s := range [][3]string{
		{"21.5", "21", "0.5"}, {"-0.25", "0.25", "0.5"}, {"1e400", "1.0e400", "0.5"},
		{nines, "1", "1"}, {nines + "9", "1", "1"}, {"-" + nines, "1", "3"},
		{"1", "1." + strings.Repeat("0", 4095) + "1", "1e-4096"}, {"0.30000000000000004", "0.3", "4e-17"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	rat := func(s string) (*big.Rat, bool) {
		d := decompose(s)
		if d.huge || d.point > 5000 || d.point < -5000 || len(s) > 10000 {
			return nil, false // big.Rat would spell out the power of ten
		}
		return new(big.Rat).SetString(s)
	}
	f.Fuzz(func(t *testing.T, a, b, tol string) {
		for _, s := range []string{a, b, tol} {
			if !Valid(s) {
				return
			}
		}
		x, ok1 := rat(a)
		y, ok2 := rat(b)
		z, ok3 := rat(tol)
		if !ok1 || !ok2 || !ok3 {
			return
		}
		// Exact when every digit lies within maxSpan places below the
		// largest number's leading digit.
		exact := true
		var top int64 = math.MinInt64
		for _, s := range []string{a, b, tol} {
			if d := decompose(s); !d.isZero() {
				top = max(top, d.point)
			}
		}
		for _, s := range []string{a, b, tol} {
			if d := decompose(s); !d.isZero() && d.low() < top-1-maxSpan {
				exact = false
			}
		}
		d := new(big.Rat).Sub(x, y)
		want := d.Abs(d).Cmp(z) <= 0
		got := WithinAbs(a, b, tol)
		if got && !want || exact && got != want {
			t.Fatalf("WithinAbs(%.60s, %.60s, %.60s) = %v, want %v (exact: %v)", a, b, tol, got, want, exact)
		}
		bound := new(big.Rat).Mul(z, new(big.Rat).Abs(y))
		d = new(big.Rat).Sub(x, y)
		if WithinRel(a, b, tol) && d.Abs(d).Cmp(bound) > 0 {
			t.Fatalf("WithinRel(%.60s, %.60s, %.60s) passes, |a-b| > tol·|b|", a, b, tol)
		}
	})
}
