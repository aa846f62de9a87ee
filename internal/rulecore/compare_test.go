package rulecore

import (
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"slices"
	"testing"
)

type compareCase struct {
	name   string
	rules  []rs
	ctx    Context
	e, a   string
	want   []string // "kind path" of each diff, in order; nil: none
	result *Result  // checked when set
}

func runCompareCases(t *testing.T, cases []compareCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSet(t, rules.Extensions{}, tc.rules...)
			ctx := tc.ctx
			res, diffs := compareText(t, s, &ctx, tc.e, tc.a)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := brief(diffs); !slices.Equal(got, want) {
				t.Errorf("diffs = %q, want %q%s", got, want, describeDiffs(diffs))
			}
			if tc.result != nil && res != *tc.result {
				t.Errorf("result = %+v, want %+v", res, *tc.result)
			}
			if len(want) == 0 && res.Matched != res.Total {
				t.Errorf("no diffs but result %+v", res)
			}
		})
	}
}

func TestCompareExact(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "key order ignored", e: `{"a":1,"b":"x"}`, a: `{"b":"x","a":1}`, result: &Result{2, 2}},
		{name: "5 equals 5.0", e: `{"n":5}`, a: `{"n":5.0}`},
		{name: "5 equals 5e0", e: `{"n":5}`, a: `{"n":5e0}`},
		{name: "0.5e1 equals 5", e: `{"n":0.5e1}`, a: `{"n":5}`},
		{name: "-0 equals 0", e: `{"n":-0}`, a: `{"n":0}`},
		{name: "large integers exactly", e: `{"n":9007199254740993}`, a: `{"n":9007199254740992}`, want: []string{"mismatch n"}},
		{name: "string is not number", e: `{"n":"5"}`, a: `{"n":5}`, want: []string{"mismatch n"}},
		{name: "true is not 1", e: `{"b":true}`, a: `{"b":1}`, want: []string{"mismatch b"}},
		{name: "null equals null", e: `{"x":null}`, a: `{"x":null}`},
		{name: "null is not 0", e: `{"x":null}`, a: `{"x":0}`, want: []string{"mismatch x"}},
		{name: "strings are case sensitive", e: `{"unit":"celsius"}`, a: `{"unit":"Celsius"}`, want: []string{"mismatch unit"}},
		{name: "nested path", e: `{"filters":{"price":{"max":100,"min":1}}}`, a: `{"filters":{"price":{"max":200,"min":1}}}`, want: []string{"mismatch filters.price.max"}, result: &Result{0, 1}},
		{name: "array element path", e: `{"items":[{"sku":"a"},{"sku":"b"}]}`, a: `{"items":[{"sku":"a"},{"sku":"c"}]}`, want: []string{"mismatch items.1.sku"}},
		{name: "arrays in order", e: `{"xs":[1,2]}`, a: `{"xs":[2,1]}`, want: []string{"mismatch xs.0", "mismatch xs.1"}},
		{name: "array length", e: `{"xs":[1,2,3]}`, a: `{"xs":[1,2]}`, want: []string{"mismatch xs"}},
		{name: "object vs array", e: `{"x":{}}`, a: `{"x":[]}`, want: []string{"mismatch x"}},
		{name: "object vs string", e: `{"x":{"a":1}}`, a: `{"x":"a"}`, want: []string{"mismatch x"}},
		{name: "missing argument", e: `{"a":1,"b":2}`, a: `{"a":1}`, want: []string{"missing_argument b"}, result: &Result{1, 2}},
		{name: "unexpected argument", e: `{"a":1}`, a: `{"a":1,"z":2}`, want: []string{"unexpected_argument z"}, result: &Result{1, 2}},
		{name: "extra allowed", ctx: Context{AllowExtra: true}, e: `{"a":1}`, a: `{"a":1,"z":2}`, result: &Result{1, 1}},
		{name: "nested extra rejected", e: `{"f":{"a":1}}`, a: `{"f":{"a":1,"b":2}}`, want: []string{"unexpected_argument f.b"}, result: &Result{0, 1}},
		{name: "nested extra allowed", ctx: Context{AllowExtra: true}, e: `{"f":{"a":1}}`, a: `{"f":{"a":1,"b":2}}`},
		{name: "nested missing", e: `{"f":{"a":1,"b":2}}`, a: `{"f":{"a":1}}`, want: []string{"missing_argument f.b"}},
		{name: "keys are case sensitive", e: `{"City":"x"}`, a: `{"city":"x"}`, want: []string{"missing_argument City", "unexpected_argument city"}, result: &Result{0, 2}},
		{name: "empty objects", e: `{}`, a: `{}`, result: &Result{0, 0}},
		{name: "everything wrong counts", e: `{"a":1,"b":2,"c":3}`, a: `{"a":1,"b":3,"d":4}`,
			want: []string{"mismatch b", "missing_argument c", "unexpected_argument d"}, result: &Result{1, 4}},
		{name: "key with a dot is escaped", e: `{"a.b":1}`, a: `{"a.b":2}`, want: []string{`mismatch a\.b`}},
		{name: "key with a backslash is escaped", e: `{"a\\b":1}`, a: `{"a\\b":2}`, want: []string{`mismatch a\\b`}},
		{name: "key named star is escaped", e: `{"*":{"#":1}}`, a: `{"*":{"#":2}}`, want: []string{`mismatch \*.\#`}},
	})
}

func TestCompareNumeric(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "string five", rules: []rs{call("n", `"numeric"`)}, e: `{"n":5}`, a: `{"n":"5"}`},
		{name: "string on expected side", rules: []rs{call("n", `"numeric"`)}, e: `{"n":"5"}`, a: `{"n":5.0}`},
		{name: "spaces trimmed", rules: []rs{call("n", `{"numeric":true}`)}, e: `{"n":5}`, a: `{"n":" 5.0 "}`},
		{name: "exponent string", rules: []rs{call("n", `"numeric"`)}, e: `{"n":100}`, a: `{"n":"1e2"}`},
		{name: "exact decimal", rules: []rs{call("n", `"numeric"`)}, e: `{"n":"9007199254740993"}`, a: `{"n":9007199254740992}`, want: []string{"mismatch n"}},
		{name: "non-numeric string", rules: []rs{call("n", `"numeric"`)}, e: `{"n":5}`, a: `{"n":"five"}`, want: []string{"mismatch n"}},
		{name: "not a JSON literal", rules: []rs{call("n", `"numeric"`)}, e: `{"n":16}`, a: `{"n":"0x10"}`, want: []string{"mismatch n"}},
		{name: "plus sign is not JSON", rules: []rs{call("n", `"numeric"`)}, e: `{"n":5}`, a: `{"n":"+5"}`, want: []string{"mismatch n"}},
		{name: "bool is not a number", rules: []rs{call("n", `"numeric"`)}, e: `{"n":1}`, a: `{"n":true}`, want: []string{"mismatch n"}},
		{name: "two texts compare as text", rules: []rs{call("n", `"numeric"`)}, e: `{"n":"abc"}`, a: `{"n":"abc"}`},
		{name: "two different texts", rules: []rs{call("n", `"numeric"`)}, e: `{"n":"abc"}`, a: `{"n":"abd"}`, want: []string{"mismatch n"}},
		{name: "inherited below", rules: []rs{call("f", `"numeric"`)},
			e: `{"f":{"max":"5","tags":["1",2],"name":"x"}}`, a: `{"f":{"max":5,"tags":[1,"2.0"],"name":"x"}}`},
		{name: "switched off below", rules: []rs{call("f", `"numeric"`), call("f.id", `{"numeric":false}`)},
			e: `{"f":{"max":"5","id":"7"}}`, a: `{"f":{"max":5,"id":7}}`, want: []string{"mismatch f.id"}},
		{name: "exact resets below", rules: []rs{call("f", `"numeric"`), call("f.id", `"exact"`)},
			e: `{"f":{"max":"5","id":"7"}}`, a: `{"f":{"max":5,"id":7}}`, want: []string{"mismatch f.id"}},
		{name: "normalisers first", rules: []rs{call("n", `{"numeric":true,"normalize":["strip_punct"]}`)}, e: `{"n":5}`, a: `{"n":"5!"}`},
	})
}

