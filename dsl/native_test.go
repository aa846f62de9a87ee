package dsl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

var nativeExprs = []struct {
	src    string
	native bool
}{
	{"abs(actual - expected) <= 0.5", true},
	{"actual >= expected * 0.9 && actual <= expected * 1.1", true},
	{"!(actual > expected) || actual == expected", true},
	{"max(actual, expected) - min(actual, expected) < 1", true},
	{"actual / expected > 2 or not (actual ** 2 != expected ^ 2)", true},
	{"-actual + +expected == 0", true},
	{"actual == 5", true},
	{"true && actual < 10", true},
	{"2 * 3 == actual", false},   // literal arithmetic is integer arithmetic in expr
	{"actual % 2 == 0", false},   // % wants integers
	{"actual == expected", true}, // numbers here; strings go to the VM
	{"approx(actual, expected, 1)", true},
	{"approx(actual, expected, 0.5)", true},
	{"approx(expected, 5, 0)", true},
	{"approx(4.6, actual, 0.4)", true},
	{"rel_approx(actual, expected, 0.05)", true},
	{"rel_approx(actual, 1e300, 1)", true},
	{"approx(actual, expected, -1)", false},              // the VM's error
	{"approx(actual, expected, -0.5)", false},            // likewise
	{"approx(actual * 2, expected, 1)", false},           // a computed float64
	{"approx(actual, expected, 1) && actual > 0", false}, // approx only as the whole expression
	{"approx(actual, expected, expected)", false},
	{"params.slack > abs(actual - expected)", false},
	{"len(args) > 0", false},
	{"actual < 9223372036854775807", false}, // not exact as a float64
}

func num(t testing.TB, s string) value.Value {
	v, err := value.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNativeMatchesVM: for every expression and pair of values, the fast
// path gives exactly what expr's VM gives, or defers to it.
func TestNativeMatchesVM(t *testing.T) {
	c := NewCompiler(Options{})
	values := []string{"0", "-0", "5", "5.0", "4.6", "-3.25", "1e300", "1e400", "-1e400", "1e-400", "9007199254740993", `"5"`, "true", "null", `{"a":1}`, "[1]"}
	for _, tt := range nativeExprs {
		e, err := c.Compile(tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if (e.native != nil) != tt.native {
			t.Errorf("%s: native = %v, want %v", tt.src, e.native != nil, tt.native)
		}
		for _, a := range values {
			for _, x := range values {
				in := &rules.Input{Path: "p", Actual: num(t, a), Expected: num(t, x)}
				got, gerr := e.eval(in)
				want, werr := e.evalVM(in)
				if got != want || (gerr == nil) != (werr == nil) {
					t.Errorf("%s with actual %s, expected %s: fast path %v (%v), VM %v (%v)", tt.src, a, x, got, gerr, want, werr)
				}
			}
		}
	}
}

// FuzzNative builds expressions of the numeric subset from the fuzzer's
// bytes and checks the closures against expr's VM on the fuzzer's numbers.
func FuzzNative(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5}, 1.5, 2.0)
	f.Add([]byte{9, 8, 7, 6, 5, 4, 3, 2, 1}, math.Copysign(0, -1), 1e300)
	f.Add([]byte{3, 3, 3, 14, 2, 200, 17}, 5.0, 5.0)
	f.Add([]byte{0, 1, 5, 7, 1, 0, 1, 3, 0, 5}, math.Inf(1), math.Inf(1)) // abs((actual - expected)) <= 0.5: NaN <= 0.5
	c := NewCompiler(Options{})
	// A JSON number beyond float64 is ±Inf to both, so that Inf - Inf is
	// NaN to both.
	lit := func(f float64) string {
		switch {
		case math.IsInf(f, 1):
			return "1e400"
		case math.IsInf(f, -1):
			return "-1e400"
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	f.Fuzz(func(t *testing.T, prog []byte, a, x float64) {
		if math.IsNaN(a) || math.IsNaN(x) {
			return // no JSON number is NaN
		}
		g := &gen{b: prog}
		src := g.boolean(4)
		e, err := c.Compile(src)
		if err != nil {
			return // e.g. too long; the subset's own errors are the VM's
		}
		in := &rules.Input{Path: "p", Actual: num(t, lit(a)), Expected: num(t, lit(x))}
		got, gerr := e.eval(in)
		want, werr := e.evalVM(in)
		if got != want || (gerr == nil) != (werr == nil) {
			t.Fatalf("%s with actual %v, expected %v: fast path %v (%v), VM %v (%v)", src, a, x, got, gerr, want, werr)
		}
	})
}

// gen writes an expression of the numeric subset from bytes.
type gen struct {
	b []byte
	i int
}

func (g *gen) next() int {
	if g.i >= len(g.b) {
		return 0
	}
	g.i++
	return int(g.b[g.i-1])
}

func (g *gen) number(depth int) string {
	k := g.next()
	if depth <= 0 {
		k %= 4
	}
	switch k % 12 {
	case 0:
		return "actual"
	case 1:
		return "expected"
	case 2:
		return strconv.Itoa(g.next() - 128)
	case 3:
		return fmt.Sprintf("%d.%d", g.next(), g.next())
	case 4:
		return "-" + g.number(depth-1)
	case 5:
		return "abs(" + g.number(depth-1) + ")"
	case 6:
		return []string{"min", "max"}[g.next()%2] + "(" + g.number(depth-1) + ", " + g.number(depth-1) + ")"
	default:
		op := []string{"+", "-", "*", "/", "**"}[g.next()%5]
		return "(" + g.number(depth-1) + " " + op + " " + g.number(depth-1) + ")"
	}
}

func (g *gen) boolean(depth int) string {
	k := g.next()
	if depth <= 0 {
		k = 0
	}
	switch k % 4 {
	case 0, 1:
		op := []string{"<", "<=", ">", ">=", "==", "!="}[g.next()%6]
		return g.number(3) + " " + op + " " + g.number(3)
	case 2:
		return "!(" + g.boolean(depth-1) + ")"
	default:
		op := []string{"&&", "||", "and", "or"}[g.next()%4]
		return "(" + g.boolean(depth-1) + " " + op + " " + strings.TrimSpace(g.boolean(depth-1)) + ")"
	}
}
