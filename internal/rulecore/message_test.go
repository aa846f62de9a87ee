package rulecore

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/rules"
)

// TestReGot holds a regex rule's messages, joined in one piece, to the
// messages written piece by piece: values shortened or not, and past the
// stack buffer reGot shows them in.
func TestReGot(t *testing.T) {
	long := strings.Repeat("é", 100) + strings.Repeat("x", 300)
	for _, tc := range []struct{ rule, actual string }{
		{`{"regex":"^a"}`, `"b"`},
		{`{"regex":"^a"}`, `""`},
		{`{"regex":"^a"}`, `"` + long + `"`},
		{`{"regex":"^` + strings.Repeat("[0-9]", 500) + `$"}`, `"` + long + `"`},
		{`{"regex":"^a"}`, `[` + strings.Repeat(`1e999999999,`, 40) + `1]`},
		{`{"regex":"^a"}`, `1` + strings.Repeat("0", 400)},
		{`{"regex":"^a"}`, `{"k":"\u0000\"\\"}`},
	} {
		r := mustRule(t, rules.Extensions{}, tc.rule)
		a := mustParse(t, tc.actual)
		want := message("expected a string matching ").s(r.re.String()).s(", got ").show(a).rule(r.String()).done()
		if got := r.reGot(a); got != want {
			t.Errorf("%s, %.40s: got\n%q\nwant\n%q", tc.rule, tc.actual, got, want)
		}
		for _, what := range []string{"argument", "field", "element"} {
			want := message("expected a string matching ").s(r.re.String()).s(", but the ").s(what).s(" is missing").done()
			if got := r.reMissing(what); got != want {
				t.Errorf("%s, %s missing: got\n%q\nwant\n%q", tc.rule, what, got, want)
			}
		}
	}
}