func TestCompareTolerance(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "within", rules: []rs{call("p", `{"tolerance":0.01}`)}, e: `{"p":9.99}`, a: `{"p":9.991}`},
		{name: "outside", rules: []rs{call("p", `{"tolerance":0.01}`)}, e: `{"p":9.99}`, a: `{"p":10.01}`, want: []string{"mismatch p"}},
		{name: "at the bound", rules: []rs{call("p", `{"tolerance":0.1}`)}, e: `{"p":1.0}`, a: `{"p":1.1}`},
		{name: "implies numeric", rules: []rs{call("p", `{"tolerance":0.01}`)}, e: `{"p":9.99}`, a: `{"p":"9.995"}`},
		{name: "non-numeric string", rules: []rs{call("p", `{"tolerance":0.01}`)}, e: `{"p":9.99}`, a: `{"p":"cheap"}`, want: []string{"mismatch p"}},
		{name: "zero tolerance is exact", rules: []rs{call("p", `{"tolerance":0}`)}, e: `{"p":1}`, a: `{"p":1.0000000000000001}`, want: []string{"mismatch p"}},
		{name: "relative within", rules: []rs{call("p", `{"relative":0.01}`)}, e: `{"p":100}`, a: `{"p":100.9}`},
		{name: "relative outside", rules: []rs{call("p", `{"relative":0.01}`)}, e: `{"p":100}`, a: `{"p":102}`, want: []string{"mismatch p"}},
		{name: "relative of expected", rules: []rs{call("p", `{"relative":0.5}`)}, e: `{"p":1}`, a: `{"p":1.9}`, want: []string{"mismatch p"}},
		{name: "either bound", rules: []rs{call("p", `{"tolerance":0.5,"relative":0.01}`)}, e: `{"p":1000}`, a: `{"p":1009}`},
		{name: "either bound, absolute", rules: []rs{call("p", `{"tolerance":0.5,"relative":0.0001}`)}, e: `{"p":1}`, a: `{"p":1.4}`},
		{name: "exact at large magnitudes", rules: []rs{call("p", `{"tolerance":0.5}`)}, e: `{"p":1704067200000}`, a: `{"p":1704067200002}`, want: []string{"mismatch p"}},
		{name: "exact at large magnitudes, within", rules: []rs{call("p", `{"tolerance":0.5}`)}, e: `{"p":1704067200000}`, a: `{"p":1704067200000.5}`},
		{name: "544 at 1.2e15", rules: []rs{call("p", `{"tolerance":0.5}`)}, e: `{"p":1200000000000000}`, a: `{"p":1200000000000544}`, want: []string{"mismatch p"}},
		{name: "just past the bound", rules: []rs{call("p", `{"tolerance":0.5}`)}, e: `{"p":21}`, a: `{"p":21.50000000000000001}`, want: []string{"mismatch p"}},
		{name: "beyond float64 is within nothing", rules: []rs{call("p", `{"tolerance":0.5}`)}, e: `{"p":1}`, a: `{"p":1e400}`, want: []string{"mismatch p"}},
		{name: "beyond float64, negative", rules: []rs{call("p", `{"tolerance":0.5}`)}, e: `{"p":1}`, a: `{"p":-1e400}`, want: []string{"mismatch p"}},
		{name: "beyond float64, string", rules: []rs{call("p", `{"tolerance":0.5}`)}, e: `{"p":1}`, a: `{"p":"1e999"}`, want: []string{"mismatch p"}},
		{name: "beyond float64, relative", rules: []rs{call("p", `{"relative":0.5}`)}, e: `{"p":1}`, a: `{"p":1e400}`, want: []string{"mismatch p"}},
		{name: "beyond float64, relative to it", rules: []rs{call("p", `{"relative":0.5}`)}, e: `{"p":1e400}`, a: `{"p":1}`, want: []string{"mismatch p"}},
		{name: "huge tolerance literal", rules: []rs{call("p", `{"tolerance":1e400}`)}, e: `{"p":1}`, a: `{"p":1e399}`},
		{name: "huge equal", rules: []rs{call("p", `{"tolerance":1}`)}, e: `{"p":1e400}`, a: `{"p":10e399}`},
		{name: "huge different", rules: []rs{call("p", `{"tolerance":1}`)}, e: `{"p":1e400}`, a: `{"p":1e401}`, want: []string{"mismatch p"}},
		{name: "list within", rules: []rs{call("ps", `{"tolerance":0.01}`)}, e: `{"ps":[1,2]}`, a: `{"ps":[1.001,2.009]}`},
		{name: "list outside is one diff", rules: []rs{call("ps", `{"tolerance":0.01}`)}, e: `{"ps":[1,2]}`, a: `{"ps":[1.5,2.5]}`, want: []string{"mismatch ps"}},
		{name: "descendant resets", rules: []rs{call("o", `{"tolerance":0.5}`), call("o.id", `"exact"`)}, e: `{"o":{"x":1,"id":1}}`, a: `{"o":{"x":1.2,"id":1.2}}`, want: []string{"mismatch o"}},
	})
}

func TestCompareCaseInsensitive(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "ascii", rules: []rs{call("c", `"case_insensitive"`)}, e: `{"c":"Berlin"}`, a: `{"c":"BERLIN"}`},
		{name: "different", rules: []rs{call("c", `"case_insensitive"`)}, e: `{"c":"Berlin"}`, a: `{"c":"Bern"}`, want: []string{"mismatch c"}},
		{name: "full folding", rules: []rs{call("c", `{"case_insensitive":true}`)}, e: `{"c":"Straße"}`, a: `{"c":"STRASSE"}`},
		{name: "greek final sigma", rules: []rs{call("c", `"case_insensitive"`)}, e: `{"c":"ΣΑΣ"}`, a: `{"c":"σας"}`},
		{name: "kelvin sign", rules: []rs{call("c", `"case_insensitive"`)}, e: `{"c":"k"}`, a: `{"c":"\u212a"}`},
		{name: "not normalised", rules: []rs{call("c", `"case_insensitive"`)}, e: `{"c":"Berlin"}`, a: `{"c":" berlin"}`, want: []string{"mismatch c"}},
		{name: "inside lists and objects", rules: []rs{call("f", `"case_insensitive"`)},
			e: `{"f":{"city":"Berlin","tags":["A",{"x":"Y"}]}}`, a: `{"f":{"city":"berlin","tags":["a",{"x":"y"}]}}`},
		{name: "not above the path", rules: []rs{call("f", `"case_insensitive"`)},
			e: `{"f":"A","g":"A"}`, a: `{"f":"a","g":"a"}`, want: []string{"mismatch g"}},
		{name: "switched off below", rules: []rs{call("f", `"case_insensitive"`), call("f.id", `{"case_insensitive":false}`)},
			e: `{"f":{"city":"Berlin","id":"AbC"}}`, a: `{"f":{"city":"berlin","id":"abc"}}`, want: []string{"mismatch f.id"}},
		{name: "kept below a rule that sets something else", rules: []rs{call("f", `"case_insensitive"`), call("f.city", `"optional"`)},
			e: `{"f":{"city":"Berlin"}}`, a: `{"f":{"city":"BERLIN"}}`},
		{name: "not numbers", rules: []rs{call("c", `"case_insensitive"`)}, e: `{"c":"5"}`, a: `{"c":5}`, want: []string{"mismatch c"}},
	})
}

