package response

import (
	"errors"
	"reflect"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// FuzzCallList holds extract's route for a list forced to the calls
// format (readCallList) to the general one, a plan and its reader, on
// arbitrary JSON and limits, with the calls read into a slice that holds
// another response's calls.
func FuzzCallList(f *testing.F) {
	f.Add(`[{"name":"f","arguments":"{\"a\":1}"}]`, uint8(0))
	f.Add(`[{"name":"f","arguments":{"a":[[1]]}},1,null,{"name":2},{"arguments":"{"}]`, uint8(2))
	for _, tt := range extractTests {
		f.Add(tt.in, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, depth uint8) {
		r, err := value.Parse(s)
		if err != nil {
			return
		}
		x := extraction{lim: value.Limits{MaxDepth: int(depth % 8)}}
		stale := func() []Call {
			dst := make([]Call, 4)
			for i := range dst {
				dst[i] = Call{Name: "stale", Args: emptyObject, Err: errors.New("stale")}
			}
			return dst
		}
		got, gf, gerr := extract(r, format.Calls, x, stale())
		want, wf, werr := extractPlanned(r, format.Calls, x, stale())
		if gf != wf || errText(gerr) != errText(werr) || !identicalCalls(got, want) {
			t.Fatalf("extract(%s) = %v %q %v, general route %v %q %v", s, got, gf, gerr, want, wf, werr)
		}
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// identicalCalls reports whether a and b are the same calls, to their
// messages and the types of their errors.
func identicalCalls(a, b []Call) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Args.Kind() != b[i].Args.Kind() || a[i].Args.String() != b[i].Args.String() ||
			errText(a[i].Err) != errText(b[i].Err) || reflect.TypeOf(a[i].Err) != reflect.TypeOf(b[i].Err) {
			return false
		}
		var ae, be *ArgumentsError
		if errors.As(a[i].Err, &ae) && errors.As(b[i].Err, &be) &&
			(ae.Index != be.Index || ae.NotEvaluable != be.NotEvaluable || reflect.TypeOf(ae.Err) != reflect.TypeOf(be.Err)) {
			return false
		}
	}
	return true
}

// TestLocMessage holds loc.message, which writes a failed call's message
// in one buffer, to the joins it stands for.
func TestLocMessage(t *testing.T) {
	locs := []loc{{"", -1}, {"", 0}, {"tool_calls", 12}, {"messages", -1}, {"choices[0].message", 3}}
	parts := [][2]string{{"", ""}, {"function", ""}, {"", "arguments"}, {"function", "arguments"}, {"a.b", "c"}}
	for _, l := range locs {
		for _, p := range parts {
			for _, tail := range []string{"", " is not a usable JSON object"} {
				want := l.at(join(p[0], p[1])) + tail
				if got := l.message(tail, p[0], p[1]); got != want {
					t.Errorf("%+v.message(%q, %q, %q) = %q, want %q", l, tail, p[0], p[1], got, want)
				}
				if got, want := l.message("", p[1]), join(l.at(""), p[1]); got != want {
					t.Errorf("%+v.message(\"\", %q) = %q, want %q", l, p[1], got, want)
				}
			}
		}
	}
}
