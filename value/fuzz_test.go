package value

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/number"
)

// The seed corpora live in testdata/fuzz/<Target>/; crashers the fuzzer
// finds are kept there too, as regression tests.

// fuzzLimits are small so that the fuzzer reaches the limit paths.
var fuzzLimits = Limits{MaxDepth: 10, MaxBytes: 2048}

// allReasons are the errors a parse may give as Error.Err.
var allReasons = map[error]bool{
	ErrSyntax: true, ErrDuplicateKey: true, ErrNonFinite: true,
	ErrInvalidUTF8: true, ErrTooDeep: true, ErrTooLarge: true,
}

func FuzzParse(f *testing.F) {
	f.Fuzz(checkParse)
}

// checkParse is the body of FuzzParse.
func checkParse(t *testing.T, data []byte) {
	s := string(data)
	v, err := parseLimits(s, fuzzLimits)
	stdValid := json.Valid(data)

	if err != nil {
		pe := checkParseError(t, s, err)
		if pe.Err == ErrTooLarge {
			if len(s) <= fuzzLimits.MaxBytes {
				t.Fatalf("ErrTooLarge for %d bytes, limit %d", len(s), fuzzLimits.MaxBytes)
			}
			return
		}
		if len(s) > fuzzLimits.MaxBytes {
			t.Fatalf("%d bytes over the limit, but the error is %v", len(s), err)
		}
		// An error that is not about a limit happens before any limit
		// is reached, so the default limits must report the same one.
		if pe.Err != ErrTooDeep {
			_, err2 := Parse(s)
			var pe2 *Error
			if !errors.As(err2, &pe2) || pe2.Err != pe.Err || pe2.Offset != pe.Offset {
				t.Fatalf("small limits: %v; default limits: %v", err, err2)
			}
		}
		if !stdValid {
			return
		}
		// encoding/json accepts it: the only acceptable reasons are
		// the ones encoding/json does not check.
		info := scanTokens(t, data)
		switch pe.Err {
		case ErrDuplicateKey:
			if !info.dup {
				t.Fatalf("ErrDuplicateKey, but no object repeats a key: %v", err)
			}
		case ErrTooDeep:
			if info.depth <= fuzzLimits.MaxDepth {
				t.Fatalf("ErrTooDeep at depth %d, limit %d", info.depth, fuzzLimits.MaxDepth)
			}
		case ErrInvalidUTF8:
			if utf8.Valid(data) && !bytes.Contains(bytes.ToLower(data), []byte(`\ud`)) {
				t.Fatalf("ErrInvalidUTF8 on valid UTF-8 without surrogate escapes: %v", err)
			}
		default:
			t.Fatalf("encoding/json accepts %q, Parse says %v", s, err)
		}
		return
	}

	if !stdValid {
		t.Fatalf("Parse accepts %q, encoding/json does not", s)
	}
	info := scanTokens(t, data)
	if info.dup {
		t.Fatalf("Parse accepts duplicate keys in %q", s)
	}
	if info.depth > fuzzLimits.MaxDepth {
		t.Fatalf("Parse accepts depth %d over the limit %d", info.depth, fuzzLimits.MaxDepth)
	}

	// Printing and parsing again gives the same value and the same text.
	out := v.String()
	if !json.Valid([]byte(out)) {
		t.Fatalf("String() = %q is not valid JSON", out)
	}
	w, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(String()) of %q: %v (String %q)", s, err, out)
	}
	if !Equal(v, w) || !Equal(w, v) {
		t.Fatalf("not Equal after a round trip: %q -> %q", s, out)
	}
	if out2 := w.String(); out2 != out {
		t.Fatalf("String() not stable: %q then %q", out, out2)
	}
	if dv, err := Parse(s); err != nil || !Equal(dv, v) {
		t.Fatalf("default limits disagree: %v", err)
	}

	// encoding/json with UseNumber builds the same structure as Any.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var std any
	if err := dec.Decode(&std); err != nil {
		t.Fatalf("encoding/json Decode of valid %q: %v", s, err)
	}
	if !sameAny(std, toAny(v)) {
		t.Fatalf("encoding/json gives %#v, Any gives %#v", std, toAny(v))
	}
	// And FromAny takes Any back.
	back, err := FromAny(toAny(v))
	if err != nil || !Equal(back, v) {
		t.Fatalf("FromAny(toAny(v)) = %v, %v; want %v", back, err, v)
	}
}