func TestCompareNormalize(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "trim", rules: []rs{call("s", `{"normalize":["trim"]}`)}, e: `{"s":"a"}`, a: `{"s":" \ta\n"}`},
		{name: "trim keeps inner", rules: []rs{call("s", `{"normalize":["trim"]}`)}, e: `{"s":"a b"}`, a: `{"s":"a  b"}`, want: []string{"mismatch s"}},
		{name: "lower", rules: []rs{call("s", `{"normalize":["lower"]}`)}, e: `{"s":"abc"}`, a: `{"s":"ABC"}`},
		{name: "lower unicode", rules: []rs{call("s", `{"normalize":["lower"]}`)}, e: `{"s":"ÄÖ"}`, a: `{"s":"äö"}`},
		{name: "collapse_space", rules: []rs{call("s", `{"normalize":["collapse_space"]}`)}, e: `{"s":"a b c"}`, a: `{"s":"a  b\t\n c"}`},
		{name: "collapse_space does not trim", rules: []rs{call("s", `{"normalize":["collapse_space"]}`)}, e: `{"s":"a"}`, a: `{"s":"  a"}`, want: []string{"mismatch s"}},
		{name: "strip_punct", rules: []rs{call("s", `{"normalize":["strip_punct"]}`)}, e: `{"s":"abc"}`, a: `{"s":"a.b,c!?"}`},
		{name: "strip_punct unicode", rules: []rs{call("s", `{"normalize":["strip_punct"]}`)}, e: `{"s":"ab"}`, a: `{"s":"«a»—b"}`},
		{name: "nfc", rules: []rs{call("s", `{"normalize":["nfc"]}`)}, e: `{"s":"\u00e9"}`, a: `{"s":"e\u0301"}`},
		{name: "without nfc", e: `{"s":"\u00e9"}`, a: `{"s":"e\u0301"}`, want: []string{"mismatch s"}},
		{name: "in order: strip then trim", rules: []rs{call("s", `{"normalize":["strip_punct","trim"]}`)}, e: `{"s":"a"}`, a: `{"s":"a ."}`},
		{name: "in order: trim then strip", rules: []rs{call("s", `{"normalize":["trim","strip_punct"]}`)}, e: `{"s":"a"}`, a: `{"s":"a ."}`, want: []string{"mismatch s"}},
		{name: "both sides", rules: []rs{call("s", `{"normalize":["trim","lower"]}`)}, e: `{"s":" Berlin "}`, a: `{"s":"BERLIN"}`},
		{name: "with case folding", rules: []rs{call("s", `{"normalize":["trim"],"case_insensitive":true}`)}, e: `{"s":"Berlin"}`, a: `{"s":"  BERLIN "}`},
		{name: "inherited into lists", rules: []rs{call("l", `{"normalize":["trim"]}`)}, e: `{"l":["a",{"b":"c"}]}`, a: `{"l":[" a",{"b":"c "}]}`},
		{name: "switched off below", rules: []rs{call("l", `{"normalize":["trim"]}`), call("l.1", `{"normalize":[]}`)}, e: `{"l":["a","b"]}`, a: `{"l":[" a"," b"]}`, want: []string{"mismatch l.1"}},
		{name: "replaced below", rules: []rs{call("o", `{"normalize":["trim"]}`), call("o.x", `{"normalize":["lower"]}`)}, e: `{"o":{"x":"a","y":"b"}}`, a: `{"o":{"x":" A","y":" b"}}`, want: []string{"mismatch o.x"}},
		{name: "keys are not normalised", rules: []rs{call("o", `{"normalize":["lower"]}`)}, e: `{"o":{"a":1}}`, a: `{"o":{"A":1}}`, want: []string{"unexpected_argument o.A", "missing_argument o.a"}},
	})
}

