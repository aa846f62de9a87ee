package rulecore

import (
	"errors"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// testExt is an expression language of a few fixed expressions.
func testExt(seen *[]rules.Input) rules.Extensions {
	return rules.Extensions{
		Expr: func(src string) (rules.Comparator, error) {
			switch src {
			case "abs(actual - expected) <= 0.5":
				return comparatorFunc(func(in *rules.Input) rules.Outcome {
					if seen != nil {
						*seen = append(*seen, *in)
					}
					e, ok1 := in.Expected.Float()
					a, ok2 := in.Actual.Float()
					return rules.Outcome{Equal: ok1 && ok2 && math.Abs(a-e) <= 0.5}
				}), nil
			case "actual == expected":
				return comparatorFunc(func(in *rules.Input) rules.Outcome {
					if seen != nil {
						*seen = append(*seen, *in)
					}
					return rules.Outcome{Equal: value.Equal(in.Expected, in.Actual), Message: "strings differ after all"}
				}), nil
			case "fail":
				return comparatorFunc(func(*rules.Input) rules.Outcome { return rules.Outcome{Err: errors.New("budget exceeded")} }), nil
			case "panic":
				return comparatorFunc(func(*rules.Input) rules.Outcome { panic("oops") }), nil
			}
			return nil, errors.New("unknown expression")
		},
		Plugin: func(ref string, params value.Value) (rules.Comparator, error) {
			km, _ := params.Get("km")
			limit, _ := km.Float()
			return comparatorFunc(func(in *rules.Input) rules.Outcome {
				if seen != nil {
					*seen = append(*seen, *in)
				}
				if in.Actual.Kind() != value.Number {
					return rules.Outcome{Err: errors.New("geo: not a number"), ErrKind: results.PluginError}
				}
				e, _ := in.Expected.Float()
				a, _ := in.Actual.Float()
				return rules.Outcome{Equal: math.Abs(a-e) <= limit}
			}), nil
		},
	}
}

func TestCompareComparators(t *testing.T) {
	tests := []struct {
		name  string
		rules []rs
		e, a  string
		want  []string
		msg   string // of the first diff, when set
	}{
		{name: "expr equal", rules: []rs{call("n", `{"expr":"abs(actual - expected) <= 0.5"}`)}, e: `{"n":1}`, a: `{"n":1.4}`},
		{name: "expr not equal", rules: []rs{call("n", `{"expr":"abs(actual - expected) <= 0.5"}`)}, e: `{"n":1}`, a: `{"n":1.6}`,
			want: []string{"mismatch n"}, msg: "expected 1, got 1.6 (expr)"},
		{name: "comparator message", rules: []rs{call("s", `{"expr":"actual == expected"}`)}, e: `{"s":"a"}`, a: `{"s":"b"}`,
			want: []string{"mismatch s"}, msg: "strings differ after all"},
		{name: "sees normalised values", rules: []rs{call("s", `{"expr":"actual == expected","normalize":["trim"],"case_insensitive":true}`)},
			e: `{"s":"Straße"}`, a: `{"s":{"x":" STRASSE "}}`, want: []string{"mismatch s"}},
		{name: "sees normalised strings", rules: []rs{call("s", `{"expr":"actual == expected","normalize":["trim"],"case_insensitive":true}`)},
			e: `{"s":["Straße",{"k":"A"}]}`, a: `{"s":[" STRASSE ",{"k":"a"}]}`},
		{name: "error is a rule error", rules: []rs{call("n", `{"expr":"fail"}`)}, e: `{"n":1}`, a: `{"n":1}`,
			want: []string{"rule_error n"}, msg: "budget exceeded"},
		{name: "panic is a rule error", rules: []rs{call("n", `{"expr":"panic"}`)}, e: `{"n":1}`, a: `{"n":1}`,
			want: []string{"rule_error n"}, msg: "expr comparator panicked: oops"},
		{name: "plugin", rules: []rs{call("loc", `{"plugin":"geo.within_km","params":{"km":5}}`)}, e: `{"loc":10}`, a: `{"loc":14}`},
		{name: "plugin far", rules: []rs{call("loc", `{"plugin":"geo.within_km","params":{"km":5}}`)}, e: `{"loc":10}`, a: `{"loc":16}`,
			want: []string{"mismatch loc"}, msg: "expected 10, got 16 (plugin=geo.within_km)"},
		{name: "plugin error kind", rules: []rs{call("loc", `{"plugin":"geo.within_km","params":{"km":5}}`)}, e: `{"loc":10}`, a: `{"loc":"x"}`,
			want: []string{"plugin_error loc"}, msg: "geo: not a number"},
		{name: "elements through an unordered list", rules: []rs{call("xs", `"unordered"`), call("xs.#", `{"expr":"abs(actual - expected) <= 0.5"}`)},
			e: `{"xs":[1,5]}`, a: `{"xs":[5.2,0.9]}`},
		{name: "error inside an unordered list", rules: []rs{call("xs", `"unordered"`), call("xs.#", `{"expr":"fail"}`)},
			e: `{"xs":[1]}`, a: `{"xs":[1]}`, want: []string{"rule_error xs"}, msg: "budget exceeded"},
		{name: "absent actual is missing", rules: []rs{call("n", `{"expr":"fail"}`)}, e: `{"n":1}`, a: `{}`, want: []string{"missing_argument n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSet(t, testExt(nil), tt.rules...)
			_, d := compareText(t, s, nil, tt.e, tt.a)
			want := tt.want
			if want == nil {
				want = []string{}
			}
			if got := brief(d); !equalStrings(got, want) {
				t.Fatalf("diffs %q, want %q%s", got, want, describeDiffs(d))
			}
			if tt.msg != "" && d[0].Message != tt.msg {
				t.Errorf("message %q, want %q", d[0].Message, tt.msg)
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestComparatorInput(t *testing.T) {
	var seen []rules.Input
	s := newSet(t, testExt(&seen), call("f.loc", `{"plugin":"geo.within_km","params":{"km":5}}`), call("f", `{"normalize":["trim"]}`))
	e, a := `{"f":{"loc":1},"name":"x"}`, `{"f":{"loc":2},"name":"x"}`
	res := s.Compare(mustParse(t, e), mustParse(t, a), &Context{Tool: "find"}, nil)
	if res != (Result{2, 2}) || len(seen) != 1 {
		t.Fatalf("result %+v, %d calls", res, len(seen))
	}
	in := seen[0]
	if in.Path != "f.loc" || in.Tool != "find" || in.Params.String() != `{"km":5}` ||
		in.Expected.String() != "1" || in.Actual.String() != "2" ||
		in.Args.String() != `{"f":{"loc":2},"name":"x"}` || in.ExpectedArgs.String() != `{"f":{"loc":1},"name":"x"}` {
		t.Errorf("input %+v", in)
	}
}

func TestSetZeroValueAndRebuild(t *testing.T) {
	var s Set
	e, a := mustParse(t, `{"c":"A"}`), mustParse(t, `{"c":"a"}`)
	if res := s.Compare(e, a, nil, nil); res != (Result{0, 1}) {
		t.Errorf("empty set: %+v", res)
	}
	p, _ := ParsePath("c")
	r, _ := Compile(value.StringOf("case_insensitive"), rules.Extensions{})
	s.Add(LevelCall, p, r)
	if res := s.Compare(e, a, nil, nil); res != (Result{1, 1}) {
		t.Errorf("after Add: %+v", res)
	}
	r, _ = Compile(value.StringOf("exact"), rules.Extensions{})
	s.Add(LevelSchema, p, r) // lower level: loses
	if res := s.Compare(e, a, nil, nil); res != (Result{1, 1}) {
		t.Errorf("after a lower Add: %+v", res)
	}
	s.Add(LevelCall, p, r) // same level, later: wins
	if res := s.Compare(e, a, nil, nil); res != (Result{0, 1}) {
		t.Errorf("after a later Add: %+v", res)
	}
}

func TestCompareConcurrent(t *testing.T) {
	s := newSet(t, rules.Extensions{}, call("cabins", `"unordered"`), call("origin", `"case_insensitive"`), call("*", `{"normalize":["trim"]}`))
	e := mustParse(t, `{"origin":"Berlin","cabins":["a","b"],"x":" y"}`)
	a := mustParse(t, `{"origin":"BERLIN","cabins":["b","a"],"x":"y "}`)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if res := s.Compare(e, a, nil, nil); res != (Result{3, 3}) {
					t.Errorf("result %+v", res)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestCompareAllocatesNothingWhenEqual(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	s := newSet(t, rules.Extensions{},
		call("cabins", `"unordered"`), call("origin", `"case_insensitive"`),
		call("filters", `{"normalize":["trim","collapse_space","nfc"],"numeric":true}`),
		call("legs.#.code", `{"one_of":["A","B"],"case_insensitive":true}`),
		call("price", `{"tolerance":0.5}`), call("note", `"optional"`), call("id", `{"regex":"^[0-9]+$"}`),
	)
	e := mustParse(t, `{"origin":"Berlin","destination":"Paris","max_price":350,"cabins":["economy","premium"],"passengers":2,
		"filters":{"a":"x y","b":"5"},"legs":[{"code":"a"},{"code":"b"}],"price":10,"note":"n","id":"1","deep":{"a":{"b":{"c":[1,{"d":2}]}}}}`)
	a := mustParse(t, `{"passengers":2.0,"cabins":["premium","economy"],"max_price":350,"destination":"Paris","origin":"BERLIN",
		"filters":{"a":"x y","b":5},"legs":[{"code":"B"},{"code":"A"}],"price":10.2,"id":"42","deep":{"a":{"b":{"c":[1.0,{"d":2}]}}}}`)
	ctx := &Context{Tool: "t"}
	if res := s.Compare(e, a, ctx, nil); res.Matched != res.Total {
		_, d := compareText(t, s, ctx, e.String(), a.String())
		t.Fatalf("not equal: %+v%s", res, describeDiffs(d))
	}
	if n := testing.AllocsPerRun(100, func() { s.Compare(e, a, ctx, nil) }); n != 0 {
		t.Errorf("%v allocations per comparison, want 0", n)
	}
}

func TestDeepPaths(t *testing.T) {
	// Deeper than the walker's fixed path array.
	e, a := "", ""
	for i := 0; i < 40; i++ {
		e += `{"k":`
		a += `{"k":`
	}
	e += "1"
	a += "2"
	want := "k"
	for i := 0; i < 40; i++ {
		e += "}"
		a += "}"
		if i > 0 {
			want += ".k"
		}
	}
	_, d := compareText(t, newSet(t, rules.Extensions{}), nil, e, a)
	if len(d) != 1 || d[0].Path != want {
		t.Errorf("%s", describeDiffs(d))
	}
}

func TestRootRules(t *testing.T) {
	add := func(s *Set, spec string) {
		r, err := Compile(mustParse(t, spec), rules.Extensions{})
		if err != nil {
			t.Fatal(err)
		}
		s.Add(LevelCall, Path{}, r)
	}
	e, a := mustParse(t, `{"a":"X","b":{"c":"Y"}}`), mustParse(t, `{"a":"x","b":{"c":"y","d":1}}`)
	var s Set
	add(&s, `{"case_insensitive":true,"extra_fields":"allow"}`)
	if res := s.Compare(e, a, nil, nil); res != (Result{1, 2}) { // b.d is still extra
		t.Errorf("inherited: %+v", res)
	}
	var ign Set
	add(&ign, `"ignore"`)
	if res := ign.Compare(e, mustParse(t, `"anything"`), nil, nil); res != (Result{2, 2}) {
		t.Errorf("ignore: %+v", res)
	}
	var one Set
	add(&one, `{"one_of":[{"a":1},{"a":2}]}`)
	if res := one.Compare(e, mustParse(t, `{"a":2}`), nil, nil); res != (Result{2, 2}) {
		t.Errorf("one_of matches: %+v", res)
	}
	var d []Diff
	if res := one.Compare(e, mustParse(t, `{"a":3}`), nil, func(x Diff) { d = append(d, x) }); res != (Result{0, 2}) || len(d) != 1 || d[0].Path != "" {
		t.Errorf("one_of fails: %+v%s", res, describeDiffs(d))
	}
}

func TestManyLiteralKeys(t *testing.T) {
	var entries []rs
	e, a := "{", "{"
	for i := 0; i < 20; i++ {
		k := "k" + itoa(i)
		entries = append(entries, call(k, `"case_insensitive"`))
		if i > 0 {
			e, a = e+",", a+","
		}
		e += `"` + k + `":"A"`
		a += `"` + k + `":"a"`
	}
	entries = append(entries, call("*", `"numeric"`))
	s := newSet(t, rules.Extensions{}, entries...)
	res, d := compareText(t, s, nil, e+`,"z":"1"}`, a+`,"z":1}`)
	if res != (Result{21, 21}) {
		t.Errorf("%+v%s", res, describeDiffs(d))
	}
}

// keyNext finds what key finds, from any cursor a walk in ascending order
// can leave before the key (every key before it less than the one
// sought), for keys in and out of a state's list, with the list searched
// in turn and through its map.
func TestKeyNext(t *testing.T) {
	for _, n := range []int{3, 12} {
		var set Set
		var keys []string
		for i := range n {
			k := string(rune('a' + i))
			keys = append(keys, k)
			set.Add(LevelCall, mustPathT(k), mustRule(t, rules.Extensions{}, `"case_insensitive"`))
		}
		set.Add(LevelCall, mustPathT("*"), mustRule(t, rules.Extensions{}, `"numeric"`))
		root := set.compiled()
		if (root.keyMap != nil) != (n > 8) {
			t.Fatalf("%d keys: map %v", n, root.keyMap != nil)
		}
		for _, k := range append(keys, "", "zz", "a0") {
			// The keys of the list less than k: a cursor past them is
			// one an ascending walk cannot leave.
			below, _ := slices.BinarySearchFunc(root.keys, k, func(ks keyState, k string) int { return strings.Compare(ks.key, k) })
			for start := 0; start <= below; start++ {
				next := start
				if got, want := root.keyNext(k, &next), root.key(k); got != want {
					t.Errorf("%d keys, %q from %d: %p, key gives %p", n, k, start, got, want)
				}
				if i := slices.Index(keys, k); i >= 0 && root.keyMap == nil && next != i+1 {
					t.Errorf("%d keys, %q from %d: next %d, want %d", n, k, start, next, i+1)
				}
			}
		}
	}
}

// A path of many wildcards builds one state per depth, not two per state
// at every depth (a `*` matches object keys and array elements alike, and
// both children of a state once built the same state each): 16 of them
// took 2^17 states, 30 a minute and gigabytes. Mixed with `#` and with
// other paths, it stays small.
func TestWildcardPathsBuildFewStates(t *testing.T) {
	const depth = 16
	stars := strings.TrimSuffix(strings.Repeat("*.", depth), ".")
	mixed := strings.TrimSuffix(strings.Repeat("*.#.", depth/2), ".")
	hashes := strings.TrimSuffix(strings.Repeat("#.", depth), ".")
	for _, paths := range [][]string{{stars}, {mixed}, {stars, hashes}, {stars, mixed, hashes}} {
		var entries []rs
		for _, p := range paths {
			entries = append(entries, call(p, `"case_insensitive"`))
		}
		s := newSet(t, rules.Extensions{}, entries...)
		if n := countStates(s.compiled(), map[*state]bool{}); n > 4*len(paths)*depth {
			t.Errorf("%d paths of %d segments: %d states, want at most %d", len(paths), depth, n, 4*len(paths)*depth)
		}
		// And the rule still applies at the depth it names, in objects
		// and in arrays, and not above it.
		nest := func(leaf string, array bool) string {
			s := leaf
			for i := range depth {
				if array && i%2 == 0 {
					s = "[" + s + "]"
				} else {
					s = `{"k":` + s + "}"
				}
			}
			return s
		}
		for _, array := range []bool{false, true} {
			res, diffs := compareText(t, s, &Context{}, nest(`"Oslo"`, array), nest(`"OSLO"`, array))
			// `*` matches list elements too (docs/rules.md); `#` only them.
			if applies := paths[0] == stars || array; applies != (res.Matched == res.Total) {
				t.Errorf("paths %.20q…, arrays %v: matched %d of %d, want the rule to apply: %v%s", paths, array, res.Matched, res.Total, applies, describeDiffs(diffs))
			}
		}
	}
}

func countStates(st *state, seen map[*state]bool) int {
	if st == nil || seen[st] {
		return 0
	}
	seen[st] = true
	n := 1 + countStates(st.anyKey, seen) + countStates(st.anyIdx, seen)
	for _, k := range st.keys {
		n += countStates(k.st, seen)
	}
	for _, i := range st.idx {
		n += countStates(i.st, seen)
	}
	return n
}
