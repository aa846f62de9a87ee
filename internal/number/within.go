package number

import (
	"math/big"
	"strconv"
)

// Exact arithmetic on number literals for the comparisons that need more
// than equality: tolerances and JSON Schema's multipleOf. Converting to
// float64 first would blur exactly what a tolerance bounds (1704067200000 and
// 1704067200002 are 2 apart, not "within rounding" of each other), and a
// literal beyond float64 (1e400) would become an infinity that is either
// within everything or nothing by accident.

// maxSpan bounds the decimal places that WithinAbs and WithinRel compute
// with: from the largest number's leading digit down, at most this many.
// Literals whose digits reach further are truncated there, and the result is
// then decided conservatively (a difference that might exceed the tolerance
// by less than the truncation does). Model output can spell a number with
// millions of digits; the work stays bounded.
const maxSpan = 4096

// farPoint bounds the magnitude (a power of ten) of the literals compared
// exactly; numbers beyond 10^±farPoint are within a tolerance of another
// number only when they are equal to it.
const farPoint = 1 << 40

// WithinAbs reports whether |a − b| ≤ tol, computed exactly on the decimal
// values of the three JSON number literals. Numbers beyond float64's range
// are compared as what they are: 1e400 is not within any usual tolerance of
// 1. Equal numbers are within any tolerance; nothing is within a negative
// one. All three must be valid literals.
func WithinAbs(a, b, tol string) bool {
	x, y := decompose(a), decompose(b)
	if equalDecimals(x, y) {
		return true
	}
	return within(x, y, decompose(tol))
}

// WithinRel reports whether |a − b| ≤ frac·|b|: a relative tolerance,
// relative to the second number (the expected one, by convention), computed
// exactly as WithinAbs is.
func WithinRel(a, b, frac string) bool {
	x, y := decompose(a), decompose(b)
	if equalDecimals(x, y) {
		return true
	}
	f := decompose(frac)
	if f.neg || f.isZero() || y.isZero() {
		return false
	}
	if far(f) || far(y) {
		return false
	}
	// frac·|b|, from each factor's leading maxSpan digits: dropping digits
	// can only shrink the product, so a pass stays a real one.
	fc, fl := truncatedCoef(f, maxSpan)
	yc, yl := truncatedCoef(y, maxSpan)
	p := new(big.Int).Mul(fc, yc)
	lit := p.String() + "e" + strconv.FormatInt(fl+yl, 10)
	return within(x, y, decompose(lit))
}

func equalDecimals(x, y decimal) bool {
	if x.isZero() || y.isZero() {
		return x.isZero() && y.isZero()
	}
	return x.neg == y.neg && compareAbs(x, y) == 0
}

// far reports whether d's magnitude is beyond 10^±farPoint (a huge
// exponent included); zero is not.
func far(d decimal) bool {
	return !d.isZero() && (d.huge || d.point > farPoint || d.point < -farPoint)
}

// low returns the power of ten of d's last significant digit: d is its
// digits, as an integer, times 10^low.
func (d decimal) low() int64 { return d.point - int64(d.n) }

// small returns d's digits as an integer when there are at most 18 of them.
func (d decimal) small() (coef uint64, ok bool) {
	if d.n > 18 || d.huge {
		return 0, false
	}
	i := d.first
	for k := 0; k < d.n; k++ {
		var c byte
		c, i = d.next(i)
		coef = coef*10 + uint64(c-'0')
	}
	return coef, true
}

// within reports whether |x − y| ≤ t for x != y.
func within(x, y, t decimal) bool {
	if t.neg || t.isZero() {
		return false
	}
	if far(x) || far(y) {
		return false
	}
	if far(t) {
		// x and y are below 10^farPoint, so their difference is below
		// twice that: within a tolerance of 10^(farPoint+1) or more. A
		// tolerance below 10^-farPoint holds only equal numbers, as
		// farPoint promises (no pass that is not real). A tolerance of
		// 10^farPoint or more (its point farPoint+1) holds two numbers
		// below 10^(farPoint-1), whose difference is below 10^farPoint;
		// others it may not, and then nothing is promised but no pass.
		switch t.bigPoint().Cmp(big.NewInt(farPoint + 1)) {
		case 1:
			return true
		case 0:
			return x.point < farPoint && y.point < farPoint
		}
		return false
	}
	if ok, decided := withinSmall(x, y, t); decided {
		return ok
	}
	return withinBig(x, y, t)
}