// checkParseError checks the shape of every error Parse returns.
func checkParseError(t *testing.T, s string, err error) *Error {
	t.Helper()
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *Error", err, err)
	}
	sentinel := pe.Err
	if !allReasons[sentinel] {
		t.Fatalf("undefined reason %v in %v", pe.Err, err)
	}
	if !errors.Is(err, sentinel) {
		t.Fatalf("errors.Is(%v, %v) is false", err, sentinel)
	}
	if pe.Offset < 0 || pe.Offset > len(s) {
		t.Fatalf("offset %d outside [0, %d]: %v", pe.Offset, len(s), err)
	}
	if pe.Error() == "" || pe.Err.Error() == "" {
		t.Fatalf("empty error text for reason %v", pe.Err)
	}
	// The offset points at the culprit.
	at := byte(0)
	if pe.Offset < len(s) {
		at = s[pe.Offset]
	}
	switch pe.Err {
	case ErrTooDeep:
		if at != '[' && at != '{' {
			t.Fatalf("ErrTooDeep at %q, want a bracket: %v", at, err)
		}
	case ErrDuplicateKey:
		if at != '"' && at != '{' {
			t.Fatalf("ErrDuplicateKey at %q, want a key: %v", at, err)
		}
	case ErrNonFinite:
		if !strings.ContainsRune("NI+-", rune(at)) {
			t.Fatalf("ErrNonFinite at %q: %v", at, err)
		}
	case ErrInvalidUTF8:
		if at != '\\' && at < utf8.RuneSelf {
			t.Fatalf("ErrInvalidUTF8 at %q: %v", at, err)
		}
	}
	return pe
}

type tokenInfo struct {
	dup   bool // some object names a key twice
	depth int  // deepest nesting of arrays and objects
}

// scanTokens finds duplicate keys and the nesting depth of input that
// encoding/json accepts, with encoding/json's tokenizer.
func scanTokens(t *testing.T, data []byte) tokenInfo {
	t.Helper()
	type frame struct {
		obj       bool
		expectKey bool
		keys      map[string]bool
	}
	var info tokenInfo
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return info
		}
		if err != nil {
			t.Fatalf("encoding/json Token on valid input: %v", err)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if top != nil && top.obj {
			if top.expectKey {
				k := tok.(string)
				if top.keys[k] {
					info.dup = true
				}
				top.keys[k] = true
				top.expectKey = false
				continue
			}
			top.expectKey = true // after this value comes a key
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{obj: d == '{', expectKey: true, keys: map[string]bool{}})
			info.depth = max(info.depth, len(stack))
		}
	}
}

// sameAny compares what encoding/json decodes with UseNumber to Any.
func sameAny(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && number.Compare(string(x), string(y)) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameAny(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !sameAny(e, f) {
				return false
			}
		}
		return true
	}
	return false
}

// ---------------------------------------------------------------------------

// numParts is a JSON number literal in pieces; the exponent is kept as
// digits so that it can be any length.
type numParts struct {
	neg   bool
	int   string // digits, no leading zero unless it is "0"
	frac  string // digits, possibly empty
	exp   string // digits, possibly empty (no exponent)
	esign byte   // 0, '+' or '-'
	echar byte   // 'e' or 'E'
}

