package rulecore

import (
	"github.com/callgrade/callgrade/rules"
	"reflect"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// shortcutRules are the entries FuzzShortcut draws its sets from: rules
// that cannot refuse equal values (settings, presence, unordered) and
// matchers that can (regex, one_of, a comparator), at the paths a fuzzed
// document is likely to have.
var shortcutRules = []rs{
	call("a", `"numeric"`),
	call("a", `{"regex":"^x"}`),
	call("b", `{"default":{"c":1}}`),
	call("b", `"optional"`),
	call("b.c", `{"one_of":[1,"x"," Y-","5"],"normalize":["trim",{"delete":"-"}]}`),
	call("b.*", `{"tolerance":0.5}`),
	call("*", `"case_insensitive"`),
	call("*.#", `"unordered"`),
	call("#", `{"default":"d","optional":true}`),
	call("c", `{"extra_fields":"reject"}`),
	call("c.*", `"ignore"`),
	call("*.*", `{"expr":"x"}`),
	call("a.#", `{"normalize":["trim"]}`),
	declare("d"),
	call("*", `{"type":["string","object"]}`),
}

// fromRules are the references FuzzShortcut adds to a set when its flags
// say so: to a step's scalar, to a list, and by tool name.
var fromRules = []struct {
	path Path
	rule string
}{
	{mustPathT("a"), `{"from":"steps[0].result.id"}`},
	{mustPathT("b.e"), `{"from":"find_order.result.items"}`},
	{mustPathT("c.x"), `{"from":"steps[-1].arguments.email"}`},
}

func mustPathT(s string) Path {
	p, err := ParsePath(s)
	if err != nil {
		panic(err)
	}
	return p
}

func mustRule(t *testing.T, ext rules.Extensions, src string) *Rule {
	t.Helper()
	r, err := Compile(mustParse(t, src), ext)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// FuzzShortcut holds the shortcuts of the comparison (equal values pass
// where no rule can refuse them; a one_of's strings are normalised at
// load) to the full walk under the rules:
// the same result, the same diffs in the same order, the same failed
// arguments, for any two documents and any set of rules drawn from
// shortcutRules, with or without null_is_missing and allow_extra; and
// Accepts to CompareChecked's verdict; and the types CompareChecked
// learns from the comparison to those it checks in a walk of its own.
func FuzzShortcut(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":"5","b":{"c":1,"e":[1,2]},"c":{"x":1}}`, `{"a":5,"b":{"c":1,"e":[2,1]},"c":{"x":2}}`},
		{`{"a":["x","y"],"b":{"c":"X"}}`, `{"a":["x","y"],"b":{"c":"X"}}`},
		{`[{"a":1},{"b":2}]`, `[{"a":1},{"b":2}]`},
		{`{"d":null,"a":null}`, `{"d":null,"a":null,"z":1}`},
		{`{"b":{"c":1}}`, `{}`},
		{`{"b":{"c":"x"}}`, `{"b":{"c":" y-"}}`},
	} {
		f.Add(s[0], s[1], uint16(0xffff), uint8(0))
		f.Add(s[0], s[1], uint16(0x5555), uint8(3))
		f.Add(s[0], s[0], uint16(0x0f0f), uint8(1))
		f.Add(s[0], s[1], uint16(0x0101), uint8(4|1<<4))
		f.Add(s[0], s[0], uint16(0), uint8(4|3<<4))
		f.Add(s[0], s[1], uint16(0x4141), uint8(64|1))
	}
	ext := rules.Extensions{Expr: func(src string) (rules.Comparator, error) {
		return comparatorFunc(func(in *rules.Input) rules.Outcome {
			// Refuses some equal values, accepts some different ones.
			e, a := in.Expected.String(), in.Actual.String()
			return rules.Outcome{Equal: len(e)%3 != 0 && len(e) == len(a), Message: "lengths " + e + " " + a}
		}), nil
	}}
	f.Fuzz(func(t *testing.T, expected, actual string, pick uint16, flags uint8) {
		e, err := value.Parse(expected)
		if err != nil {
			return
		}
		a, err := value.Parse(actual)
		if err != nil {
			return
		}
		var entries []rs
		for i, r := range shortcutRules {
			if pick&(1<<i) != 0 {
				entries = append(entries, r)
			}
		}
		s := newSet(t, ext, entries...)
		if pick&(1<<15) != 0 {
			// A rule for the arguments object itself (the empty Path).
			r, err := Compile(mustParse(t, `{"extra_fields":"allow","case_insensitive":true}`), ext)
			if err != nil {
				t.Fatal(err)
			}
			s.Add(LevelCall, Path{}, r)
		}
		if flags&8 != 0 {
			// A type rule for the arguments object itself, which an
			// object of arguments fails.
			s.Add(LevelCall, Path{}, mustRule(t, ext, `{"type":"array","extra_fields":"allow"}`))
		}
		if flags&64 != 0 {
			// An ignored field with a written rule below it, which is
			// compared where the rest is not (walker.ignored).
			s.Add(LevelDefaults, mustPathT("c"), mustRule(t, ext, `"ignore"`))
			s.Add(LevelCall, mustPathT("c.x"), mustRule(t, ext, `{"one_of":[1,"x"]}`))
			s.Add(LevelCall, mustPathT("#.b"), mustRule(t, ext, `"ignore"`))
			s.Add(LevelCall, mustPathT("#.b.c"), mustRule(t, ext, `"case_insensitive"`))
		}
		if flags&4 != 0 {
			// References: the expected value is a step's, which equal
			// values need not match (flags' high bits say how many of
			// the run's steps come before, none leaving them unresolved).
			for _, r := range fromRules {
				s.Add(LevelCall, r.path, mustRule(t, ext, r.rule))
			}
		}
		ctx := &Context{NullIsMissing: flags&1 != 0, AllowExtra: flags&2 != 0, Steps: rules.NewSteps(testSteps(t), int(flags>>4)%4)}
		for _, pair := range [][2]value.Value{{e, a}, {e, e}, {a, a}} {
			fast, fastRes, fastFailed := shortcutRun(s, pair[0], pair[1], ctx, false)
			slow, slowRes, slowFailed := shortcutRun(s, pair[0], pair[1], ctx, true)
			if fastRes != slowRes || !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(fastFailed, slowFailed) {
				t.Fatalf("%s vs %s under %v:\n shortcut %+v %+v%s\n full     %+v %+v%s",
					pair[0], pair[1], entries, fastRes, fastFailed, describeDiffs(fast), slowRes, slowFailed, describeDiffs(slow))
			}
			// Quietly, as a pairing is weighed, the verdict is the same.
			var eq Equalities
			qf, _ := s.walk(pair[0], pair[1], ctx, nil, false, &eq)
			qs, _ := s.walk(pair[0], pair[1], ctx, nil, true, nil)
			if qf != qs {
				t.Fatalf("%s vs %s quietly: shortcut %+v, full %+v", pair[0], pair[1], qf, qs)
			}
			checkEqualities(t, &eq, pair[0], pair[1])
			// The types checked as the comparison meets the arguments
			// are those of the type walk of its own.
			var fusedDiffs, sepDiffs []Diff
			fused := s.compareCheckedWalk(pair[0], pair[1], ctx, func(d Diff) { fusedDiffs = append(fusedDiffs, d) }, nil, false)
			sep := s.compareCheckedWalk(pair[0], pair[1], ctx, func(d Diff) { sepDiffs = append(sepDiffs, d) }, nil, true)
			if fused != sep || !reflect.DeepEqual(fusedDiffs, sepDiffs) {
				t.Fatalf("%s vs %s under %v, checked:\n types in the walk %+v%s\n types apart       %+v%s",
					pair[0], pair[1], entries, fused, describeDiffs(fusedDiffs), sep, describeDiffs(sepDiffs))
			}
			// Accepts gives CompareChecked's verdict.
			checked := s.CompareChecked(pair[0], pair[1], ctx, nil)
			if got := s.Accepts(pair[0], pair[1], ctx, &eq); got != (checked.Matched == checked.Total) {
				t.Fatalf("%s vs %s: Accepts %v, CompareChecked %+v", pair[0], pair[1], got, checked)
			}
		}
	})
}

func shortcutRun(s *Set, e, a value.Value, ctx *Context, slow bool) ([]Diff, Result, failedSet) {
	var diffs []Diff
	var eq *Equalities
	if !slow {
		eq = new(Equalities) // recording changes nothing of the comparison
	}
	res, failed := s.walk(e, a, ctx, func(d Diff) { diffs = append(diffs, d) }, slow, eq)
	return diffs, res, failed
}

// checkEqualities holds what a comparison of e and a recorded to
// value.Equal, and each lookup of a recorded pair to the record. Pairs at
// addresses outside the two trees (a rule's default) are not looked at.
func checkEqualities(t *testing.T, eq *Equalities, e, a value.Value) {
	t.Helper()
	if len(eq.pairs) > maxEqualities {
		t.Fatalf("%d pairs recorded, more than %d", len(eq.pairs), maxEqualities)
	}
	es, as := map[uintptr]*value.Value{}, map[uintptr]*value.Value{}
	subValues(&e, es)
	subValues(&a, as)
	for _, p := range eq.pairs {
		pa, pe := as[p.a], es[p.e]
		if pa == nil || pe == nil {
			continue
		}
		want := value.Equal(*pa, *pe)
		if p.equal != want {
			t.Fatalf("recorded %s == %s as %v, value.Equal says %v", *pa, *pe, p.equal, want)
		}
		if eq.Equal(pa, pe) != want {
			t.Fatalf("lookup of %s == %s disagrees with value.Equal", *pa, *pe)
		}
	}
}

// subValues maps the address of every value below v to it.
func subValues(v *value.Value, out map[uintptr]*value.Value) {
	switch v.Kind() {
	case value.Array:
		es := v.Elems()
		for i := range es {
			out[addr(&es[i])] = &es[i]
			subValues(&es[i], out)
		}
	case value.Object:
		ms := v.Members()
		for i := range ms {
			out[addr(&ms[i].Value)] = &ms[i].Value
			subValues(&ms[i].Value, out)
		}
	}
}