// pow10 holds the powers of ten that fit an int64.
var pow10 = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// withinSmall decides the common case without allocating: every number has
// at most 18 digits once brought to the finest of their scales.
func withinSmall(x, y, t decimal) (ok, decided bool) {
	xc, ok1 := x.small()
	yc, ok2 := y.small()
	tc, ok3 := t.small()
	if !ok1 || !ok2 || !ok3 {
		return false, false
	}
	c := t.low()
	if !x.isZero() {
		c = min(c, x.low())
	}
	if !y.isZero() {
		c = min(c, y.low())
	}
	scale := func(coef uint64, d decimal) (uint64, bool) {
		if d.isZero() {
			return 0, true
		}
		k := d.low() - c
		if int64(d.n)+k > 18 {
			return 0, false
		}
		return coef * pow10[k], true
	}
	xs, ok1 := scale(xc, x)
	ys, ok2 := scale(yc, y)
	ts, ok3 := scale(tc, t)
	if !ok1 || !ok2 || !ok3 {
		return false, false
	}
	// Each is below 10^18, so a sum of two fits a uint64.
	var d uint64
	switch {
	case x.neg == y.neg || x.isZero() || y.isZero():
		d = max(xs, ys) - min(xs, ys)
	default:
		d = xs + ys
	}
	return d <= ts, true
}

// withinBig computes in big integers, in units of 10^c, where c is the
// finest scale of the three numbers but at most maxSpan places below the
// largest one's leading digit.
func withinBig(x, y, t decimal) bool {
	var top, finest int64
	first := true
	for _, d := range [...]decimal{x, y, t} {
		if d.isZero() {
			continue
		}
		if first {
			top, finest, first = d.point, d.low(), false
			continue
		}
		top, finest = max(top, d.point), min(finest, d.low())
	}
	// A leading digit of 10^(point-1); maxSpan places below it.
	c := max(finest, top-1-maxSpan)
	xs, ys, ts := scaled(x, c), scaled(y, c), scaled(t, c)
	diff := xs.Sub(xs, ys)
	diff.Abs(diff)
	if finest < c {
		// Each of x and y lost less than one unit toward zero, and t is at
		// least ts. Of the same sign, they lost it in the same direction:
		// the exact difference is below diff + 1; of opposite signs, below
		// diff + 2.
		lost := int64(2)
		if x.neg == y.neg || x.isZero() || y.isZero() {
			lost = 1
		}
		diff.Add(diff, big.NewInt(lost))
	}
	return diff.Cmp(ts) <= 0
}

// scaled returns d in units of 10^c, truncated toward zero.
func scaled(d decimal, c int64) *big.Int {
	z := new(big.Int)
	if d.isZero() {
		return z
	}
	keep := int64(d.n)
	if d.low() < c {
		keep -= c - d.low()
	}
	if keep <= 0 {
		return z
	}
	z.SetString(d.digits(int(keep)), 10)
	if k := d.low() - c; k > 0 {
		z.Mul(z, new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil))
	}
	if d.neg {
		z.Neg(z)
	}
	return z
}

// digits returns d's first k significant digits.
func (d decimal) digits(k int) string {
	b := make([]byte, 0, k)
	i := d.first
	for range k {
		var c byte
		c, i = d.next(i)
		b = append(b, c)
	}
	return string(b)
}

// truncatedCoef returns d's leading digits, at most k of them, as an integer
// and the power of ten of the last one kept.
func truncatedCoef(d decimal, k int) (*big.Int, int64) {
	k = min(k, d.n)
	z, _ := new(big.Int).SetString(d.digits(k), 10)
	return z, d.point - int64(k)
}