func TestCompareUnordered(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "any order", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":["a","b","c"]}`, a: `{"xs":["c","a","b"]}`},
		{name: "same order", rules: []rs{call("xs", `{"unordered":true}`)}, e: `{"xs":["a","b"]}`, a: `{"xs":["a","b"]}`},
		{name: "multiset counts", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":["a","a","b"]}`, a: `{"xs":["a","b","b"]}`, want: []string{"mismatch xs"}},
		{name: "length", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":["a","b"]}`, a: `{"xs":["b"]}`, want: []string{"mismatch xs"}},
		{name: "empty", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":[]}`, a: `{"xs":[]}`},
		{name: "1 is not \"1\"", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":[1,2]}`, a: `{"xs":["2","1"]}`, want: []string{"mismatch xs"}},
		{name: "unless numeric", rules: []rs{call("xs", `{"unordered":true,"numeric":true}`)}, e: `{"xs":[1,2]}`, a: `{"xs":["2","1.0"]}`},
		{name: "numbers by value", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":[1,2.5]}`, a: `{"xs":[2.50,1e0]}`},
		{name: "objects with other key order", rules: []rs{call("xs", `"unordered"`)},
			e: `{"xs":[{"a":1,"b":2},{"c":3}]}`, a: `{"xs":[{"c":3},{"b":2,"a":1}]}`},
		{name: "element rules", rules: []rs{call("xs", `"unordered"`), call("xs.#.name", `"case_insensitive"`)},
			e: `{"xs":[{"name":"A","n":1},{"name":"b","n":2}]}`, a: `{"xs":[{"name":"B","n":2},{"name":"a","n":1}]}`},
		{name: "element rules still compare", rules: []rs{call("xs", `"unordered"`), call("xs.#.name", `"case_insensitive"`)},
			e: `{"xs":[{"name":"A","n":1},{"name":"b","n":2}]}`, a: `{"xs":[{"name":"B","n":1},{"name":"a","n":2}]}`, want: []string{"mismatch xs"}},
		{name: "element ignore", rules: []rs{call("xs", `"unordered"`), call("xs.#.note", `"ignore"`)},
			e: `{"xs":[{"id":1,"note":"x"},{"id":2}]}`, a: `{"xs":[{"id":2,"note":"y"},{"id":1}]}`},
		{name: "case insensitive elements", rules: []rs{call("xs", `{"unordered":true,"case_insensitive":true}`)}, e: `{"xs":["A","b"]}`, a: `{"xs":["B","a"]}`},
		{name: "index rule is the expected position", rules: []rs{call("xs", `"unordered"`), call("xs.0", `"case_insensitive"`)},
			e: `{"xs":["A","b"]}`, a: `{"xs":["b","a"]}`},
		{name: "index rule does not apply to other positions", rules: []rs{call("xs", `"unordered"`), call("xs.0", `"case_insensitive"`)},
			e: `{"xs":["a","B"]}`, a: `{"xs":["b","a"]}`, want: []string{"mismatch xs"}},
		{
			// Greedy pairing gives 1.0 the first close actual (1.05) and
			// leaves 1.1 with 0.96; the perfect pairing exists.
			name: "greedy would fail", rules: []rs{call("xs", `{"unordered":true,"tolerance":0.1}`)},
			e: `{"xs":[1.0,1.1]}`, a: `{"xs":[1.05,0.96]}`,
		},
		{
			name:  "greedy would fail with element rules",
			rules: []rs{call("xs", `"unordered"`), call("xs.#.city", `{"normalize":["trim"]}`), call("xs.#.day", `"ignore"`)},
			e:     `{"xs":[{"city":"a","day":1},{"city":"a","day":2},{"city":"b","day":3}]}`,
			a:     `{"xs":[{"city":"a","day":9},{"city":"b ","day":8},{"city":" a","day":7}]}`,
		},
		{name: "nested unordered", rules: []rs{call("xs", `"unordered"`), call("xs.#", `"unordered"`)},
			e: `{"xs":[[1,2],[3]]}`, a: `{"xs":[[3],[2,1]]}`},
		{name: "inner lists ordered without their own rule", rules: []rs{call("xs", `"unordered"`)},
			e: `{"xs":[[1,2],[3]]}`, a: `{"xs":[[3],[2,1]]}`, want: []string{"mismatch xs"}},
		{name: "not a list", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":"ab"}`, a: `{"xs":"ab"}`},
		{name: "not a list, different", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":{"a":1}}`, a: `{"xs":{"a":2}}`, want: []string{"mismatch xs"}},
		{name: "list vs not", rules: []rs{call("xs", `"unordered"`)}, e: `{"xs":[1]}`, a: `{"xs":1}`, want: []string{"mismatch xs"}},
		{name: "wildcard", rules: []rs{call("*", `"unordered"`)}, e: `{"a":[1,2],"b":[3,4]}`, a: `{"a":[2,1],"b":[4,3]}`},
	})
}

func TestCompareUnorderedLong(t *testing.T) {
	// More elements than the stack matcher holds go through assign.
	for _, n := range []int{31, 32, 33, 70} {
		list := func(xs []int) string {
			out := "["
			for i, x := range xs {
				if i > 0 {
					out += ","
				}
				out += itoa(x)
			}
			return out + "]"
		}
		var e, a []int
		for i := 0; i < n; i++ {
			e = append(e, i)
			a = append(a, n-1-i)
		}
		s := newSet(t, rules.Extensions{}, call("xs", `"unordered"`))
		if _, d := compareText(t, s, nil, `{"xs":`+list(e)+`}`, `{"xs":`+list(a)+`}`); len(d) != 0 {
			t.Errorf("n=%d: %v", n, describeDiffs(d))
		}
		a[n-1] = 1 // the expected 0 is gone, 1 is there twice
		if _, d := compareText(t, s, nil, `{"xs":`+list(e)+`}`, `{"xs":`+list(a)+`}`); len(d) != 1 {
			t.Errorf("n=%d: want one diff, got %v", n, describeDiffs(d))
		} else if want := "expected the same elements in any order; missing [0]; extra [1] (unordered)"; d[0].Message != want {
			t.Errorf("n=%d: message %q, want %q", n, d[0].Message, want)
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestCompareOneOf(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "listed", rules: []rs{call("u", `{"one_of":["celsius","c"]}`)}, e: `{"u":"celsius"}`, a: `{"u":"c"}`},
		{name: "not listed", rules: []rs{call("u", `{"one_of":["celsius","c"]}`)}, e: `{"u":"celsius"}`, a: `{"u":"kelvin"}`, want: []string{"mismatch u"}},
		{name: "expected value not used", rules: []rs{call("u", `{"one_of":["celsius","c"]}`)}, e: `{"u":"whatever"}`, a: `{"u":"celsius"}`},
		{name: "case insensitive", rules: []rs{call("u", `{"one_of":["celsius","c"],"case_insensitive":true}`)}, e: `{"u":"celsius"}`, a: `{"u":"C"}`},
		{name: "normalised", rules: []rs{call("u", `{"one_of":["new york"],"normalize":["lower","collapse_space"]}`)}, e: `{"u":""}`, a: `{"u":"New  York"}`},
		{name: "numeric", rules: []rs{call("n", `{"one_of":[5,6],"numeric":true}`)}, e: `{"n":5}`, a: `{"n":"6.0"}`},
		{name: "strict types", rules: []rs{call("n", `{"one_of":[5,6]}`)}, e: `{"n":5}`, a: `{"n":"6"}`, want: []string{"mismatch n"}},
		{name: "objects", rules: []rs{call("o", `{"one_of":[{"a":1,"b":2},{"c":3}]}`)}, e: `{"o":{}}`, a: `{"o":{"b":2,"a":1}}`},
		{name: "unordered lists", rules: []rs{call("l", `{"one_of":[[1,2],[3]],"unordered":true}`)}, e: `{"l":[]}`, a: `{"l":[2,1]}`},
		{name: "with tolerance", rules: []rs{call("n", `{"one_of":[1,2],"tolerance":0.1}`)}, e: `{"n":0}`, a: `{"n":2.05}`},
		{name: "inherited case folding", rules: []rs{call("f", `"case_insensitive"`), call("f.u", `{"one_of":["c","f"]}`)}, e: `{"f":{"u":"c"}}`, a: `{"f":{"u":"F"}}`},
	})
}

func TestCompareRegex(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "matches", rules: []rs{call("c", `{"regex":"^B.*n$"}`)}, e: `{"c":"Berlin"}`, a: `{"c":"Bonn"}`},
		{name: "no match", rules: []rs{call("c", `{"regex":"^B.*n$"}`)}, e: `{"c":"Berlin"}`, a: `{"c":"Paris"}`, want: []string{"mismatch c"}},
		{name: "expected ignored", rules: []rs{call("c", `{"regex":"^B"}`)}, e: `{"c":42}`, a: `{"c":"Bern"}`},
		{name: "unanchored", rules: []rs{call("c", `{"regex":"erl"}`)}, e: `{"c":""}`, a: `{"c":"Berlin"}`},
		{name: "number is not a string", rules: []rs{call("c", `{"regex":"^5$"}`)}, e: `{"c":5}`, a: `{"c":5}`, want: []string{"mismatch c"}},
		{name: "after normalisers", rules: []rs{call("c", `{"regex":"^Berlin$","normalize":["trim"]}`)}, e: `{"c":""}`, a: `{"c":"  Berlin "}`},
		{name: "case insensitive", rules: []rs{call("c", `{"regex":"^B.*N$","case_insensitive":true}`)}, e: `{"c":""}`, a: `{"c":"berlin"}`},
		{name: "inherited case folding", rules: []rs{call("f", `"case_insensitive"`), call("f.c", `{"regex":"^B"}`)}, e: `{"f":{"c":""}}`, a: `{"f":{"c":"berlin"}}`},
		{name: "case sensitive by default", rules: []rs{call("c", `{"regex":"^B"}`)}, e: `{"c":""}`, a: `{"c":"berlin"}`, want: []string{"mismatch c"}},
		{name: "absent actual", rules: []rs{call("c", `{"regex":"^B"}`)}, e: `{"c":""}`, a: `{}`, want: []string{"missing_argument c"}},
		{name: "element regex", rules: []rs{call("xs.#", `{"regex":"^[a-z]+$"}`)}, e: `{"xs":["",""]}`, a: `{"xs":["ab","C"]}`, want: []string{"mismatch xs.1"}},
	})
}

func TestComparePresence(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "ignore different", rules: []rs{call("t", `"ignore"`)}, e: `{"t":1,"a":1}`, a: `{"t":"x","a":1}`, result: &Result{2, 2}},
		{name: "ignore absent actual", rules: []rs{call("t", `{"ignore":true}`)}, e: `{"t":1}`, a: `{}`, result: &Result{1, 1}},
		{name: "ignore absent expected", rules: []rs{call("t", `"ignore"`)}, e: `{}`, a: `{"t":1}`, result: &Result{0, 0}},
		{name: "ignore a subtree", rules: []rs{call("f", `"ignore"`)}, e: `{"f":{"a":[1]}}`, a: `{"f":{"b":2}}`},
		{name: "ignore false is nothing", rules: []rs{call("t", `{"ignore":false}`)}, e: `{"t":1}`, a: `{"t":2}`, want: []string{"mismatch t"}},
		{name: "ignore by wildcard", rules: []rs{call("*", `"ignore"`), call("id", `"exact"`)}, e: `{"id":1,"x":1}`, a: `{"id":2,"y":2}`, want: []string{"mismatch id"}},
		{name: "optional absent", rules: []rs{call("o", `"optional"`)}, e: `{"o":1}`, a: `{}`, result: &Result{1, 1}},
		{name: "optional present compared", rules: []rs{call("o", `"optional"`)}, e: `{"o":1}`, a: `{"o":2}`, want: []string{"mismatch o"}},
		{name: "optional both absent", rules: []rs{call("o", `"optional"`)}, e: `{}`, a: `{}`},
		{name: "optional expected absent accepts anything", rules: []rs{call("o", `{"optional":true}`)}, e: `{}`, a: `{"o":2}`, result: &Result{0, 0}},
		{name: "optional nested", rules: []rs{call("f.o", `"optional"`)}, e: `{"f":{"o":1,"p":2}}`, a: `{"f":{"p":2}}`},
		{name: "default fills actual", rules: []rs{call("u", `{"default":"celsius"}`)}, e: `{"u":"celsius"}`, a: `{}`, result: &Result{1, 1}},
		{name: "default differs from expected", rules: []rs{call("u", `{"default":"celsius"}`)}, e: `{"u":"kelvin"}`, a: `{}`, want: []string{"mismatch u"}, result: &Result{0, 1}},
		{name: "default fills expected", rules: []rs{call("u", `{"default":"celsius"}`)}, e: `{}`, a: `{"u":"celsius"}`, result: &Result{0, 0}},
		{name: "default wins over extra allowed", rules: []rs{call("u", `{"default":"celsius"}`)}, ctx: Context{AllowExtra: true}, e: `{}`, a: `{"u":"kelvin"}`, want: []string{"mismatch u"}, result: &Result{0, 1}},
		{name: "default both absent", rules: []rs{call("u", `{"default":"celsius"}`)}, e: `{}`, a: `{}`, result: &Result{0, 0}},
		{name: "default outside one_of, both absent", rules: []rs{call("u", `{"default":"k","one_of":["c","f"]}`)}, e: `{}`, a: `{}`, want: []string{"mismatch u"}, result: &Result{0, 1}},
		{name: "default inside one_of, both absent", rules: []rs{call("u", `{"default":"c","one_of":["c","f"]}`)}, e: `{}`, a: `{}`, result: &Result{0, 0}},
		{name: "default outside regex, both absent", rules: []rs{call("u", `{"default":"k","regex":"^[cf]$"}`)}, e: `{"x":1}`, a: `{"x":1}`, want: []string{"mismatch u"}, result: &Result{1, 2}},
		{name: "default outside one_of, nested, both absent", rules: []rs{call("o.u", `{"default":"k","one_of":["c","f"]}`)}, e: `{"o":{}}`, a: `{"o":{}}`, want: []string{"mismatch o.u"}},
		{name: "default outside one_of, in list elements", rules: []rs{call("l.#.u", `{"default":"k","one_of":["c","f"]}`)}, e: `{"l":[{"u":"c"},{}]}`, a: `{"l":[{"u":"c"},{}]}`, want: []string{"mismatch l.1.u"}},
		{name: "default outside one_of, null is missing", rules: []rs{call("u", `{"default":"k","one_of":["c","f"]}`)}, ctx: Context{NullIsMissing: true}, e: `{"u":null}`, a: `{"u":null}`, want: []string{"mismatch u"}, result: &Result{0, 1}},
		{name: "default outside one_of, ignored parent", rules: []rs{call("o", `"ignore"`), call("o.u", `{"default":"k","one_of":["c","f"]}`)}, e: `{"o":{}}`, a: `{"o":{}}`},
		{name: "default under other properties", rules: []rs{call("u", `{"default":"celsius","case_insensitive":true}`)}, e: `{}`, a: `{"u":"CELSIUS"}`},
		{name: "default numeric", rules: []rs{call("n", `{"default":5,"numeric":true}`)}, e: `{"n":"5.0"}`, a: `{}`},
		{name: "null is a value", rules: []rs{call("u", `{"default":"celsius"}`)}, e: `{"u":"celsius"}`, a: `{"u":null}`, want: []string{"mismatch u"}},
		{name: "null counts as default", rules: []rs{call("u", `{"default":"celsius"}`)}, ctx: Context{NullIsMissing: true}, e: `{"u":"celsius"}`, a: `{"u":null}`},
		{name: "default and optional: default decides", rules: []rs{call("u", `{"default":"celsius","optional":true}`)}, e: `{}`, a: `{"u":"kelvin"}`, want: []string{"mismatch u"}},
		{name: "default object nested diff", rules: []rs{call("o", `{"default":{"a":1}}`)}, e: `{}`, a: `{"o":{"a":2}}`, want: []string{"mismatch o.a"}},
	})
}

