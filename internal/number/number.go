// Package number is the arithmetic of JSON number literals as decimal
// text: validity, exact comparison, the canonical spelling, tolerances and
// multiples. A literal is never read as a float64 here, so that 0.3 and
// 0.30000000000000004, or 9007199254740993 and 9007199254740992, are told
// apart on the digits written, as a model wrote them; package value and
// the rules compare numbers through it.
package number

// Valid reports whether s is exactly one JSON number literal: no sign
// but '-', no leading zeros, no white space.
func Valid(s string) bool {
	return s != "" && Scan(s, 0) == len(s)
}

// IsInteger reports whether the literal s has an integral value, whatever
// its spelling: 5, 5.0 and 5e0 are integers, 5.5 is not. s must be a
// valid literal.
func IsInteger(s string) bool {
	d := decompose(s)
	return d.isZero() || d.point >= int64(d.n)
}

// Same reports whether two JSON number literals have the same exact
// decimal value, as Compare(a, b) == 0 does, but decides the common
// spellings without reading their digits as a decimal. Both must be valid
// literals.
func Same(a, b string) bool {
	if a == b {
		return true
	}
	// Without an exponent, and with trailing fractional zeros dropped, a
	// literal spells its value one way only (but for -0).
	if x, ok := plainNumber(a); ok {
		if y, ok := plainNumber(b); ok && x != "-0" && y != "-0" {
			return x == y
		}
	}
	return Compare(a, b) == 0
}

// plainNumber drops the trailing fractional zeros (and a bare '.') of a
// literal without exponent; ok is false for a literal with one.
func plainNumber(s string) (_ string, ok bool) {
	dot := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'e', 'E':
			return "", false
		case '.':
			dot = true
		}
	}
	if !dot {
		return s, true
	}
	i := len(s)
	for s[i-1] == '0' {
		i--
	}
	if s[i-1] == '.' {
		i--
	}
	return s[:i], true
}

// Scan returns the length of the JSON number literal at s[i], or,
// when there is none, minus the offset from i of the first bad byte
// (0 when s[i] itself is bad).
func Scan(s string, i int) int {
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	switch {
	case j < len(s) && s[j] == '0':
		j++
	case j < len(s) && s[j] >= '1' && s[j] <= '9':
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	default:
		return i - j
	}
	if j < len(s) && s[j] == '.' {
		j++
		k := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == k {
			return i - j
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == k {
			return i - j
		}
	}
	return j - i
}