func (p numParts) String() string {
	var b strings.Builder
	if p.neg {
		b.WriteByte('-')
	}
	b.WriteString(p.int)
	if p.frac != "" {
		b.WriteByte('.')
		b.WriteString(p.frac)
	}
	if p.exp != "" {
		b.WriteByte(p.echar)
		if p.esign != 0 {
			b.WriteByte(p.esign)
		}
		b.WriteString(p.exp)
	}
	return b.String()
}

func digitsOnly(s string, limit int) string {
	b := make([]byte, 0, min(len(s), limit))
	for i := 0; i < len(s) && len(b) < limit; i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b = append(b, s[i])
		} else {
			b = append(b, '0'+s[i]%10)
		}
	}
	return string(b)
}

// makeNumber builds a valid literal from fuzzed parts.
func makeNumber(neg bool, intPart, frac, exp string, mode uint8) numParts {
	p := numParts{neg: neg, echar: 'e'}
	p.int = strings.TrimLeft(digitsOnly(intPart, 80), "0")
	if p.int == "" {
		p.int = "0"
	}
	p.frac = digitsOnly(frac, 80)
	p.exp = digitsOnly(exp, 40)
	switch mode % 3 {
	case 1:
		p.esign = '+'
	case 2:
		p.esign = '-'
	}
	if mode&4 != 0 {
		p.echar = 'E'
	}
	return p
}

// parseParts splits a valid literal.
func parseParts(s string) numParts {
	p := numParts{echar: 'e'}
	if strings.HasPrefix(s, "-") {
		p.neg, s = true, s[1:]
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		p.echar = s[i]
		p.exp = s[i+1:]
		s = s[:i]
		if p.exp[0] == '+' || p.exp[0] == '-' {
			p.esign, p.exp = p.exp[0], p.exp[1:]
		}
	}
	p.int, p.frac, _ = strings.Cut(s, ".")
	return p
}

// expInt is the exponent as an exact integer.
func (p numParts) expInt() *big.Int {
	e := new(big.Int)
	if p.exp != "" {
		e.SetString(p.exp, 10)
	}
	if p.esign == '-' {
		e.Neg(e)
	}
	return e
}

// withExp sets the exponent from an integer.
func (p numParts) withExp(e *big.Int) numParts {
	p.esign = 0
	if e.Sign() < 0 {
		p.esign = '-'
	}
	p.exp = new(big.Int).Abs(e).String()
	return p
}