func TestCompareNullIsMissing(t *testing.T) {
	on := Context{NullIsMissing: true}
	runCompareCases(t, []compareCase{
		{name: "expected null, actual absent", ctx: on, e: `{"a":1,"b":null}`, a: `{"a":1}`, result: &Result{1, 1}},
		{name: "expected null, actual absent, off", e: `{"a":1,"b":null}`, a: `{"a":1}`, want: []string{"missing_argument b"}},
		{name: "actual null, expected absent", ctx: on, e: `{"a":1}`, a: `{"a":1,"b":null}`, result: &Result{1, 1}},
		{name: "actual null, expected absent, off", e: `{"a":1}`, a: `{"a":1,"b":null}`, want: []string{"unexpected_argument b"}},
		{name: "actual null is missing", ctx: on, e: `{"a":1}`, a: `{"a":null}`, want: []string{"missing_argument a"}},
		{name: "both null", ctx: on, e: `{"a":null}`, a: `{"a":null}`, result: &Result{0, 0}},
		{name: "expected null, actual value", ctx: on, e: `{"a":null}`, a: `{"a":1}`, want: []string{"unexpected_argument a"}, result: &Result{0, 1}},
		{name: "nested", ctx: on, e: `{"f":{"x":null,"y":1}}`, a: `{"f":{"y":1}}`},
		{name: "not in arrays", ctx: on, e: `{"l":[null]}`, a: `{"l":[]}`, want: []string{"mismatch l"}},
		{name: "with optional", ctx: on, rules: []rs{call("a", `"optional"`)}, e: `{"a":1}`, a: `{"a":null}`},
	})
}

func TestCompareExtraFields(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "allow at a path", rules: []rs{call("f", `{"extra_fields":"allow"}`)},
			e: `{"f":{"a":1}}`, a: `{"f":{"a":1,"b":2},"z":1}`, want: []string{"unexpected_argument z"}},
		{name: "not inherited by nested objects", rules: []rs{call("f", `{"extra_fields":"allow"}`)},
			e: `{"f":{"a":{"x":1}}}`, a: `{"f":{"a":{"x":1,"y":2},"b":2}}`, want: []string{"unexpected_argument f.a.y"}},
		{name: "reject at a path", ctx: Context{AllowExtra: true}, rules: []rs{call("f", `{"extra_fields":"reject"}`)},
			e: `{"f":{"a":1}}`, a: `{"f":{"a":1,"b":2},"z":1}`, want: []string{"unexpected_argument f.b"}},
		{name: "deep path", rules: []rs{call("f.g.h", `{"extra_fields":"allow"}`)},
			e: `{"f":{"g":{"h":{"a":1}}}}`, a: `{"f":{"g":{"h":{"a":1,"b":2}}}}`},
		{name: "wildcard path", rules: []rs{call("items.#", `{"extra_fields":"allow"}`)},
			e: `{"items":[{"a":1},{"a":2}]}`, a: `{"items":[{"a":1,"x":1},{"a":2,"y":2}]}`},
		{name: "with other properties", rules: []rs{call("f", `{"extra_fields":"allow","case_insensitive":true}`)},
			e: `{"f":{"a":"X"}}`, a: `{"f":{"a":"x","b":2}}`},
	})
}

