package value

import (
	"strings"
	"testing"
)

// A Parser gives what ParseLimits gives, errors included, document after
// document with a Reset in between, for documents larger than its chunks,
// and a nil Parser as well.
func TestParser(t *testing.T) {
	docs := []string{
		`{"a":1,"b":[1,2,{"c":"d\u00e9"}],"e":"x\ny"}`,
		`[]`, `{}`, `"plain"`, `"esc\"aped"`, `[1,2,3]`,
		`{"a":1,"a":2}`, `{"a":NaN}`, `[1,2`, `"\ud800"`,
		`[` + strings.Repeat(`{"k":"v\t","n":[1,2,3]},`, 2000) + `{}]`,
		`{"s":"` + strings.Repeat(`\n`, 5000) + `"}`,
	}
	for _, p := range []*Parser{new(Parser), nil} {
		for round := range 3 {
			for _, d := range docs {
				want, werr := ParseLimits(d, DefaultLimits)
				got, gerr := p.Parse(d, DefaultLimits)
				if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
					t.Fatalf("nil %v, round %d, %.40s: error %v, want %v", p == nil, round, d, gerr, werr)
				}
				if !Equal(got, want) || got.String() != want.String() {
					t.Fatalf("nil %v, round %d, %.40s: got %s", p == nil, round, d, got)
				}
				p.Reset()
			}
		}
	}
}

// The Values of several Parses stay intact until Reset, as the engine
// needs for a response line and the arguments strings read out of it.
func TestParserKeepsValuesUntilReset(t *testing.T) {
	var p Parser
	for range 2 {
		var got []Value
		var want []string
		for i := range 500 {
			s := `{"n":` + strings.Repeat("[", i%5) + `"\u00e9` + strings.Repeat("x", i) + `"` + strings.Repeat("]", i%5) + `}`
			v, err := p.Parse(s, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			w, _ := Parse(s)
			got, want = append(got, v), append(want, w.String())
		}
		for i, v := range got {
			if v.String() != want[i] {
				t.Fatalf("document %d became %.60s", i, v)
			}
		}
		p.Reset()
	}
}

// Array and Object build what ArrayOf and ObjectOf do, from copies of
// their arguments, the scratch a reader of another syntax reuses.
func TestParserArrayObject(t *testing.T) {
	for _, p := range []*Parser{new(Parser), nil} {
		scratch := []Value{Int(1), StringOf("x")}
		a := p.Array(scratch)
		mems := []Member{{"b", a}, {"a", NullValue()}}
		o, err := p.Object(mems)
		scratch[0], mems[0] = BoolOf(true), Member{"c", BoolOf(false)}
		if err != nil || o.String() != `{"a":null,"b":[1,"x"]}` {
			t.Fatalf("nil %v: %s, %v", p == nil, o, err)
		}
		_, want := ObjectOf(Member{"k", NullValue()}, Member{"k", Int(2)})
		if _, err := p.Object([]Member{{"k", NullValue()}, {"k", Int(2)}}); err == nil || err.Error() != want.Error() {
			t.Fatalf("nil %v: a repeated key: %v, want %v", p == nil, err, want)
		}
		if e := p.Array(nil); e.Kind() != Array || e.Len() != 0 {
			t.Fatalf("nil %v: empty array %s", p == nil, e)
		}
		p.Reset()
	}
}
