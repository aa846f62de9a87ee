package rulecore

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// testRun is a run of steps given as JSON objects.
type testRun []value.Value

func (r testRun) StepCount() int { return len(r) }
func (r testRun) StepName(i int) string {
	n, _ := r[i].Get("name")
	return n.Str()
}
func (r testRun) StepValue(i int) value.Value { return r[i] }

func mustValue(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func testSteps(t testing.TB) testRun {
	return testRun{
		mustValue(t, `{"name":"find_order","arguments":{"email":"a@b.c"},"result":{"id":"O-1","items":[{"sku":"S1"}]},"error":false,"turn":0}`),
		mustValue(t, `{"name":"lookup","arguments":{},"error":true,"turn":0}`),
		mustValue(t, `{"name":"find_order","arguments":{"email":"x@y.z"},"result":{"id":"O-2","ünï":"ok"},"error":false,"id":"call_3","turn":1}`),
	}
}

func TestParseRef(t *testing.T) {
	bad := []struct{ src, msg string }{
		{"", "want steps[I] or a tool name first"},
		{".result", "want steps[I] or a tool name first"},
		{"find_order", "want .FIELD after"},
		{"steps[x].result", "want a whole number in [ ]"},
		{"steps[0", "[ is not closed"},
		{"steps[0]result", "want .FIELD"},
		{"steps[0].reslt", `unknown step field "reslt"`},
		{"f.result.items.#.sku", "no * or #"},
		{"f.result.a..b", "empty segment"},
	}
	for _, b := range bad {
		if _, err := ParseRef(b.src); err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("ParseRef(%q) = %v, want ...%s...", b.src, err, b.msg)
		}
	}
}

func TestResolveRef(t *testing.T) {
	run := testSteps(t)
	tests := []struct {
		ref   string
		n     int // visible steps
		want  string
		fails string
	}{
		{"steps[0].result.id", 3, `"O-1"`, ""},
		{"steps[-1].id", 3, `"call_3"`, ""},
		{"steps[-3].turn", 3, `0`, ""},
		{"steps[0].result.items.0.sku", 3, `"S1"`, ""},
		{"steps[2].result.ünï", 3, `"ok"`, ""},
		{"find_order.result.id", 3, `"O-2"`, ""},
		{"find_order.result.id", 2, `"O-1"`, ""},
		{"find_order[0].arguments.email", 3, `"a@b.c"`, ""},
		{"find_order[1].arguments", 3, `{"email":"x@y.z"}`, ""},
		{"find_order[-2].result.id", 3, `"O-1"`, ""},
		{"lookup.error", 3, `true`, ""},
		{"steps[3].result", 3, "", "step [3] did not happen before this one (3 steps before it)"},
		{"steps[0].result", 0, "", "step [0] did not happen before this one (0 steps before it)"},
		{"steps[-4].result", 3, "", "did not happen"},
		{"refund.result", 3, "", "no call to refund happened before this one"},
		{"find_order[2].result", 3, "", "find_order[2] did not happen before this one (2 calls to find_order before it)"},
		{"lookup.result.id", 3, "", "lookup (step 1) failed: its tool reported an error, so its result gives no value"},
		{"lookup.result", 3, "", "lookup (step 1) failed: its tool reported an error"},
		{"lookup.id", 3, "", "lookup (step 1) has no id"},
		{"steps[0].result.items.1.sku", 3, "", "has nothing at items.1.sku"},
		{"steps[0].result.id.x", 3, "", "has nothing at id.x"},
	}
	for _, tt := range tests {
		r, err := ParseRef(tt.ref)
		if err != nil {
			t.Fatalf("ParseRef(%q): %v", tt.ref, err)
		}
		v, why := r.Resolve(rules.NewSteps(run, tt.n))
		if tt.fails != "" {
			if !strings.Contains(why, tt.fails) {
				t.Errorf("%s (n=%d): why = %q, want ...%s...", tt.ref, tt.n, why, tt.fails)
			}
			continue
		}
		if why != "" || !value.Equal(v, mustValue(t, tt.want)) {
			t.Errorf("%s (n=%d) = %s, %q; want %s", tt.ref, tt.n, v, why, tt.want)
		}
	}
	if _, why := (&Ref{src: "steps[0].name", index: 0, indexed: true, field: "name"}).Resolve(rules.Steps{}); why == "" {
		t.Error("the zero rules.Steps resolved a reference")
	}
}