func TestComparePrecedence(t *testing.T) {
	runCompareCases(t, []compareCase{
		{name: "literal beats star", rules: []rs{call("*", `"case_insensitive"`), call("city", `"exact"`)},
			e: `{"city":"Berlin","unit":"C"}`, a: `{"city":"berlin","unit":"c"}`, want: []string{"mismatch city"}},
		{name: "literal beats star, added first", rules: []rs{call("city", `"exact"`), call("*", `"case_insensitive"`)},
			e: `{"city":"Berlin","unit":"C"}`, a: `{"city":"berlin","unit":"c"}`, want: []string{"mismatch city"}},
		{name: "first differing segment decides", rules: []rs{call("a.*.c", `"numeric"`), call("a.b.*", `"exact"`)},
			e: `{"a":{"b":{"c":"5"},"x":{"c":"5"}}}`, a: `{"a":{"b":{"c":5},"x":{"c":5}}}`, want: []string{"mismatch a.b.c"}},
		{name: "first differing segment decides, the other way", rules: []rs{call("*.b.c", `"numeric"`), call("a.*.*", `"exact"`)},
			e: `{"a":{"b":{"c":"5"}},"z":{"b":{"c":"5"}}}`, a: `{"a":{"b":{"c":5}},"z":{"b":{"c":5}}}`, want: []string{"mismatch a.b.c"}},
		{name: "index beats hash", rules: []rs{call("xs.#", `"case_insensitive"`), call("xs.0", `"exact"`)},
			e: `{"xs":["A","B"]}`, a: `{"xs":["a","b"]}`, want: []string{"mismatch xs.0"}},
		{name: "hash beats star", rules: []rs{call("xs.*", `"case_insensitive"`), call("xs.#", `"exact"`)},
			e: `{"xs":["A"]}`, a: `{"xs":["a"]}`, want: []string{"mismatch xs.0"}},
		{name: "star matches elements", rules: []rs{call("xs.*", `"case_insensitive"`)}, e: `{"xs":["A"]}`, a: `{"xs":["a"]}`},
		{name: "hash does not match keys", rules: []rs{call("o.#", `"case_insensitive"`)}, e: `{"o":{"k":"A"}}`, a: `{"o":{"k":"a"}}`, want: []string{"mismatch o.k"}},
		{name: "decimal segment matches key", rules: []rs{call("o.0", `"case_insensitive"`)}, e: `{"o":{"0":"A"}}`, a: `{"o":{"0":"a"}}`},
		{name: "leading zero is only a key", rules: []rs{call("xs.00", `"case_insensitive"`)}, e: `{"xs":["A"]}`, a: `{"xs":["a"]}`, want: []string{"mismatch xs.0"}},
		{name: "higher level wins", rules: []rs{{LevelCall, "n", `"exact"`}, {LevelSchema, "n", `"numeric"`}},
			e: `{"n":5}`, a: `{"n":"5"}`, want: []string{"mismatch n"}},
		{name: "higher level wins, added first", rules: []rs{{LevelSchema, "n", `"numeric"`}, {LevelRuleset, "n", `"exact"`}},
			e: `{"n":5}`, a: `{"n":"5"}`, want: []string{"mismatch n"}},
		{name: "same level, later wins", rules: []rs{{LevelDefaults, "n", `"exact"`}, {LevelDefaults, "n", `"numeric"`}},
			e: `{"n":5}`, a: `{"n":"5"}`},
		{name: "an explicit exact beats what the schema implies", rules: []rs{{LevelSchema, "n", `"numeric"`}, {LevelCall, "*", `"exact"`}},
			e: `{"n":5}`, a: `{"n":"5"}`, want: []string{"mismatch n"}},
		{name: "a wildcard one_of holds on a number parameter", rules: []rs{{LevelSchema, "n", `"numeric"`}, {LevelCall, "*", `{"one_of":[1,2]}`}},
			e: `{}`, a: `{"n":99}`, want: []string{"mismatch n"}},
		{name: "and takes the schema's numeric", rules: []rs{{LevelSchema, "n", `"numeric"`}, {LevelCall, "*", `{"one_of":[1,2]}`}},
			e: `{}`, a: `{"n":"2"}`},
		{name: "a wildcard ignore holds on a number parameter", rules: []rs{{LevelSchema, "n", `"numeric"`}, {LevelDefaults, "*", `"ignore"`}},
			e: `{"n":5}`, a: `{"n":"x"}`},
		{name: "a wildcard setting takes the schema's default", rules: []rs{{LevelSchema, "u", `{"default":"celsius"}`}, {LevelCall, "*", `"case_insensitive"`}},
			e: `{"u":"celsius"}`, a: `{}`},
		{name: "a wildcard setting holds with the schema's default", rules: []rs{{LevelSchema, "u", `{"default":"celsius"}`}, {LevelCall, "*", `"case_insensitive"`}},
			e: `{"u":"celsius"}`, a: `{"u":"CELSIUS"}`},
		{name: "a wildcard regex does not judge the schema's default alone", rules: []rs{{LevelSchema, "u", `{"default":"k"}`}, {LevelCall, "*", `{"regex":"^[cf]$"}`}},
			e: `{}`, a: `{}`},
		{name: "nor when both sides are null and null is missing", rules: []rs{{LevelSchema, "u", `{"default":"k"}`}, {LevelCall, "*", `{"regex":"^[cf]$"}`}},
			ctx: Context{NullIsMissing: true}, e: `{"u":null}`, a: `{"u":null}`},
		{name: "a wildcard regex judges the schema's default against a value", rules: []rs{{LevelSchema, "u", `{"default":"k"}`}, {LevelCall, "*", `{"regex":"^[cf]$"}`}},
			e: `{"u":"c"}`, a: `{}`, want: []string{"mismatch u"}},
		{name: "a wildcard regex takes no numeric", rules: []rs{{LevelSchema, "n", `"numeric"`}, {LevelCall, "*", `{"regex":"^5$"}`}},
			e: `{}`, a: `{"n":5}`, want: []string{"mismatch n"}},
		{name: "a rule for the path itself replaces what is implied", rules: []rs{{LevelSchema, "n", `"numeric"`}, {LevelCall, "n", `"case_insensitive"`}},
			e: `{"n":5}`, a: `{"n":"5"}`, want: []string{"mismatch n"}},
		{name: "escaped dot", rules: []rs{call(`a\.b`, `"case_insensitive"`)}, e: `{"a.b":"X","a":{"b":"X"}}`, a: `{"a.b":"x","a":{"b":"x"}}`, want: []string{"mismatch a.b"}},
		{name: "escaped star is a key", rules: []rs{call(`\*`, `"case_insensitive"`)}, e: `{"*":"X","y":"X"}`, a: `{"*":"x","y":"x"}`, want: []string{"mismatch y"}},
		{name: "hash inside a key", rules: []rs{call(`c#`, `"case_insensitive"`)}, e: `{"c#":"X"}`, a: `{"c#":"x"}`},
		{name: "escaped backslash", rules: []rs{call(`a\\b`, `"case_insensitive"`)}, e: `{"a\\b":"X"}`, a: `{"a\\b":"x"}`},
		{name: "inheritance follows the winning rules", rules: []rs{call("f", `"case_insensitive"`), call("*.g", `{"normalize":["trim"]}`)},
			e: `{"f":{"g":"A"}}`, a: `{"f":{"g":" a "}}`},
		{name: "deep wildcard chain", rules: []rs{call("*.*.*", `"numeric"`)}, e: `{"a":{"b":{"c":1}}}`, a: `{"a":{"b":{"c":"1"}}}`},
	})
}