// refCompare is an independent exact comparison: value = 0.D × 10^E with D
// free of leading and trailing zeros, E an unbounded integer.
func refCompare(a, b string) int {
	norm := func(s string) (neg bool, d string, e *big.Int) {
		p := parseParts(s)
		all := p.int + p.frac
		lead := len(all) - len(strings.TrimLeft(all, "0"))
		d = strings.TrimRight(strings.TrimLeft(all, "0"), "0")
		e = p.expInt()
		e.Add(e, big.NewInt(int64(len(p.int)-lead)))
		return p.neg && d != "", d, e
	}
	an, ad, ae := norm(a)
	bn, bd, be := norm(b)
	sign := func(neg bool, d string) int {
		switch {
		case d == "":
			return 0
		case neg:
			return -1
		}
		return 1
	}
	as, bs := sign(an, ad), sign(bn, bd)
	if as != bs || as == 0 {
		return cmpInt(as, bs)
	}
	c := ae.Cmp(be)
	if c == 0 {
		c = strings.Compare(ad, bd) // same length prefix order is digit order
	}
	return c * as
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func FuzzNumbers(f *testing.F) {
	f.Fuzz(func(t *testing.T, neg1 bool, int1, frac1, exp1 string, mode1 uint8,
		neg2 bool, int2, frac2, exp2 string, mode2 uint8, respell uint8) {
		pa := makeNumber(neg1, int1, frac1, exp1, mode1)
		pb := makeNumber(neg2, int2, frac2, exp2, mode2)
		// Often make b a different spelling of a, so that equal pairs
		// are common: shift the point and compensate in the exponent.
		switch respell % 4 {
		case 1: // D e (exp - len(frac)): 5.25 -> 525e-2
			q := pa
			q.int = strings.TrimLeft(pa.int+pa.frac, "0")
			if q.int == "" {
				q.int = "0"
			}
			q.frac = ""
			e := pa.expInt()
			e.Sub(e, big.NewInt(int64(len(pa.frac))))
			pb = q.withExp(e)
		case 2: // 0.D e (exp + len(int)): 5.25 -> 0.525e1
			q := pa
			q.int, q.frac = "0", pa.int+pa.frac
			e := pa.expInt()
			e.Add(e, big.NewInt(int64(len(pa.int))))
			pb = q.withExp(e)
		case 3: // trailing zeros: 5 -> 5.000
			pb = pa
			pb.frac += strings.Repeat("0", int(respell%7)+1)
		}
		a, b := pa.String(), pb.String()
		for _, lit := range []string{a, b} {
			if _, err := NumberOf(lit); err != nil {
				t.Fatalf("test bug: built an invalid literal %q: %v", lit, err)
			}
		}

		ab, ba := number.Compare(a, b), number.Compare(b, a)
		if ab != -ba || ab < -1 || ab > 1 {
			t.Fatalf("number.Compare(%s, %s) = %d but reversed = %d", a, b, ab, ba)
		}
		if number.Compare(a, a) != 0 || number.Compare(b, b) != 0 {
			t.Fatalf("CompareNumbers not reflexive for %s, %s", a, b)
		}
		if want := refCompare(a, b); ab != want {
			t.Fatalf("number.Compare(%s, %s) = %d, exact comparison gives %d", a, b, ab, want)
		}

		ca, cb := number.Canonical(a), number.Canonical(b)
		if (ab == 0) != (ca == cb) {
			t.Fatalf("number.Compare(%s, %s) = %d, canonical forms %s and %s", a, b, ab, ca, cb)
		}
		for _, c := range [][2]string{{a, ca}, {b, cb}} {
			lit, canon := c[0], c[1]
			v, err := Parse(canon)
			if err != nil || v.Kind() != Number {
				t.Fatalf("number.Canonical(%s) = %q does not parse as a number: %v", lit, canon, err)
			}
			if refCompare(lit, canon) != 0 {
				t.Fatalf("number.Canonical(%s) = %s changes the value", lit, canon)
			}
			if again := number.Canonical(canon); again != canon {
				t.Fatalf("CanonicalNumber not idempotent: %s -> %s -> %s", lit, canon, again)
			}
		}

		// big.Rat agrees when the exponents are of reasonable size.
		if smallExp(pa) && smallExp(pb) {
			ra, ok1 := new(big.Rat).SetString(a)
			rb, ok2 := new(big.Rat).SetString(b)
			if !ok1 || !ok2 {
				t.Fatalf("big.Rat cannot read %s or %s", a, b)
			}
			if want := ra.Cmp(rb); ab != want {
				t.Fatalf("number.Compare(%s, %s) = %d, big.Rat says %d", a, b, ab, want)
			}
			va, _ := NumberOf(a)
			if number.IsInteger(va.Str()) != ra.IsInt() {
				t.Fatalf("IsInteger(%s) = %v, big.Rat says %v", a, number.IsInteger(va.Str()), ra.IsInt())
			}
		}
	})
}

func smallExp(p numParts) bool {
	e := p.expInt()
	return e.CmpAbs(big.NewInt(1000)) < 0
}

// respeller writes a Value as JSON text that means the same: object keys in
// reverse order, each number spelt one of several equal ways, strings
// escaped differently, optional whitespace. With perturb it changes the
// value of the first number instead.
type respeller struct {
	rng       *rand.Rand
	pretty    bool
	perturb   bool
	perturbed bool
}

func (r *respeller) ws(dst []byte, depth int) []byte {
	if !r.pretty {
		return dst
	}
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', '\t')
	}
	return dst
}