// IsMultipleOf reports whether the number literal x is an integer multiple
// of the positive literal m, exactly: 1.5 is a multiple of 0.5, 0.25 is not,
// and 1e400 is a multiple of 0.5. A huge exponent or a long literal costs
// time in proportion to its digits, not to its value.
func IsMultipleOf(x, m string) bool {
	d, q := decompose(x), decompose(m)
	if d.isZero() {
		return true
	}
	if q.isZero() {
		return false
	}
	// x/m = (X/M)·10^k for the digit integers X and M. X does not end in 0,
	// so 10 does not divide it: with k < 0 the quotient is never whole.
	var k int64
	switch {
	case d.huge || q.huge:
		kb := d.bigPoint()
		kb.Sub(kb, big.NewInt(int64(d.n)))
		lq := q.bigPoint()
		lq.Sub(lq, big.NewInt(int64(q.n)))
		kb.Sub(kb, lq)
		if kb.Sign() < 0 {
			return false
		}
		k = farPoint // any k beyond M's powers of 2 and 5 decides the same
		if kb.IsInt64() {
			k = kb.Int64()
		}
	default:
		k = d.low() - q.low()
		if k < 0 {
			return false
		}
	}
	// M divides X·10^k exactly when it divides X·10^min(k, e), where e is
	// the larger of M's powers of 2 and 5: beyond that, more factors of 10
	// add nothing M can use.
	if mc, ok := q.small(); ok && mc <= 1e17 {
		return remainderSmall(d, min(k, twoFivePower64(mc)), mc) == 0
	}
	mod, _ := new(big.Int).SetString(q.digits(q.n), 10)
	return remainderBig(d, min(k, twoFivePower(mod)), mod).Sign() == 0
}

// twoFivePower64 is twoFivePower for a small m.
func twoFivePower64(m uint64) int64 {
	var twos, fives int64
	for x := m; x%2 == 0; x /= 2 {
		twos++
	}
	for x := m; x%5 == 0; x /= 5 {
		fives++
	}
	return max(twos, fives)
}

// twoFivePower returns the larger of the exponents of 2 and 5 in m > 0.
func twoFivePower(m *big.Int) int64 {
	twos := int64(m.TrailingZeroBits())
	fives := int64(0)
	five := big.NewInt(5)
	q, r := new(big.Int).Set(m), new(big.Int)
	for {
		q.QuoRem(q, five, r)
		if r.Sign() != 0 {
			break
		}
		fives++
	}
	return max(twos, fives)
}

// remainderSmall returns (X·10^k) mod m for d's digit integer X, reading the
// digits one by one; m ≤ 10^17 keeps rem·10+9 within a uint64.
func remainderSmall(d decimal, k int64, m uint64) uint64 {
	var rem uint64
	i := d.first
	for range d.n {
		var c byte
		c, i = d.next(i)
		rem = (rem*10 + uint64(c-'0')) % m
	}
	for range k {
		rem = rem * 10 % m
	}
	return rem
}

// remainderBig is remainderSmall for a large modulus, 18 digits at a time.
func remainderBig(d decimal, k int64, m *big.Int) *big.Int {
	rem := new(big.Int)
	chunk := new(big.Int)
	ten18 := new(big.Int).SetUint64(1e18)
	var acc uint64
	n := 0
	flush := func(scale *big.Int) {
		rem.Mul(rem, scale)
		rem.Add(rem, chunk.SetUint64(acc))
		rem.Mod(rem, m)
		acc, n = 0, 0
	}
	i := d.first
	for range d.n {
		var c byte
		c, i = d.next(i)
		acc = acc*10 + uint64(c-'0')
		if n++; n == 18 {
			flush(ten18)
		}
	}
	for range k {
		acc *= 10
		if n++; n == 18 {
			flush(ten18)
		}
	}
	if n > 0 {
		flush(new(big.Int).SetUint64(pow10[n]))
	}
	return rem
}
