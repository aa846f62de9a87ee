package value_test

// These tests hold package value to what internal/jsonv does with its
// values (Identical, With, Without), which package value's own tests
// cannot import; the dot import keeps them reading as they did there.

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/jsonv"
	. "github.com/callgrade/callgrade/value"
)

// fuzzLimits are small so that the fuzzer reaches the limit paths, as in
// the package's own fuzz tests.
var fuzzLimits = Limits{MaxDepth: 10, MaxBytes: 2048}

func mustParse(t testing.TB, s string) Value {
	t.Helper()
	v, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return v
}

func mustGet(t *testing.T, v Value, k string) Value {
	t.Helper()
	x, ok := v.Get(k)
	if !ok {
		t.Fatalf("no %q in %v", k, v)
	}
	return x
}

// ---------------------------------------------------------------------------

func FuzzEqual(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, spell uint64) {
		v, err := (*Parser)(nil).Parse(string(data), fuzzLimits)
		if err != nil {
			return
		}
		if !Equal(v, v) {
			t.Fatalf("Equal(v, v) is false for %q", data)
		}
		r := NewRespeller(spell, spell>>7|1, spell&1 != 0, false)
		text := string(r.Emit(nil, v))
		w, err := Parse(text)
		if err != nil {
			t.Fatalf("re-spelt %q as %q, which does not parse: %v", data, text, err)
		}
		if !Equal(v, w) || !Equal(w, v) {
			t.Fatalf("re-spelt %q as %q: not Equal", v.String(), text)
		}

		// Changing one number's value, or adding a member, is noticed.
		r = NewRespeller(spell, 3, false, true)
		text = string(r.Emit(nil, v))
		if r.Perturbed() {
			w, err := Parse(text)
			if err != nil {
				t.Fatalf("perturbed %q as %q, which does not parse: %v", data, text, err)
			}
			if Equal(v, w) || Equal(w, v) {
				t.Fatalf("%q and %q are Equal", v.String(), text)
			}
		}
		if v.Kind() == Object && !v.Has("\x00extra") {
			if x := jsonv.With(v, "\x00extra", Value{}); Equal(v, x) || Equal(x, v) {
				t.Fatalf("adding a null member kept %q Equal", v.String())
			}
		}
	})
}

// FuzzIdentical holds Identical to its definition, the same compact JSON
// text (keys sorted, numbers as written), on documents and their
// re-spellings, and to Equal, which it implies.
func FuzzIdentical(f *testing.F) {
	for _, s := range []string{`{"a":5,"b":[1.0,"x"]}`, `[5e0, 5, 5.0]`, `{"k":{"z":null,"a":true}}`, `"\u00e9"`} {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, spell uint64) {
		v, err := (*Parser)(nil).Parse(string(data), fuzzLimits)
		if err != nil {
			return
		}
		if !jsonv.Identical(v, v) {
			t.Fatalf("Identical(v, v) is false for %q", data)
		}
		same, err := Parse(string(v.AppendJSON(nil)))
		if err != nil || !jsonv.Identical(v, same) || !jsonv.Identical(same, v) {
			t.Fatalf("%q and its own JSON text: not Identical (%v)", data, err)
		}
		for _, perturb := range []bool{false, true} {
			r := NewRespeller(spell, spell>>7|1, spell&1 != 0, perturb)
			w, err := Parse(string(r.Emit(nil, v)))
			if err != nil {
				t.Fatalf("re-spelt %q does not parse: %v", data, err)
			}
			want := string(v.AppendJSON(nil)) == string(w.AppendJSON(nil))
			if got := jsonv.Identical(v, w); got != want || jsonv.Identical(w, v) != want {
				t.Fatalf("Identical(%s, %s) = %v, want %v", v.String(), w.String(), got, want)
			}
			if want && !Equal(v, w) {
				t.Fatalf("%s and %s are Identical, not Equal", v.String(), w.String())
			}
		}
	})
}