func TestCompareNonObjects(t *testing.T) {
	s := newSet(t, rules.Extensions{})
	if res, d := compareText(t, s, nil, `1`, `1.0`); res != (Result{1, 1}) || len(d) != 0 {
		t.Errorf("1 vs 1.0: %+v %v", res, describeDiffs(d))
	}
	res, d := compareText(t, s, nil, `[1]`, `[2]`)
	if res != (Result{0, 1}) || len(d) != 1 || d[0].Path != "0" {
		t.Errorf("[1] vs [2]: %+v %v", res, describeDiffs(d))
	}
	res, d = compareText(t, s, nil, `{"a":1,"b":2}`, `"x"`)
	if res != (Result{0, 2}) || len(d) != 1 || d[0].Path != "" || d[0].Kind != results.Mismatch {
		t.Errorf("object vs string: %+v %v", res, describeDiffs(d))
	}
	res, d = compareText(t, s, nil, `{}`, `[]`)
	if res != (Result{0, 1}) || len(d) != 1 {
		t.Errorf("{} vs []: %+v %v", res, describeDiffs(d))
	}
}

func TestCompareNilReportAndContext(t *testing.T) {
	s := newSet(t, rules.Extensions{})
	res := s.Compare(mustParse(t, `{"a":1,"b":2}`), mustParse(t, `{"a":1,"b":3,"c":1}`), nil, nil)
	if res != (Result{1, 3}) {
		t.Errorf("result %+v", res)
	}
}

func TestDiffFields(t *testing.T) {
	s := newSet(t, rules.Extensions{}, call("u", `{"one_of":["celsius","c"]}`), call("f", `"case_insensitive"`), call("xs", `"unordered"`), call("r", `{"regex":"^a"}`))
	_, diffs := compareText(t, s, nil,
		`{"unit":"celsius","u":"c","f":{"city":"Berlin"},"gone":1,"xs":["a","b","b"],"r":"","n":"5","l":[1,2]}`,
		`{"unit":"kelvin","u":"k","f":{"city":"Paris"},"extra":true,"xs":["b","c","a"],"r":"b","n":5,"l":[1]}`)
	want := map[string]Diff{
		"unit": {Kind: results.Mismatch, Path: "unit", Expected: mustParse(t, `"celsius"`), Actual: mustParse(t, `"kelvin"`), HasExpected: true, HasActual: true,
			Rule: "exact", Message: `expected "celsius", got "kelvin" (exact)`},
		"u": {Kind: results.Mismatch, Path: "u", Expected: mustParse(t, `"c"`), Actual: mustParse(t, `"k"`), HasExpected: true, HasActual: true,
			Rule: "one_of", Message: `expected one of ["celsius","c"], got "k" (one_of)`},
		"f.city": {Kind: results.Mismatch, Path: "f.city", Expected: mustParse(t, `"Berlin"`), Actual: mustParse(t, `"Paris"`), HasExpected: true, HasActual: true,
			Rule: "case_insensitive", Message: `expected "Berlin", got "Paris" (case_insensitive)`},
		"gone": {Kind: results.MissingArgument, Path: "gone", Expected: mustParse(t, `1`), HasExpected: true,
			Rule: "exact", Message: `expected 1, but the argument is missing`},
		"extra": {Kind: results.UnexpectedArgument, Path: "extra", Actual: mustParse(t, `true`), HasActual: true,
			Rule: "extra_fields=reject", Message: `got true, but the expected call has no such argument`},
		"xs": {Kind: results.Mismatch, Path: "xs", Expected: mustParse(t, `["a","b","b"]`), Actual: mustParse(t, `["b","c","a"]`), HasExpected: true, HasActual: true,
			Rule: "unordered", Message: `expected the same elements in any order; missing ["b"]; extra ["c"] (unordered)`},
		"r": {Kind: results.Mismatch, Path: "r", Expected: mustParse(t, `""`), Actual: mustParse(t, `"b"`), HasExpected: true, HasActual: true,
			Rule: "regex=^a", Message: `expected a string matching ^a, got "b" (regex=^a)`},
		"n": {Kind: results.Mismatch, Path: "n", Expected: mustParse(t, `"5"`), Actual: mustParse(t, `5`), HasExpected: true, HasActual: true,
			Rule: "exact", Message: `expected "5" (string), got 5 (number) (exact)`},
		"l": {Kind: results.Mismatch, Path: "l", Expected: mustParse(t, `[1,2]`), Actual: mustParse(t, `[1]`), HasExpected: true, HasActual: true,
			Rule: "exact", Message: `expected [1,2] (2 elements), got [1] (1 element) (exact)`},
	}
	if len(diffs) != len(want) {
		t.Errorf("%d diffs, want %d:%s", len(diffs), len(want), describeDiffs(diffs))
	}
	for _, d := range diffs {
		w, ok := want[d.Path]
		if !ok {
			t.Errorf("unwanted diff %+v", d)
			continue
		}
		if d.Kind != w.Kind || d.Rule != w.Rule || d.Message != w.Message || d.HasExpected != w.HasExpected || d.HasActual != w.HasActual ||
			d.Expected.String() != w.Expected.String() || d.Actual.String() != w.Actual.String() {
			t.Errorf("diff %s:\n got %+v\nwant %+v", d.Path, d, w)
		}
	}
}

