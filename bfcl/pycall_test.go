package bfcl

import (
	"errors"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/pycall"
)

func TestParsePythonCalls(t *testing.T) {
	tests := []struct{ src, want string }{
		{`[f(a=1, b="x")]`, `f{"a":1,"b":"x"}`},
		{`f(a=1)`, `f{"a":1}`},
		{`[]`, ``},
		{` [ math.hypot( x = 4 , y=5.0, ) , g() ] `, `math.hypot{"x":4,"y":5.0} g{}`},
		{`[f(a=-3, b=+2, c=- 1.5, d=1e5, e=.5, f=5., g=1_000, h=0x1F, i=0o17, j=0b11, k=1E-3)]`,
			`f{"a":-3,"b":2,"c":-1.5,"d":1.0e5,"e":0.5,"f":5.0,"g":1000,"h":31,"i":15,"j":3,"k":1.0e-3}`},
		{`[f(a=True, b=False, c=None)]`, `f{"a":true,"b":false,"c":null}`},
		{`[f(a=[1, [2, 3]], b=(1, 2), c=(1,), d=(5), e=())]`, `f{"a":[1,[2,3]],"b":[1,2],"c":[1],"d":5,"e":[]}`},
		{`[f(a={'k': 'v', "n": [1]}, b={})]`, `f{"a":{"k":"v","n":[1]},"b":{}}`},
		{`[f(a='it\'s', b="tab\there", c='\x41\u00e9\U0001F600', d=r'\d+', e='a' "b" 'c', f='''x'y''', g=u'u', h='\101')]`,
			`f{"a":"it's","b":"tab\there","c":"Aé😀","d":"\\d+","e":"abc","f":"x'y","g":"u","h":"A"}`},
		{"[f(a='x',\n  b=2)]  # a comment", `f{"a":"x","b":2}`},
		{`[f(a=99999999999999999999999)]`, `f{"a":99999999999999999999999}`},
		{`[f(a='\q')]`, `f{"a":"\\q"}`},
	}
	for _, tt := range tests {
		calls, err := parsePython(tt.src)
		if err != nil {
			t.Errorf("ParsePythonCalls(%q): %v", tt.src, err)
			continue
		}
		var parts []string
		for _, c := range calls {
			parts = append(parts, c.Name+c.Args.String())
		}
		if got := strings.Join(parts, " "); got != tt.want {
			t.Errorf("ParsePythonCalls(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

// TestParsePythonCallsMessage: a list of calls reads in order, and an
// error says where and why, as the message of an undecodable result does.
func TestParsePythonCallsMessage(t *testing.T) {
	calls, err := parsePython(`[get_weather(city="Berlin", days=3), get_time(tz='CET')]`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		got = append(got, c.Name+" "+c.Args.String())
	}
	if want := `get_weather {"city":"Berlin","days":3}|get_time {"tz":"CET"}`; strings.Join(got, "|") != want {
		t.Errorf("read %q, want %q", strings.Join(got, "|"), want)
	}
	_, err = parsePython(`f(1)`)
	if want := "line 1, column 3: call of f: expected a keyword argument name=value (positional arguments are not supported)"; err == nil || err.Error() != want {
		t.Errorf("f(1): error %v, want %q", err, want)
	}
}

func TestParsePythonCallsErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{`[f(1)]`, 1, 4, "positional"},
		{`[f(a=x)]`, 1, 6, "the name x is not a literal"},
		{`[f(a=g(b=1))]`, 1, 6, "a call or an attribute"},
		{`[f(a=1, a=2)]`, 1, 9, "repeated"},
		{`[f(a=1 + 2)]`, 1, 8, "expected ',' or ')'"},
		{`[f(a="x)]`, 1, 6, "string never closed"},
		{"[f(a=\"x\n\")]", 1, 6, "not closed on its line"},
		{`[f(a=[1, 2)]`, 1, 11, "expected ',' or ']'"},
		{`[f(a={1: 2})]`, 1, 7, "dict key must be a string"},
		{`[f(a=1j)]`, 1, 6, "complex"},
		{`[f(a=float('inf'))]`, 1, 6, "a call or an attribute"},
		{`[f(a=f'{x}')]`, 1, 6, "f-strings"},
		{`[f(a=1)`, 1, 8, "expected ',' or ']'"},
		{`[f(a=1)] x`, 1, 10, "unexpected"},
		{"[f(a=1,\n   b=)]", 2, 6, "expected a value"},
		{`f`, 1, 1, "without arguments"},
		{``, 1, 1, "expected a function name"},
		{`[f(a=007)]`, 1, 6, "leading zeros"},
		{`[f(a=1__0)]`, 1, 6, "invalid number"},
		{`[f(a=[` + strings.Repeat("[", 300) + `)]`, 1, 262, "nested deeper"},
	}
	for _, tt := range tests {
		_, err := parsePython(tt.src)
		var se *pycall.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParsePythonCalls(%q): error %v, want a SyntaxError", tt.src, err)
			continue
		}
		if se.Line != tt.line || se.Column != tt.col || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParsePythonCalls(%q): %v, want line %d, column %d, %q", tt.src, err, tt.line, tt.col, tt.msg)
		}
	}
}

// FuzzParsePythonCalls checks that the parser never panics, that an error
// is always a SyntaxError inside the text, and that what it reads can be
// written back and read again to the same calls.
func FuzzParsePythonCalls(f *testing.F) {
	for _, s := range []string{`[f(a=1, b="x")]`, `[g.h(c=[1, (2, 3)], d={'k': None})]`, `f(a=-1.5e3)`, `[f(a='\x41' "b")]`, `[f(a=1)`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		calls, err := parsePython(src)
		if err != nil {
			var se *pycall.SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(src) || se.Line < 1 || se.Column < 1 {
				t.Fatalf("ParsePythonCalls(%q): %#v", src, err)
			}
			return
		}
		var b strings.Builder
		b.WriteString("[")
		for i, c := range calls {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.Name + "(")
			for j, k := range c.Args.Keys {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(k + "=" + c.Args.Vals[j].String())
			}
			b.WriteString(")")
		}
		b.WriteString("]")
		again, err := parsePython(pyJSON(b.String()))
		if err != nil {
			t.Fatalf("ParsePythonCalls(%q) read %q, which does not read back: %v", src, b.String(), err)
		}
		if len(again) != len(calls) {
			t.Fatalf("%q: %d calls, read back %d", src, len(calls), len(again))
		}
		for i := range calls {
			if again[i].Name != calls[i].Name || !again[i].Args.Equal(calls[i].Args) {
				t.Fatalf("%q: call %d is %s%s, read back %s%s", src, i, calls[i].Name, calls[i].Args, again[i].Name, again[i].Args)
			}
		}
	})
}

// pyJSON turns the JSON literals true, false and null outside strings into
// Python's.
func pyJSON(s string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\\':
			b.WriteByte(c)
			i++
			if i < len(s) {
				b.WriteByte(s[i])
			}
			continue
		case c == '"':
			in = !in
		case !in && strings.HasPrefix(s[i:], "true"):
			b.WriteString("True")
			i += 3
			continue
		case !in && strings.HasPrefix(s[i:], "false"):
			b.WriteString("False")
			i += 4
			continue
		case !in && strings.HasPrefix(s[i:], "null"):
			b.WriteString("None")
			i += 3
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
