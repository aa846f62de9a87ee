package value

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/number"
)

func mustParse(t testing.TB, s string) Value {
	t.Helper()
	v, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return v
}

func TestFromAny(t *testing.T) {
	when := time.Date(2024, 6, 1, 10, 5, 0, 123000000, time.FixedZone("CEST", 2*3600))
	type (
		stringSlice []string
		intMap      map[string]int
	)
	tests := []struct {
		name string
		in   any
		want string // JSON text of the result
	}{
		{"nil", nil, `null`},
		{"Value", mustParse(t, `{"a":[1.50]}`), `{"a":[1.50]}`},
		{"true", true, `true`},
		{"false", false, `false`},
		{"string", "Zoë \"q\"\n", `"Zoë \"q\"\n"`},
		{"empty string", "", `""`},
		{"json.Number", json.Number("1.50e3"), `1.50e3`},
		{"int", 42, `42`},
		{"negative int", -7, `-7`},
		{"int64 min", int64(math.MinInt64), `-9223372036854775808`},
		{"int32", int32(-2147483648), `-2147483648`},
		{"int16", int16(-32768), `-32768`},
		{"int8", int8(-128), `-128`},
		{"uint", uint(7), `7`},
		{"uint8", uint8(255), `255`},
		{"uint16", uint16(65535), `65535`},
		{"uint32", uint32(4294967295), `4294967295`},
		{"uint64 max", uint64(math.MaxUint64), `18446744073709551615`},
		{"uintptr", uintptr(9), `9`},
		{"float64", 0.1, `0.1`},
		{"float64 integral", 5.0, `5`},
		{"float64 large", 1e21, `1e+21`},
		{"float64 small", 1e-7, `1e-07`},
		{"float64 negative zero", math.Copysign(0, -1), `-0`},
		{"float64 max", math.MaxFloat64, `1.7976931348623157e+308`},
		{"float32", float32(0.5), `0.5`},
		{"time.Time", when, `"2024-06-01T10:05:00.123+02:00"`},
		{"[]any", []any{1, "a", nil, true, 2.5, []any{}}, `[1,"a",null,true,2.5,[]]`},
		{"empty []any", []any{}, `[]`},
		{"map[string]any", map[string]any{"b": 1, "a": []any{map[string]any{"z": nil, "y": false}}},
			`{"a":[{"y":false,"z":null}],"b":1}`},
		{"empty map", map[string]any{}, `{}`},
		{"[]int", []int{3, 1, 2}, `[3,1,2]`},
		{"[]string", []string{"x", "y"}, `["x","y"]`},
		{"[]float64", []float64{0.25, 1}, `[0.25,1]`},
		{"array", [2]int8{-1, 1}, `[-1,1]`},
		{"[][]int", [][]int{{1}, {}, {2, 3}}, `[[1],[],[2,3]]`},
		{"[]map", []map[string]bool{{"ok": true}}, `[{"ok":true}]`},
		{"map[string]int", map[string]int{"b": 2, "a": 1, "c": 3}, `{"a":1,"b":2,"c":3}`},
		{"map[string][]string", map[string][]string{"k": {"v1", "v2"}}, `{"k":["v1","v2"]}`},
		{"map[string]map[string]float64", map[string]map[string]float64{"o": {"x": 1.5}}, `{"o":{"x":1.5}}`},
		{"named slice type", stringSlice{"p"}, `["p"]`},
		{"named map type", intMap{"n": 1}, `{"n":1}`},
		{"large map sorted", func() map[string]any {
			m := map[string]any{}
			for i := range 20 {
				m[fmt.Sprintf("k%02d", 19-i)] = i
			}
			return m
		}(), `{"k00":19,"k01":18,"k02":17,"k03":16,"k04":15,"k05":14,"k06":13,"k07":12,"k08":11,"k09":10,"k10":9,"k11":8,"k12":7,"k13":6,"k14":5,"k15":4,"k16":3,"k17":2,"k18":1,"k19":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := FromAny(tt.in)
			if err != nil {
				t.Fatalf("FromAny(%#v): %v", tt.in, err)
			}
			if got := v.String(); got != tt.want {
				t.Errorf("FromAny(%#v) = %s, want %s", tt.in, got, tt.want)
			}
			// The result is what parsing the same text gives.
			if w := mustParse(t, tt.want); !Equal(v, w) {
				t.Errorf("FromAny(%#v) is not Equal to Parse(%s)", tt.in, tt.want)
			}
		})
	}
}

func TestFromAnyErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       any
		sentinel error  // errors.Is target, or nil for a plain error
		contains string // in the message
	}{
		{"NaN", math.NaN(), ErrNonFinite, "NaN"},
		{"+Inf", math.Inf(1), ErrNonFinite, "+Inf"},
		{"-Inf", math.Inf(-1), ErrNonFinite, "-Inf"},
		{"float32 Inf", float32(math.Inf(1)), ErrNonFinite, "+Inf"},
		{"NaN in slice", []any{1, math.NaN()}, ErrNonFinite, "[1]"},
		{"Inf in map", map[string]any{"price": math.Inf(-1)}, ErrNonFinite, "price"},
		{"NaN deep", map[string]any{"a": []any{map[string]any{"b": math.NaN()}}}, ErrNonFinite, "a: [0]: b"},
		{"NaN in typed slice", []float64{1, math.NaN()}, ErrNonFinite, "[1]"},
		{"NaN in typed map", map[string]float32{"x": float32(math.NaN())}, ErrNonFinite, "x"},
		{"invalid json.Number", json.Number("1."), ErrSyntax, "1."},
		{"empty json.Number", json.Number(""), ErrSyntax, ""},
		{"struct", struct{ A int }{1}, nil, "cannot use struct"},
		{"pointer", new(int), nil, "cannot use *int"},
		{"int keys", map[int]string{1: "a"}, nil, "cannot use map[int]string"},
		{"channel", make(chan int), nil, "cannot use chan int"},
		{"func", func() {}, nil, "cannot use func()"},
		{"complex", complex(1, 2), nil, "cannot use complex128"},
		{"unsupported in slice", []any{struct{}{}}, nil, "[0]: cannot use struct {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := FromAny(tt.in)
			if err == nil {
				t.Fatalf("FromAny(%#v) = %v, want an error", tt.in, v)
			}
			if tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Errorf("FromAny(%#v) error = %v, want %v", tt.in, err, tt.sentinel)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("FromAny(%#v) error = %q, want it to contain %q", tt.in, err, tt.contains)
			}
		})
	}
}

func TestAny(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`null`, nil},
		{`true`, true},
		{`false`, false},
		{`1.50e3`, json.Number("1.50e3")},
		{`-0`, json.Number("-0")},
		{`"x\u00e9"`, "xé"},
		{`[]`, []any{}},
		{`{}`, map[string]any{}},
		{`[1,"a",null,[true]]`, []any{json.Number("1"), "a", nil, []any{true}}},
		{`{"b":{"c":[{}]},"a":1e400}`, map[string]any{"a": json.Number("1e400"), "b": map[string]any{"c": []any{map[string]any{}}}}},
	}
	for _, tt := range tests {
		v := mustParse(t, tt.in)
		got := toAny(v)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("toAny(Parse(%s)) = %#v, want %#v", tt.in, got, tt.want)
		}
		// It is what encoding/json decodes with UseNumber.
		dec := json.NewDecoder(strings.NewReader(tt.in))
		dec.UseNumber()
		var std any
		if err := dec.Decode(&std); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, std) {
			t.Errorf("toAny(Parse(%s)) = %#v, encoding/json gives %#v", tt.in, got, std)
		}
		// And FromAny takes it back.
		if back, err := FromAny(got); err != nil || !Equal(back, v) {
			t.Errorf("FromAny(toAny(Parse(%s))) = %v, %v", tt.in, back, err)
		}
	}
	// The zero Value is null.
	if got := toAny(Value{}); got != nil {
		t.Errorf("toAny(Value{}) = %#v, want nil", got)
	}
}

func mustGet(t *testing.T, v Value, k string) Value {
	t.Helper()
	x, ok := v.Get(k)
	if !ok {
		t.Fatalf("no %q in %v", k, v)
	}
	return x
}

func TestAppendQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`"`, `"\""`},
		{`\`, `"\\"`},
		{"/", `"/"`},
		{"\n\r\t", `"\n\r\t"`},
		{"\x00", `"\u0000"`},
		{"\x01\x02\x03\x04\x05\x06\x07", `"\u0001\u0002\u0003\u0004\u0005\u0006\u0007"`},
		{"\x0b\x0e\x0f", `"\u000b\u000e\u000f"`},
		{"\x10\x1a\x1b\x1f", `"\u0010\u001a\u001b\u001f"`},
		{" ~\x7f", "\" ~\x7f\""}, // DEL is not a control character for JSON
		{"<&>", `"<&>"`},         // no HTML escaping
		{"é😀", `"é😀"`},
		{"a\x00b\"c", `"a\u0000b\"c"`},
	}
	// Invalid UTF-8, which only a hand-built Value can hold, is written as
	// U+FFFD so that the output stays JSON.
	for in, want := range map[string]string{"a\xffb": `"a\ufffdb"`, "\xed\xa0\x80": `"\ufffd\ufffd\ufffd"`, "\xc3": `"\ufffd"`, "é\x80": `"é\ufffd"`} {
		if got := string(jsontext.AppendQuote(nil, in)); got != want {
			t.Errorf("jsontext.AppendQuote(%q) = %s, want %s", in, got, want)
		}
	}
	for _, tt := range tests {
		got := string(jsontext.AppendQuote([]byte("prefix:"), tt.in))
		if got != "prefix:"+tt.want {
			t.Errorf("jsontext.AppendQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
		var back string
		if err := json.Unmarshal([]byte(tt.want), &back); err != nil || back != tt.in {
			t.Errorf("encoding/json reads %s as %q, %v; want %q", tt.want, back, err, tt.in)
		}
		if v, err := Parse(tt.want); err != nil || v.Str() != tt.in {
			t.Errorf("Parse(%s) = %q, %v; want %q", tt.want, v.Str(), err, tt.in)
		}
	}
	// Every byte below 0x20 is escaped (\b and \f in either spelling, see
	// TestBugAppendQuoteEncodingJSON), and reads back.
	for c := range byte(0x20) {
		in := "x" + string([]byte{c}) + "y"
		q := string(jsontext.AppendQuote(nil, in))
		if strings.IndexFunc(q, func(r rune) bool { return r < 0x20 }) >= 0 {
			t.Errorf("jsontext.AppendQuote(%q) = %q leaves a control character", in, q)
		}
		if v, err := Parse(q); err != nil || v.Str() != in {
			t.Errorf("Parse(jsontext.AppendQuote(%q)) = %q, %v", in, v.Str(), err)
		}
	}
}

func TestFromAnyFloat32(t *testing.T) {
	// The shortest spelling of the float32, as encoding/json writes it, so
	// that float32(0.1) is Equal to the 0.1 a model writes.
	for _, tt := range []struct {
		in   float32
		want string
	}{{0.1, "0.1"}, {3.14, "3.14"}, {1e-7, "1e-7"}, {16777216, "16777216"}, {math.MaxFloat32, "3.4028235e38"}, {-0.5, "-0.5"}} {
		v, err := FromAny(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if w, _ := NumberOf(tt.want); !Equal(v, w) {
			t.Errorf("FromAny(float32(%v)) = %v, want %s", tt.in, v, tt.want)
		}
	}
}

// FuzzNumberOf holds NumberOf to number.Valid: it accepts exactly the
// literals the number arithmetic is defined on.
func FuzzNumberOf(f *testing.F) {
	for _, s := range []string{"5", "5.000", "-0.0", "1e1", "01", "5.", "+5", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := NumberOf(s); number.Valid(s) != (err == nil) {
			t.Fatalf("number.Valid(%q) = %v, NumberOf: %v", s, number.Valid(s), err)
		}
	})
}

func TestNumberOf(t *testing.T) {
	for _, ok := range []string{"0", "-0", "5", "-0.25", "1e400", "1E+2", "1e-07", "0.0", "123456789012345678901234567890"} {
		v, err := NumberOf(ok)
		if err != nil || v.Kind() != Number || v.Str() != ok || v.String() != ok {
			t.Errorf("NumberOf(%q) = %v, %v", ok, v, err)
		}
	}
	for _, bad := range []string{"", " ", "+1", "01", "-01", "1.", ".5", "-", "-.5", "1e", "1e+", "1.e5", "NaN", "Infinity", "-Infinity",
		" 1", "1 ", "0x10", "1.5.5", "--1", "1_000", "١", "5a", "true", `"5"`} {
		v, err := NumberOf(bad)
		if err == nil {
			t.Errorf("NumberOf(%q) = %v, want an error", bad, v)
			continue
		}
		var pe *Error
		if !errors.Is(err, ErrSyntax) || !errors.As(err, &pe) {
			t.Errorf("NumberOf(%q) error = %v, want ErrSyntax", bad, err)
			continue
		}
		if pe.Offset < 0 || pe.Offset > len(bad) {
			t.Errorf("NumberOf(%q) offset %d out of range", bad, pe.Offset)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) {
			t.Errorf("NumberOf(%q) error %q does not quote the input", bad, err)
		}
		if !v.IsNull() {
			t.Errorf("NumberOf(%q) value = %v on error", bad, v)
		}
	}
}

func TestObjectOf(t *testing.T) {
	in := []Member{{"b", Int(2)}, {"a", Int(1)}}
	v, err := ObjectOf(in...)
	if err != nil || v.String() != `{"a":1,"b":2}` {
		t.Fatalf("ObjectOf = %v, %v", v, err)
	}
	if in[0].Key != "b" {
		t.Errorf("ObjectOf sorted its argument in place")
	}
	if v, err := ObjectOf(); err != nil || v.Kind() != Object || v.String() != "{}" {
		t.Errorf("ObjectOf() = %v, %v", v, err)
	}

	for _, ms := range [][]Member{
		{{"a", Int(1)}, {"a", Int(1)}},
		{{"x", Int(1)}, {"y", Int(2)}, {"x", StringOf("other")}},
		{{"", Value{}}, {"", Value{}}},
		func() []Member { // the sorted path beyond 12 members
			var m []Member
			for i := range 20 {
				m = append(m, Member{Key: fmt.Sprint(i % 17), Value: Int(int64(i))})
			}
			return m
		}(),
	} {
		v, err := ObjectOf(ms...)
		if !errors.Is(err, ErrDuplicateKey) {
			t.Errorf("ObjectOf(%v) = %v, %v; want ErrDuplicateKey", ms, v, err)
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) || pe.Offset != -1 || pe.Err != ErrDuplicateKey {
			t.Errorf("ObjectOf error = %+v, want offset -1", pe)
		}
		if strings.Contains(err.Error(), "at byte") || !strings.HasPrefix(err.Error(), "duplicate key") {
			t.Errorf("ObjectOf error text = %q", err)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{
		Null: "null", Bool: "boolean", Number: "number", String: "string", Array: "array", Object: "object",
		Kind(6): "kind(6)", Kind(255): "kind(255)",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(k), got, want)
		}
	}
	for in, want := range map[string]Kind{`null`: Null, `false`: Bool, `0`: Number, `""`: String, `[]`: Array, `{}`: Object} {
		if got := mustParse(t, in).Kind(); got != want {
			t.Errorf("Parse(%s).Kind() = %v, want %v", in, got, want)
		}
	}
}

func TestReasonAndErrorText(t *testing.T) {
	for r, want := range map[error]string{
		ErrSyntax: "invalid JSON", ErrDuplicateKey: "duplicate key", ErrNonFinite: "non-finite number",
		ErrInvalidUTF8: "invalid UTF-8", ErrTooDeep: "nesting too deep", ErrTooLarge: "input too large",
	} {
		if got := r.Error(); got != want {
			t.Errorf("%v.Error() = %q, want %q", r, got, want)
		}
		if got := (&Error{Err: r, Offset: -1}).Error(); got != want {
			t.Errorf("Error{Err: %v}.Error() = %q, want %q", r, got, want)
		}
		if !(&Error{Err: r}).Is(r) {
			t.Errorf("Error{%v}.Is(sentinel) is false", r)
		}
	}
	if got := (&Error{Err: ErrSyntax, Offset: 3, Detail: "x"}).Error(); got != "invalid JSON at byte 3: x" {
		t.Errorf("Error() = %q", got)
	}
	if got := (&Error{Err: ErrNonFinite, Offset: -1}).Error(); got != "non-finite number" {
		t.Errorf("Error() = %q", got)
	}
	if errors.Is(&Error{Err: ErrSyntax}, ErrDuplicateKey) {
		t.Errorf("a syntax error Is ErrDuplicateKey")
	}
}

func TestAccessors(t *testing.T) {
	v := mustParse(t, `{"n":1.5,"s":"x","b":true,"a":[1,2],"z":null}`)
	if n := mustGet(t, v, "n"); n.Str() != "1.5" || n.Bool() || n.Len() != 0 {
		t.Errorf("number accessors: %q %v %d", n.Str(), n.Bool(), n.Len())
	}
	if f, ok := mustGet(t, v, "n").Float(); !ok || f != 1.5 {
		t.Errorf("Float = %v, %v", f, ok)
	}
	if _, ok := mustGet(t, v, "s").Float(); ok {
		t.Errorf("Float of a string is ok")
	}
	if a := mustGet(t, v, "a"); a.Len() != 2 || len(a.Elems()) != 2 || a.Members() != nil {
		t.Errorf("array accessors: %v", a)
	}
	if !mustGet(t, v, "z").IsNull() || !mustGet(t, v, "b").Bool() || mustGet(t, v, "s").Str() != "x" {
		t.Errorf("scalar accessors")
	}
	for in, want := range map[string]float64{"1e400": math.Inf(1), "-1e400": math.Inf(-1), "1e-400": 0, "9007199254740993": 9007199254740992} {
		n, _ := NumberOf(in)
		if f, ok := n.Float(); !ok || f != want {
			t.Errorf("Float(%s) = %v, %v; want %v", in, f, ok, want)
		}
	}
	// MarshalJSON lets a Value sit inside encoded structs.
	out, err := json.Marshal(struct {
		V Value `json:"v"`
	}{v})
	if err != nil || string(out) != `{"v":{"a":[1,2],"b":true,"n":1.5,"s":"x","z":null}}` {
		t.Errorf("json.Marshal = %s, %v", out, err)
	}
}

// toAny converts v to the Go values encoding/json decodes into with
// UseNumber: nil, bool, json.Number, string, []any and map[string]any; the
// tests hold Values to encoding/json's reading of the same text with it.
func toAny(v Value) any {
	switch v.kind {
	case Null:
		return nil
	case Bool:
		return v.b
	case Number:
		return json.Number(v.str())
	case String:
		return v.str()
	case Array:
		out := make([]any, len(v.elems()))
		for i, e := range v.elems() {
			out[i] = toAny(e)
		}
		return out
	default:
		out := make(map[string]any, len(v.members()))
		for _, m := range v.members() {
			out[m.Key] = toAny(m.Value)
		}
		return out
	}
}
