package rulecore

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// FuzzCompare checks that any JSON value equals itself under the default
// rule and under rules that only loosen the comparison, and stays equal
// when its numbers are re-spelt (5 -> 5.0 -> 5e0), its object keys
// reordered and its strings re-escaped.
func FuzzCompare(f *testing.F) {
	for _, s := range []string{
		`{"city":"Berlin","unit":"celsius"}`,
		`{"a":[1,2.5,-0,1e400],"b":{"c":null,"d":true}}`,
		`[{"x":"Straße"},{"x":"e\u0301"}]`,
		`"just a string"`,
		`{"n":9007199254740993,"m":0.1e-7,"k":-12E+3}`,
	} {
		f.Add(s, uint8(0))
	}
	loose := []rs{
		call("*", `{"unordered":true,"case_insensitive":true,"normalize":["trim","collapse_space","nfc"]}`),
		call("*.#", `{"numeric":true,"unordered":true}`),
		call("*.*.*", `{"tolerance":0.001}`),
	}
	f.Fuzz(func(t *testing.T, text string, variant uint8) {
		v, err := value.Parse(text)
		if err != nil {
			return
		}
		respelt := respell(nil, v, &variant)
		w, err := value.Parse(string(respelt))
		if err != nil {
			t.Fatalf("re-spelt %s as %s, which does not parse: %v", text, respelt, err)
		}
		for _, set := range []*Set{newSet(t, rules.Extensions{}), newSet(t, rules.Extensions{}, loose...)} {
			for _, pair := range [][2]value.Value{{v, v}, {v, w}, {w, v}} {
				var diffs []Diff
				res := set.Compare(pair[0], pair[1], &Context{}, func(d Diff) { diffs = append(diffs, d) })
				if len(diffs) > 0 || res.Matched != res.Total {
					t.Fatalf("%s vs %s: %+v%s", pair[0], respelt, res, describeDiffs(diffs))
				}
			}
		}
	})
}

// respell appends v as JSON text that means the same but is written
// differently: numbers in another spelling, object members in another
// order, some characters escaped, white space added. variant picks the
// spellings and changes as it is used.
func respell(b []byte, v value.Value, variant *uint8) []byte {
	k := *variant
	*variant = k*31 + 7
	switch v.Kind() {
	case value.Number:
		return append(b, respellNumber(v.Str(), k%4)...)
	case value.String:
		return respellString(b, v.Str(), k)
	case value.Array:
		b = append(b, '[')
		for i, e := range v.Elems() {
			if i > 0 {
				b = append(b, " , "[k%2:]...)
			}
			b = respell(b, e, variant)
		}
		return append(b, ']')
	case value.Object:
		m := v.Members()
		b = append(b, '{')
		for i := range m {
			x := m[(i+int(k))%len(m)] // rotated: another order
			if k%3 == 0 {
				x = m[len(m)-1-i] // reversed
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = respellString(b, x.Key, k+1)
			b = append(b, " : "[k%2:2+k%2]...)
			b = respell(b, x.Value, variant)
		}
		return append(b, '}')
	}
	return v.AppendJSON(b)
}

func respellNumber(s string, k uint8) string {
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i:]
	}
	hasDot := strings.Contains(mant, ".")
	switch k {
	case 1: // 5 -> 5.0, 5.5 -> 5.50
		if hasDot {
			return mant + "0" + exp
		}
		return mant + ".0" + exp
	case 2: // 5 -> 5e0
		if exp == "" {
			return s + "e0"
		}
		return mant + "E" + exp[1:]
	case 3: // 5 -> 50e-1 (the value, not the float, is kept)
		if exp == "" && (mant == "0" || mant == "-0") {
			return s + "e-1" // 00 would be a leading zero
		}
		if exp == "" && !hasDot {
			return s + "0e-1"
		}
		if exp == "" {
			return s + "00E+0"
		}
	}
	return s
}

// respellString writes s as a JSON string, escaping some characters that
// need no escape.
func respellString(b []byte, s string, k uint8) []byte {
	if k%2 == 0 {
		return jsontext.AppendQuote(b, s)
	}
	q := jsontext.AppendQuote(nil, s)
	b = append(b, '"')
	body := q[1 : len(q)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\\' { // keep existing escapes as they are: \x or \uXXXX
			n := 2
			if body[i+1] == 'u' {
				n = 6
			}
			b = append(b, body[i:i+n]...)
			i += n - 1
			continue
		}
		if c < 0x80 && (c >= 'a' && c <= 'z' || c == '/') {
			b = append(b, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c&0xf))
			continue
		}
		b = append(b, c)
	}
	return append(b, '"')
}

func hexDigit(c byte) byte { return "0123456789abcdef"[c] }

func TestRespell(t *testing.T) {
	for _, tt := range []struct {
		s    string
		k    uint8
		want string
	}{
		{"5", 1, "5.0"}, {"5.5", 1, "5.50"}, {"5", 2, "5e0"}, {"5e3", 2, "5E3"}, {"5", 3, "50e-1"}, {"1.5", 3, "1.500E+0"}, {"1e3", 1, "1.0e3"}, {"-0", 3, "-0e-1"},
	} {
		got := respellNumber(tt.s, tt.k)
		if got != tt.want {
			t.Errorf("respellNumber(%s, %d) = %s, want %s", tt.s, tt.k, got, tt.want)
		}
		if number.Compare(got, tt.s) != 0 {
			t.Errorf("%s and %s differ", got, tt.s)
		}
	}
}