// FuzzParseKeepInvalidUTF8 holds ParseKeepInvalidUTF8 to Parse: the same
// Value where Parse succeeds, the same error where Parse fails for another
// reason than UTF-8, and, where that was its reason, a document with a
// string that is still not UTF-8, so that nothing broken passes for valid.
func FuzzParseKeepInvalidUTF8(f *testing.F) {
	for _, s := range []string{`{"a":"\ud800"}`, "{\"a\xff\":\"b\xc3\"}", `["\udc00\ud83d\ude00"]`, `{"a":"\ud800","a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := string(data)
		want, werr := (*Parser)(nil).Parse(s, fuzzLimits)
		var p Parser
		got, gerr := p.ParseKeepInvalidUTF8(s, fuzzLimits)
		switch {
		case werr == nil:
			if gerr != nil || !jsonv.Identical(got, want) {
				t.Fatalf("Parse gives %s; ParseKeepInvalidUTF8 %s, %v", want, got, gerr)
			}
		case !errors.Is(werr, ErrInvalidUTF8):
			if gerr == nil || gerr.Error() != werr.Error() {
				t.Fatalf("Parse fails with %v; ParseKeepInvalidUTF8 with %v", werr, gerr)
			}
		case gerr == nil:
			if allValidUTF8(got) {
				t.Fatalf("Parse fails with %v; ParseKeepInvalidUTF8 gives %s, all of it UTF-8", werr, got)
			}
			if !json.Valid(data) {
				t.Fatalf("ParseKeepInvalidUTF8 accepts what encoding/json does not: %q", data)
			}
		}
		// The Parser's next strict parse is strict again.
		if _, err := p.Parse(s, fuzzLimits); (err == nil) != (werr == nil) {
			t.Fatalf("Parse after ParseKeepInvalidUTF8: %v, want %v", err, werr)
		}
	})
}

func allValidUTF8(v Value) bool {
	switch v.Kind() {
	case String:
		return utf8.ValidString(v.Str())
	case Array:
		for _, e := range v.Elems() {
			if !allValidUTF8(e) {
				return false
			}
		}
	case Object:
		for _, m := range v.Members() {
			if !utf8.ValidString(m.Key) || !allValidUTF8(m.Value) {
				return false
			}
		}
	}
	return true
}

func TestIdentical(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{`{"a":5,"b":"x"}`, `{"b":"x","a":5}`, true},
		{`5`, `5.0`, false},
		{`1e2`, `100`, false},
		{`-0`, `0`, false},
		{`"5"`, `5`, false},
		{`true`, `1`, false},
		{`null`, `null`, true},
		{`[]`, `{}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":[1,{"b":null}]}`, `{"a":[1,{"b":null}]}`, true},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`"\u00e9"`, `"é"`, true},
		{`9007199254740993`, `9007199254740992`, false},
	} {
		a, b := mustParse(t, tt.a), mustParse(t, tt.b)
		if got := jsonv.Identical(a, b); got != tt.want || jsonv.Identical(b, a) != tt.want {
			t.Errorf("Identical(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if tt.want && !Equal(a, b) {
			t.Errorf("%s and %s are Identical, not Equal", tt.a, tt.b)
		}
	}
}

// bigObject has n members k00…k(n-1) with values 0…n-1, built from members
// given in reverse order.
func bigObject(t testing.TB, n int) Value {
	t.Helper()
	var m []Member
	for i := n - 1; i >= 0; i-- {
		m = append(m, Member{Key: fmt.Sprintf("k%02d", i), Value: Int(int64(i))})
	}
	v, err := ObjectOf(m...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func keysOf(v Value) []string {
	var ks []string
	for _, m := range v.Members() {
		ks = append(ks, m.Key)
	}
	return ks
}

func TestObjectAccessLarge(t *testing.T) {
	for _, n := range []int{8, 9, 13, 40} { // 8 is the last linear size
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			v := bigObject(t, n)
			if v.Len() != n {
				t.Fatalf("Len = %d, want %d", v.Len(), n)
			}
			if !slices.IsSorted(keysOf(v)) {
				t.Fatalf("members not sorted: %v", keysOf(v))
			}
			for i := range n {
				k := fmt.Sprintf("k%02d", i)
				x, ok := v.Get(k)
				if !ok || x.String() != fmt.Sprint(i) {
					t.Errorf("Get(%s) = %v, %v; want %d", k, x, ok, i)
				}
				if !v.Has(k) {
					t.Errorf("Has(%s) = false", k)
				}
			}
			// Missing keys before the first, between two and after the last.
			for _, k := range []string{"", "a", "k", "k0", "k00x", "k05.5", "k99", "z", "\xff"} {
				if x, ok := v.Get(k); ok || !x.IsNull() {
					t.Errorf("Get(%q) = %v, %v; want missing", k, x, ok)
				}
				if v.Has(k) {
					t.Errorf("Has(%q) = true", k)
				}
			}
			before := v.String()

			// With adds in order, at the front, middle and end.
			for _, k := range []string{"a", "k03x", "z"} {
				w := jsonv.With(v, k, StringOf("new"))
				if w.Len() != n+1 || !slices.IsSorted(keysOf(w)) {
					t.Errorf("With(%s): keys %v", k, keysOf(w))
				}
				if x, ok := w.Get(k); !ok || x.Str() != "new" {
					t.Errorf("With(%s) then Get = %v, %v", k, x, ok)
				}
				for i := range n {
					if !w.Has(fmt.Sprintf("k%02d", i)) {
						t.Errorf("With(%s) lost k%02d", k, i)
					}
				}
			}
			// With replaces.
			w := jsonv.With(v, "k05", BoolOf(true))
			if x, _ := w.Get("k05"); w.Len() != n || !x.Bool() {
				t.Errorf("With(k05) replace: %v", w)
			}
			// Without removes, and does nothing for a missing key.
			w = jsonv.Without(v, "k07")
			if w.Len() != n-1 || w.Has("k07") || !w.Has("k06") || !w.Has("k08") && n > 8 {
				t.Errorf("Without(k07): %v", keysOf(w))
			}
			if w := jsonv.Without(v, "missing"); !Equal(w, v) {
				t.Errorf("Without(missing) changed the object")
			}
			// Round trip With then Without.
			if w := jsonv.Without(jsonv.With(v, "k03x", Value{}), "k03x"); !Equal(w, v) {
				t.Errorf("With then Without is not the original")
			}
			// The original is untouched.
			if after := v.String(); after != before {
				t.Errorf("object changed from %s to %s", before, after)
			}
			// Parsing the same members in another order gives the same tree.
			if p := mustParse(t, before); !Equal(p, v) {
				t.Errorf("Parse(%s) not Equal to ObjectOf", before)
			}
		})
	}
}

func TestWithOnParsedObject(t *testing.T) {
	// With must not write into the parsed object's backing array.
	v := mustParse(t, `{"a":1,"c":3,"e":5,"g":7,"i":9,"k":11,"m":13,"o":15,"q":17,"s":19}`)
	w1 := jsonv.With(v, "b", Int(2))
	w2 := jsonv.With(v, "d", Int(4))
	if w1.Has("d") || w2.Has("b") || v.Has("b") || v.Has("d") {
		t.Errorf("With shares memory: v=%v w1=%v w2=%v", v, w1, w2)
	}
	if jsonv.With(v, "a", Int(0)); mustGet(t, v, "a").Str() != "1" {
		t.Errorf("With replaced in place")
	}
}