// TestFromRule compares arguments under `from` rules: the referenced value
// is the expected one, compared under the rule's other properties; a
// reference that names nothing is a mismatch (or a missing argument), never
// a rule error.
func TestFromRule(t *testing.T) {
	run := testSteps(t)
	tests := []struct {
		rule, exp, act string
		n              int
		kinds          []results.Kind
		msg            string
	}{
		{`{"from":"find_order.result.id"}`, `{}`, `{"order_id":"O-2"}`, 3, nil, ""},
		{`{"from":"find_order.result.id"}`, `{"order_id":null}`, `{"order_id":"O-2"}`, 3, nil, ""},
		{`{"from":"find_order.result.id"}`, `{"order_id":"O-2"}`, `{"order_id":"O-1"}`, 3, []results.Kind{results.Mismatch}, `expected "O-2", got "O-1"`},
		{`{"from":"find_order.result.id"}`, `{"order_id":"O-1"}`, `{"order_id":"O-1"}`, 3, []results.Kind{results.Mismatch}, `expected "O-2", got "O-1"`},
		{`{"from":"find_order.result.id","case_insensitive":true}`, `{"order_id":null}`, `{"order_id":"o-2"}`, 3, nil, ""},
		{`{"from":"find_order.result.id"}`, `{"order_id":null}`, `{}`, 3, []results.Kind{results.MissingArgument}, `expected "O-2"`},
		{`{"from":"find_order.result.id"}`, `{"order_id":null}`, `{"order_id":"O-2"}`, 0, []results.Kind{results.Mismatch}, `got "O-2"; expected the value of find_order.result.id, but no call to find_order happened before this one`},
		{`{"from":"find_order.result.id"}`, `{"order_id":null}`, `{}`, 0, []results.Kind{results.MissingArgument}, "no call to find_order happened before this one, and the argument is missing"},
		{`{"from":"find_order.result.id","optional":true}`, `{"order_id":null}`, `{}`, 0, nil, ""},
		{`{"from":"steps[0].turn","numeric":true}`, `{"order_id":null}`, `{"order_id":"0"}`, 3, nil, ""},
	}
	// With null_is_missing the expected call's null placeholder is no
	// omission: the argument still counts and must be there.
	nullTests := []struct {
		act   string
		kinds []results.Kind
	}{
		{`{"order_id":"O-2"}`, nil},
		{`{"order_id":"O-1"}`, []results.Kind{results.Mismatch}},
		{`{}`, []results.Kind{results.MissingArgument}},
		{`{"order_id":null}`, []results.Kind{results.MissingArgument}},
	}
	for _, tt := range nullTests {
		s := orderIDFrom(t)
		var kinds []results.Kind
		ctx := &Context{NullIsMissing: true, Steps: rules.NewSteps(run, 3)}
		res := s.Compare(mustValue(t, `{"order_id":null}`), mustValue(t, tt.act), ctx, func(d Diff) { kinds = append(kinds, d.Kind) })
		want := Result{Matched: 1, Total: 1}
		if tt.kinds != nil {
			want.Matched = 0
		}
		if res != want || !slices.Equal(kinds, tt.kinds) {
			t.Errorf("null_is_missing, actual %s: %+v with %v, want %+v with %v", tt.act, res, kinds, want, tt.kinds)
		}
	}
	for _, tt := range tests {
		var s Set
		p, _ := ParsePath("order_id")
		r, err := Compile(mustValue(t, tt.rule), rules.Extensions{})
		if err != nil {
			t.Fatal(err)
		}
		s.Add(LevelCall, p, r)
		if !s.UsesSteps() {
			t.Error("UsesSteps = false")
		}
		var diffs []Diff
		ctx := &Context{Steps: rules.NewSteps(run, tt.n)}
		res := s.Compare(mustValue(t, tt.exp), mustValue(t, tt.act), ctx, func(d Diff) { diffs = append(diffs, d) })
		quiet := s.Compare(mustValue(t, tt.exp), mustValue(t, tt.act), ctx, nil)
		if res != quiet {
			t.Errorf("%s %s %s: quiet %v, reported %v", tt.rule, tt.exp, tt.act, quiet, res)
		}
		var kinds []results.Kind
		for _, d := range diffs {
			kinds = append(kinds, d.Kind)
		}
		if len(kinds) != len(tt.kinds) || len(kinds) > 0 && (kinds[0] != tt.kinds[0] || !strings.Contains(diffs[0].Message, tt.msg)) {
			t.Errorf("%s %s %s (n=%d): diffs %+v, want %v ...%s...", tt.rule, tt.exp, tt.act, tt.n, diffs, tt.kinds, tt.msg)
		}
		if (res.Matched == res.Total) != (len(diffs) == 0) {
			t.Errorf("%s: result %+v with diffs %v", tt.rule, res, diffs)
		}
	}
}

func TestFromContradictions(t *testing.T) {
	for _, spec := range []string{`{"from":"f.result","one_of":[1]}`, `{"from":"f.result","regex":"x"}`, `{"from":"f.result","default":1}`, `{"from":3}`, `{"from":"f"}`} {
		if _, err := Compile(mustValue(t, spec), rules.Extensions{}); err == nil {
			t.Errorf("Compile(%s) succeeded", spec)
		}
	}
}

// TestFromBelowEqualObjects checks that equal objects do not pass by
// their equality where a `from` below them names another value.
func TestFromBelowEqualObjects(t *testing.T) {
	var s Set
	p, _ := ParsePath("order.id")
	r, _ := Compile(mustValue(t, `{"from":"find_order.result.id"}`), rules.Extensions{})
	s.Add(LevelCall, p, r)
	ctx := &Context{Steps: rules.NewSteps(testSteps(t), 3)}
	v := mustValue(t, `{"order":{"id":"O-1"}}`)
	if res := s.Compare(v, v, ctx, nil); res.Matched != 0 {
		t.Errorf("equal arguments passed against the reference: %+v", res)
	}
}

// A long actual value in the message of an unresolved reference is cut
// on a character boundary, as every other message's.
func TestFromUnresolvedMessageIsUTF8(t *testing.T) {
	s := orderIDFrom(t)
	act := `{"order_id":"a` + strings.Repeat("é", 200) + `"}`
	var msgs []string
	s.Compare(mustValue(t, `{"order_id":null}`), mustValue(t, act), &Context{Steps: rules.NewSteps(testSteps(t), 0)}, func(d Diff) { msgs = append(msgs, d.Message) })
	if len(msgs) != 1 || !utf8.ValidString(msgs[0]) || !strings.HasPrefix(msgs[0], `got "aé`) {
		t.Errorf("messages %q", msgs)
	}
}

// orderIDFrom is a set with one rule: order_id is the last find_order
// call's result id.
func orderIDFrom(t *testing.T) *Set {
	t.Helper()
	var s Set
	p, _ := ParsePath("order_id")
	r, err := Compile(mustValue(t, `{"from":"find_order.result.id"}`), rules.Extensions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Add(LevelCall, p, r)
	return &s
}
