package value

import (
	"errors"
	"strings"
	"testing"
)

// A Parser gives what parsing into memory of its own gives, errors included, document after
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
				want, werr := parseLimits(d, Limits{})
				got, gerr := p.Parse(d, Limits{})
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
		mems := []Member{{"b", a}, {"a", Value{}}}
		o, err := p.Object(mems)
		scratch[0], mems[0] = BoolOf(true), Member{"c", BoolOf(false)}
		if err != nil || o.String() != `{"a":null,"b":[1,"x"]}` {
			t.Fatalf("nil %v: %s, %v", p == nil, o, err)
		}
		_, want := ObjectOf(Member{"k", Value{}}, Member{"k", Int(2)})
		if _, err := p.Object([]Member{{"k", Value{}}, {"k", Int(2)}}); err == nil || err.Error() != want.Error() {
			t.Fatalf("nil %v: a repeated key: %v, want %v", p == nil, err, want)
		}
		if e := p.Array(nil); e.Kind() != Array || e.Len() != 0 {
			t.Fatalf("nil %v: empty array %s", p == nil, e)
		}
		p.Reset()
	}
}

// ParseKeepInvalidUTF8 keeps what is not UTF-8 as bytes that are not
// UTF-8 either, in keys and values, escaped or not, and refuses all else
// that Parse refuses.
func TestParseKeepInvalidUTF8(t *testing.T) {
	tests := []struct {
		in, key, want, err string
	}{
		{in: "{\"a\":\"x\xffy\"}", key: "a", want: "x\xffy"},
		{in: "{\"a\":\"\\n\xc3\"}", key: "a", want: "\n\xc3"},
		{in: `{"a":"\ud800"}`, key: "a", want: "\xed\xa0\x80"},
		{in: `{"a":"\ud83d\ude00 \udfff"}`, key: "a", want: "😀 \xed\xbf\xbf"},
		{in: "{\"k\xfe\":1}", key: "k\xfe", want: "1"},
		{in: `{"a":"ok"}`, key: "a", want: "ok"},
		{in: "{\"a\":\"\xff\",\"a\":1}", err: "duplicate key"},
		// The second key's offset is found past a value that is not UTF-8,
		// or holds a lone surrogate, as the document was read.
		{in: "{\"a\":\"\xff\",\"b\":1,\"b\":2}", err: "duplicate key at byte 15:"},
		{in: `{"a":"\ud800","b":1,"b":2}`, err: "duplicate key at byte 20:"},
		{in: "{\"a\":\"\xff\"", err: "invalid JSON"},
		{in: "{\"a\":\"\xff\",\"b\":NaN}", err: "non-finite number"},
		{in: `{"a":"\ud800\u12"}`, err: "invalid \\u escape"},
	}
	for _, p := range []*Parser{new(Parser), nil} {
		for _, tt := range tests {
			v, err := p.ParseKeepInvalidUTF8(tt.in, Limits{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%q: %v", tt.in, err)
			}
			got, _ := v.Get(tt.key)
			s := got.Str()
			if got.Kind() == Number {
				s = got.String()
			}
			if s != tt.want {
				t.Errorf("%q: %q is %q, want %q", tt.in, tt.key, s, tt.want)
			}
		}
	}
	// The same Parser parses strictly again afterwards.
	var p Parser
	p.ParseKeepInvalidUTF8(`"\ud800"`, Limits{})
	if _, err := p.Parse(`"\ud800"`, Limits{}); !errors.Is(err, ErrInvalidUTF8) {
		t.Errorf("Parse after ParseKeepInvalidUTF8: %v", err)
	}
}
