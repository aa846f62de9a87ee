package jsonv

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

func TestAppendCanonical(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"b":[5.0,1e0,-0.0],"a":"x"}`, `{"a":"x","b":[5,1,0]}`},
		{`1.50e400`, `1.5e400`},
		{`[null,true,"\u00e9"]`, `[null,true,"é"]`},
	} {
		v, err := value.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(AppendCanonical(nil, v)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.in, got, tt.want)
		}
	}
}

// AppendPrefix writes a prefix of AppendJSON's text: all of it when it
// is at most n bytes long, else more than n bytes of it but not much more,
// however large the value.
func TestAppendPrefix(t *testing.T) {
	big := strings.Repeat("é\"x", 1<<20)
	docs := []string{
		`null`, `17.50`, `"short"`, `[1,2,3]`, `{"a":{"b":[true,false,null]},"c":"d"}`,
		`"` + strings.Repeat(`\u2028x`, 100) + `"`,
	}
	vals := []value.Value{value.StringOf(big), value.ArrayOf(value.StringOf(big), value.StringOf(big))}
	obj, _ := value.ObjectOf(value.Member{Key: big, Value: value.StringOf("v")})
	vals = append(vals, obj)
	for _, d := range docs {
		v, err := value.Parse(d)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		full := string(v.AppendJSON(nil))
		for _, n := range []int{0, 1, 5, 40, 120, 1000} {
			got := string(AppendPrefix([]byte("pre"), v, n))
			if !strings.HasPrefix(got, "pre") {
				t.Fatalf("dst lost: %.20q", got)
			}
			got = got[3:]
			switch {
			case !strings.HasPrefix(full, got):
				t.Errorf("n=%d: %.60q is no prefix of %.60q", n, got, full)
			case len(full) <= n && got != full:
				t.Errorf("n=%d: %q, want all of %q", n, got, full)
			case len(full) > n && (len(got) <= n || len(got) > n+64):
				t.Errorf("n=%d: %d bytes of %d", n, len(got), len(full))
			}
		}
	}
}

func TestIsInteger(t *testing.T) {
	for in, want := range map[string]bool{"5": true, "5.0": true, "5e0": true, "5.5": false, "0": true, "1e-1": false, "15e-1": false, "150e-1": true} {
		v, _ := value.NumberOf(in)
		if got := IsInteger(v); got != want {
			t.Errorf("IsInteger(%s) = %v, want %v", in, got, want)
		}
	}
}

func TestIsIntegerOtherKinds(t *testing.T) {
	for _, v := range []value.Value{value.StringOf("5"), value.BoolOf(true), value.Value{}, value.ArrayOf(value.Int(5))} {
		if IsInteger(v) {
			t.Errorf("IsInteger(%s) is true", v)
		}
	}
}

func TestWithArticle(t *testing.T) {
	for k, want := range map[value.Kind]string{
		value.Null: "null", value.Bool: "a boolean", value.Number: "a number", value.String: "a string",
		value.Array: "an array", value.Object: "an object", value.Kind(9): "kind(9)",
	} {
		if got := WithArticle(k); got != want {
			t.Errorf("WithArticle(%v) = %q, want %q", k, got, want)
		}
	}
}