func (r *respeller) emit(dst []byte, v Value, depth int) []byte {
	switch v.Kind() {
	case Number:
		return append(dst, r.number(v.Str())...)
	case String:
		return r.quote(dst, v.Str())
	case Array:
		dst = append(dst, '[')
		for i, e := range v.Elems() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = r.ws(dst, depth+1)
			dst = r.emit(dst, e, depth+1)
		}
		dst = r.ws(dst, depth)
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		m := v.Members()
		for i := len(m) - 1; i >= 0; i-- {
			if i < len(m)-1 {
				dst = append(dst, ',')
			}
			dst = r.ws(dst, depth+1)
			dst = r.quote(dst, m[i].Key)
			dst = append(dst, ':')
			dst = r.emit(dst, m[i].Value, depth+1)
		}
		dst = r.ws(dst, depth)
		return append(dst, '}')
	}
	return v.AppendJSON(dst) // null, true, false
}

// number returns an equal spelling of lit, chosen at random:
// 5 -> 5.0 -> 5e0 -> 50e-1 -> 0.5e1.
func (r *respeller) number(lit string) string {
	p := parseParts(lit)
	if r.perturb {
		if r.perturbed {
			return lit
		}
		r.perturbed = true
		p.frac += "01" // adds 10^(exp-len(frac)-2), never zero
		return p.String()
	}
	switch r.rng.IntN(6) {
	case 0:
		return lit
	case 1: // more fraction digits
		p.frac += strings.Repeat("0", 1+r.rng.IntN(3))
	case 2: // an explicit zero exponent, or more digits in it
		if p.exp == "" {
			p.exp, p.esign = "0", "\x00+-"[r.rng.IntN(3)]
			if p.esign == 0 && r.rng.IntN(2) == 0 {
				p.echar = 'E'
			}
		} else {
			p.exp = "0" + p.exp
		}
	case 3: // an integer mantissa with zeros: 5 -> 50e-1, 5.25 -> 5250e-3
		zeros := 1 + r.rng.IntN(3)
		e := p.expInt()
		e.Sub(e, big.NewInt(int64(len(p.frac)+zeros)))
		p.int = strings.TrimLeft(p.int+p.frac+strings.Repeat("0", zeros), "0")
		if p.int == "" {
			p.int = "0"
		}
		p.frac = ""
		p = p.withExp(e)
	case 4: // 0.D: 5 -> 0.5e1
		e := p.expInt()
		e.Add(e, big.NewInt(int64(len(p.int))))
		p.int, p.frac = "0", p.int+p.frac
		p = p.withExp(e)
	case 5:
		return number.Canonical(lit)
	}
	return p.String()
}

// quote escapes differently from AppendQuote: \/ for '/', \u escapes
// (surrogate pairs beyond the BMP) for some runes.
func (r *respeller) quote(dst []byte, s string) []byte {
	if r.perturb || r.rng.IntN(3) == 0 {
		return jsontext.AppendQuote(dst, s)
	}
	dst = append(dst, '"')
	for _, c := range s {
		switch {
		case c == '/':
			dst = append(dst, '\\', '/')
		case c == '"' || c == '\\':
			dst = append(dst, '\\', byte(c))
		case c < 0x20 || (c >= utf8.RuneSelf && r.rng.IntN(2) == 0) || r.rng.IntN(8) == 0:
			if c > 0xFFFF {
				hi, lo := utf16.EncodeRune(c)
				dst = appendU(appendU(dst, hi), lo)
			} else {
				dst = appendU(dst, c)
			}
		default:
			dst = utf8.AppendRune(dst, c)
		}
	}
	return append(dst, '"')
}

func appendU(dst []byte, c rune) []byte {
	h := strconv.FormatInt(int64(c)|0x10000, 16)[1:]
	return append(append(dst, '\\', 'u'), strings.ToUpper(h)...)
}