func TestDiffMessages(t *testing.T) {
	tests := []struct {
		name  string
		rules []rs
		e, a  string
		msg   string
	}{
		{"nested missing", nil, `{"f":{"a":1}}`, `{"f":{}}`, `expected 1, but the field is missing`},
		{"nested unexpected", nil, `{"f":{}}`, `{"f":{"b":1}}`, `got 1, but the expected object has no such field`},
		{"default expected", []rs{call("u", `{"default":"c"}`)}, `{}`, `{"u":"k"}`, `expected "c", got "k"; the expected call omits it, so its default applies (exact)`},
		{"default actual", []rs{call("u", `{"default":"c"}`)}, `{"u":"k"}`, `{}`, `expected "k", got "c"; the actual call omits it, so its default applies (exact)`},
		{"unordered length", []rs{call("xs", `"unordered"`)}, `{"xs":[1,2]}`, `{"xs":[2]}`, `expected the same elements in any order (2 elements, got 1 element); missing [1] (unordered)`},
		{"tolerance", []rs{call("p", `{"tolerance":0.01}`)}, `{"p":1}`, `{"p":2}`, `expected 1, got 2 (tolerance=0.01)`},
		{"inherited rule name", []rs{call("f", `{"normalize":["trim","lower"]}`)}, `{"f":{"a":"x"}}`, `{"f":{"a":"y"}}`, `expected "x", got "y" (normalize=[trim,lower])`},
		{"long values are cut", nil, `{"s":"` + repeat("a", 200) + `"}`, `{"s":"b"}`, `expected "` + repeat("a", 119) + `…, got "b" (exact)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSet(t, rules.Extensions{}, tt.rules...)
			_, d := compareText(t, s, nil, tt.e, tt.a)
			if len(d) != 1 || d[0].Message != tt.msg {
				t.Errorf("got %s\nwant message %s", describeDiffs(d), tt.msg)
			}
		})
	}
}

func repeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}

func TestCompareUnorderedDuplicatesMessage(t *testing.T) {
	s := newSet(t, rules.Extensions{}, call("xs", `{"unordered":true,"tolerance":0.1}`))
	_, d := compareText(t, s, nil, `{"xs":[1.0,1.1,5]}`, `{"xs":[1.05,0.96,7]}`)
	if len(d) != 1 || d[0].Message != "expected the same elements in any order; missing [5]; extra [7] (tolerance+unordered)" {
		t.Errorf("%s", describeDiffs(d))
	}
}

// TestCompareIgnoredParent: an ignored field holds anything or nothing,
// but for the fields below it that a more specific written rule names,
// which are compared under that rule (spec 1.1: the most specific path
// wins). What the schema implies below it does not count: an implication
// is no rule that anyone wrote.
func TestCompareIgnoredParent(t *testing.T) {
	cases := []compareCase{
		{name: "child compared", rules: []rs{call("o", `"ignore"`), call("o.a", `"exact"`)},
			e: `{"o":{"a":1,"b":1}}`, a: `{"o":{"a":2,"c":3}}`, want: []string{"mismatch o.a"}, result: &Result{0, 1}},
		{name: "the rest ignored", rules: []rs{call("o", `"ignore"`), call("o.a", `"exact"`)},
			e: `{"o":{"a":1,"b":1}}`, a: `{"o":{"a":1,"c":[3]}}`, result: &Result{1, 1}},
		{name: "child rule keeps its own settings", rules: []rs{call("o", `"ignore"`), call("o.a", `"case_insensitive"`)},
			e: `{"o":{"a":"X"}}`, a: `{"o":{"a":"x","z":1}}`},
		{name: "parent absent", rules: []rs{call("o", `"ignore"`), call("o.a", `"exact"`)},
			e: `{"o":{"a":1}}`, a: `{}`, want: []string{"missing_argument o.a"}, result: &Result{0, 1}},
		{name: "parent of another shape", rules: []rs{call("o", `"ignore"`), call("o.a", `"exact"`)},
			e: `{"o":{"a":1}}`, a: `{"o":"a"}`, want: []string{"missing_argument o.a"}},
		{name: "parent null, null is missing", rules: []rs{call("o", `"ignore"`), call("o.a", `"exact"`)}, ctx: Context{NullIsMissing: true},
			e: `{"o":{"a":1}}`, a: `{"o":null}`, want: []string{"missing_argument o.a"}},
		{name: "child null, null is missing", rules: []rs{call("o", `"ignore"`), call("o.a", `"exact"`)}, ctx: Context{NullIsMissing: true},
			e: `{"o":{"a":1}}`, a: `{"o":{"a":null}}`, want: []string{"missing_argument o.a"}},
		{name: "both sides absent", rules: []rs{call("o", `"ignore"`), call("o.a", `"exact"`)},
			e: `{"x":1}`, a: `{"x":1}`},
		{name: "child the expected call leaves out", rules: []rs{call("o", `"ignore"`), call("o.a", `"exact"`)},
			e: `{"o":{}}`, a: `{"o":{"a":1}}`, want: []string{"unexpected_argument o.a"}},
		{name: "optional child the expected call leaves out", rules: []rs{call("o", `"ignore"`), call("o.a", `"optional"`)},
			e: `{"o":{}}`, a: `{"o":{"a":1}}`},
		{name: "wildcard ignore, deep literal", rules: []rs{call("*", `"ignore"`), call("filters.price.max", `"exact"`)},
			e: `{"filters":{"price":{"max":500}}}`, a: `{"filters":{"price":{"max":99999}}}`, want: []string{"mismatch filters.price.max"}},
		{name: "wildcard ignore, deep literal equal", rules: []rs{call("*", `"ignore"`), call("filters.price.max", `"exact"`)},
			e: `{"filters":{"price":{"max":500,"min":1}},"q":"x"}`, a: `{"filters":{"price":{"max":500},"sort":1},"q":"y"}`, result: &Result{2, 2}},
		{name: "defaults ignore, call rule below", rules: []rs{{LevelDefaults, "metadata", `"ignore"`}, call("metadata.user_id", `"exact"`)},
			e: `{"title":"x","metadata":{"user_id":42}}`, a: `{"title":"x","metadata":{"user_id":7,"k":1}}`, want: []string{"mismatch metadata.user_id"}, result: &Result{1, 2}},
		{name: "through a level with no rule", rules: []rs{call("o", `"ignore"`), call("o.p.q", `"exact"`)},
			e: `{"o":{"p":{"q":1,"r":1}}}`, a: `{"o":{"p":{"q":2,"s":2}}}`, want: []string{"mismatch o.p.q"}},
		{name: "through a level with no rule, equal", rules: []rs{call("o", `"ignore"`), call("o.p.q", `"exact"`)},
			e: `{"o":{"p":{"q":1,"r":1}}}`, a: `{"o":{"p":{"q":1,"s":2},"t":3}}`},
		{name: "list elements", rules: []rs{call("items", `"ignore"`), call("items.#.sku", `"exact"`)},
			e: `{"items":[{"sku":"a","n":1}]}`, a: `{"items":[{"sku":"b","n":2}]}`, want: []string{"mismatch items.0.sku"}},
		{name: "list elements equal", rules: []rs{call("items", `"ignore"`), call("items.#.sku", `"exact"`)},
			e: `{"items":[{"sku":"a","n":1}]}`, a: `{"items":[{"sku":"a","n":9,"x":1}]}`},
		{name: "list element the actual lacks", rules: []rs{call("items", `"ignore"`), call("items.#.sku", `"exact"`)},
			e: `{"items":[{"sku":"a"},{"sku":"b"}]}`, a: `{"items":[{"sku":"a"}]}`, want: []string{"missing_argument items.1.sku"}},
		{name: "one element named", rules: []rs{call("xs", `"ignore"`), call("xs.1", `"exact"`)},
			e: `{"xs":[1,2,3]}`, a: `{"xs":[9,2]}`},
		{name: "one element named, differs", rules: []rs{call("xs", `"ignore"`), call("xs.1", `"exact"`)},
			e: `{"xs":[1,2,3]}`, a: `{"xs":[9,8]}`, want: []string{"mismatch xs.1"}},
		{name: "ignored child of an ignored parent", rules: []rs{call("o", `"ignore"`), call("o.a", `"ignore"`)},
			e: `{"o":{"a":1}}`, a: `{"o":{"a":2}}`},
		{name: "what the schema implies below stays ignored", rules: []rs{call("o", `"ignore"`), {LevelSchema, "o.n", `"numeric"`}, {LevelSchema, "o.d", `{"default":1}`}},
			e: `{"o":{"n":1}}`, a: `{"o":{"n":"x","d":5}}`},
		{name: "a wildcard below", rules: []rs{call("o", `"ignore"`), call("o.*", `"case_insensitive"`)},
			e: `{"o":{"a":"X","b":"Y"}}`, a: `{"o":{"a":"x","b":"z"}}`, want: []string{"mismatch o.b"}},
	}
	runCompareCases(t, cases)
	for _, tc := range cases {
		s := newSet(t, rules.Extensions{}, tc.rules...)
		ctx := tc.ctx
		if got, want := s.Accepts(mustParse(t, tc.e), mustParse(t, tc.a), &ctx, nil), len(tc.want) == 0; got != want {
			t.Errorf("%s: Accepts = %v, want %v", tc.name, got, want)
		}
	}
}
