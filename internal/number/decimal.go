package number

import (
	"math/big"
	"strings"
)

// decimal is a view of a JSON number literal as sign, significant digits
// and the position of the decimal point, without allocating: the digits are
// read in place from the literal, skipping its '.'.
//
// The value is 0.d1d2…dn × 10^point, with d1 != 0 and dn != 0; zero has n == 0.
type decimal struct {
	neg   bool
	s     string // the literal
	dot   int    // index of '.' in s, or -1
	first int    // index in s of d1
	n     int    // number of significant digits
	point int64

	// A number whose exponent has more than maxExpDigits digits is huge:
	// point is then only ±hugePoint, for its sign, and the exact point is
	// the exponent plus adj (see bigPoint).
	huge   bool
	expNeg bool
	exp    string // huge: the exponent's digits without leading zeros
	adj    int64  // huge: point minus the exponent
}

const (
	maxExpDigits = 18 // below 10^18, plus any literal's length, fits an int64
	hugePoint    = 1 << 62
)

// decompose reads a valid JSON number literal.
func decompose(s string) decimal {
	d := decimal{s: s, dot: -1}
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	intDigits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		intDigits++
	}
	end := i // end of mantissa digits, '.' included
	if i < len(s) && s[i] == '.' {
		d.dot = i
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		end = i
	}
	var exp int64
	var expDigits string
	eneg := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if s[i] == '+' || s[i] == '-' {
			eneg = s[i] == '-'
			i++
		}
		for i < len(s) && s[i] == '0' {
			i++
		}
		expDigits = s[i:]
		if len(expDigits) <= maxExpDigits {
			for ; i < len(s); i++ {
				exp = exp*10 + int64(s[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	// Strip leading zeros: each one moves the point left.
	point := int64(intDigits) + exp
	j := start
	for j < end && (s[j] == '0' || s[j] == '.') {
		if s[j] == '0' {
			point--
		}
		j++
	}
	if j == end {
		return decimal{s: s} // zero, whatever its sign or spelling
	}
	// Strip trailing zeros.
	k := end
	for k > j && (s[k-1] == '0' || s[k-1] == '.') {
		k--
	}
	n := k - j
	if d.dot > j && d.dot < k {
		n--
	}
	d.first, d.n, d.point = j, n, point
	if len(expDigits) > maxExpDigits {
		d.huge, d.expNeg, d.exp, d.adj = true, eneg, expDigits, point
		d.point = hugePoint
		if eneg {
			d.point = -hugePoint
		}
	}
	return d
}

// bigPoint returns the exact point, also of a huge number.
func (d decimal) bigPoint() *big.Int {
	if !d.huge {
		return big.NewInt(d.point)
	}
	p, _ := new(big.Int).SetString(d.exp, 10)
	if d.expNeg {
		p.Neg(p)
	}
	return p.Add(p, big.NewInt(d.adj))
}

func (d decimal) isZero() bool { return d.n == 0 }

// next returns the significant digit at s[i] and the index after it.
func (d decimal) next(i int) (byte, int) {
	if i == d.dot {
		i++
	}
	return d.s[i], i + 1
}

// compareAbs compares |a| and |b|.
func compareAbs(a, b decimal) int {
	switch {
	case a.isZero() && b.isZero():
		return 0
	case a.isZero():
		return -1
	case b.isZero():
		return 1
	case a.huge || b.huge:
		if c := a.bigPoint().Cmp(b.bigPoint()); c != 0 {
			return c
		}
	case a.point != b.point:
		if a.point < b.point {
			return -1
		}
		return 1
	}
	i, j := a.first, b.first
	for k := 0; k < a.n && k < b.n; k++ {
		var x, y byte
		x, i = a.next(i)
		y, j = b.next(j)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.n < b.n:
		return -1
	case a.n > b.n:
		return 1
	}
	return 0
}

// Compare compares two JSON number literals by their exact decimal
// value: -1, 0 or +1. 5, 5.0 and 5e0 are equal; 9007199254740993 and
// 9007199254740992 are not. Both must be valid literals.
func Compare(a, b string) int {
	if a == b {
		return 0
	}
	if c, ok := comparePlain(a, b); ok {
		return c
	}
	x, y := decompose(a), decompose(b)
	if x.isZero() {
		x.neg = false
	}
	if y.isZero() {
		y.neg = false
	}
	if x.neg != y.neg {
		if x.neg {
			return -1
		}
		return 1
	}
	c := compareAbs(x, y)
	if x.neg {
		return -c
	}
	return c
}

// comparePlain compares two literals without an exponent (digits, perhaps
// a minus and a fraction), the common case of bounds, counts and prices,
// without decomposing them; ok is false for a literal with an exponent.
func comparePlain(a, b string) (c int, ok bool) {
	an, ai, af, aok := splitPlain(a)
	bn, bi, bf, bok := splitPlain(b)
	if !aok || !bok {
		return 0, false
	}
	switch {
	case an != bn:
		if an {
			return -1, true
		}
		return 1, true
	case len(ai) != len(bi):
		// JSON integer parts have no leading zero: the longer is larger.
		c = len(ai) - len(bi)
	default:
		if c = strings.Compare(ai, bi); c == 0 {
			// Without trailing zeros, fractions compare as text.
			c = strings.Compare(af, bf)
		}
	}
	if c > 0 {
		c = 1
	} else if c < 0 {
		c = -1
	}
	if an {
		c = -c
	}
	return c, true
}

// splitPlain splits a JSON number literal without exponent into its sign,
// its integer digits and its fractional digits without trailing zeros, in
// one pass; zero is never negative. ok is false for a literal with an
// exponent.
func splitPlain(s string) (neg bool, integer, fraction string, ok bool) {
	if s == "" {
		return false, "", "", false // no literal: decompose reads it as zero
	}
	i := 0
	if s[0] == '-' {
		neg, i = true, 1
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	integer = s[start:i]
	if i < len(s) {
		if s[i] != '.' {
			return false, "", "", false
		}
		j := i + 1
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k < len(s) {
			return false, "", "", false
		}
		for k > j && s[k-1] == '0' {
			k--
		}
		fraction = s[j:k]
	}
	if len(integer) == 1 && integer[0] == '0' && len(fraction) == 0 {
		neg = false
	}
	return neg, integer, fraction, true
}

// Canonical returns the shortest exact spelling of a number literal:
// "5.0", "5e0" and "0.5e1" all give "5"; "1.50" gives "1.5"; "1e400" stays
// "1e400". Two literals are equal exactly when their canonical forms are.
func Canonical(s string) string {
	d := decompose(s)
	if d.isZero() {
		return "0"
	}
	digits := make([]byte, 0, d.n+24)
	if d.neg {
		digits = append(digits, '-')
	}
	i := d.first
	body := len(digits)
	for k := 0; k < d.n; k++ {
		var c byte
		c, i = d.next(i)
		digits = append(digits, c)
	}
	// Plain notation when it is short, exponent notation otherwise.
	switch {
	case d.point >= int64(d.n) && d.point <= 21:
		for k := int64(d.n); k < d.point; k++ {
			digits = append(digits, '0')
		}
	case d.point > 0 && d.point < int64(d.n):
		p := body + int(d.point)
		digits = append(digits[:p], append([]byte{'.'}, digits[p:]...)...)
	case d.point <= 0 && d.point > -6:
		pre := make([]byte, 0, 2-int(d.point))
		pre = append(pre, '0', '.')
		for k := d.point; k < 0; k++ {
			pre = append(pre, '0')
		}
		digits = append(digits[:body], append(pre, digits[body:]...)...)
	default:
		// d1.d2…dn e(point-1)
		exp := d.point - 1
		if d.n > 1 {
			digits = append(digits[:body+1], append([]byte{'.'}, digits[body+1:]...)...)
		}
		digits = append(digits, 'e')
		if d.huge {
			e := d.bigPoint()
			digits = e.Sub(e, big.NewInt(1)).Append(digits, 10)
		} else {
			digits = appendInt(digits, exp)
		}
	}
	return string(digits)
}

func appendInt(dst []byte, i int64) []byte {
	if i < 0 {
		dst = append(dst, '-')
		i = -i
	}
	var buf [20]byte
	p := len(buf)
	for {
		p--
		buf[p] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return append(dst, buf[p:]...)
}
