package value

// IsNumber reports whether s is exactly one JSON number literal: no sign
// but '-', no leading zeros, no white space.
func IsNumber(s string) bool {
	return s != "" && scanNumber(s, 0) == len(s)
}

// SameNumber reports whether two JSON number literals have the same exact
// decimal value, as CompareNumbers(a, b) == 0 does, but decides the common
// spellings without reading their digits as a decimal. Both must be valid
// literals.
func SameNumber(a, b string) bool {
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
	return CompareNumbers(a, b) == 0
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
