package rulecore

import (
	"github.com/callgrade/callgrade/rules"
	"strconv"
	"testing"

	"github.com/callgrade/callgrade/value"
)

func mustParse(tb testing.TB, s string) value.Value {
	tb.Helper()
	v, err := value.Parse(s)
	if err != nil {
		tb.Fatalf("parse %s: %v", s, err)
	}
	return v
}

func benchSet(b *testing.B) *Set {
	s := &Set{}
	for path, spec := range map[string]string{"cabins": "unordered", "origin": "case_insensitive"} {
		p, err := ParsePath(path)
		if err != nil {
			b.Fatal(err)
		}
		r, err := Compile(value.StringOf(spec), rules.Extensions{})
		if err != nil {
			b.Fatal(err)
		}
		s.Add(LevelCall, p, r)
	}
	return s
}

// BenchmarkCompare compares a five-argument call with one unordered and one
// case_insensitive rule, the actual equal to the expected but for key
// order, list order and case.
func BenchmarkCompare(b *testing.B) {
	s := benchSet(b)
	e := mustParse(b, `{"origin":"Berlin","destination":"Paris","max_price":350,"cabins":["economy","premium"],"passengers":2}`)
	a := mustParse(b, `{"passengers":2.0,"cabins":["premium","economy"],"max_price":350,"destination":"Paris","origin":"BERLIN"}`)
	ctx := &Context{Tool: "search_flights"}
	if r := s.Compare(e, a, ctx, nil); r.Matched != 5 || r.Total != 5 {
		b.Fatalf("result %+v", r)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Compare(e, a, ctx, nil)
	}
}

// BenchmarkCompareIdentical is BenchmarkCompare with the actual written
// exactly as the expected.
func BenchmarkCompareIdentical(b *testing.B) {
	s := benchSet(b)
	e := mustParse(b, `{"origin":"Berlin","destination":"Paris","max_price":350,"cabins":["economy","premium"],"passengers":2}`)
	ctx := &Context{Tool: "search_flights"}
	b.ReportAllocs()
	for b.Loop() {
		s.Compare(e, e, ctx, nil)
	}
}

// BenchmarkCompareUnorderedShort compares an unordered list of 20 strings
// given in reverse order: every pair is compared and matched.
func BenchmarkCompareUnorderedShort(b *testing.B) {
	s := newSet(b, rules.Extensions{}, call("xs", `"unordered"`))
	benchUnordered(b, s, 20, func(i int) string { return `"item` + strconv.Itoa(i) + `"` })
}

// BenchmarkCompareUnorderedPairs compares unordered lists of numbers given
// in reverse order under a rule for one index, which leaves comparing
// every pair as the only way to pair them.
func BenchmarkCompareUnorderedPairs(b *testing.B) {
	for _, n := range []int{50, 500} {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			s := newSet(b, rules.Extensions{}, call("xs", `"unordered"`), call("xs.0", `"numeric"`))
			benchUnordered(b, s, n, strconv.Itoa)
		})
	}
}

// benchUnordered times comparing the list xs of n elements with the same
// list reversed.
func benchUnordered(b *testing.B, s *Set, n int, elem func(i int) string) {
	reversed := make([]int, n)
	for i := range reversed {
		reversed[i] = n - 1 - i
	}
	e := mustParse(b, `{"xs":`+longList(n, nil, elem)+`}`)
	a := mustParse(b, `{"xs":`+longList(n, reversed, elem)+`}`)
	b.ReportAllocs()
	for b.Loop() {
		if res := s.Compare(e, a, nil, nil); res.Matched != 1 {
			b.Fatal("not equal")
		}
	}
}

// BenchmarkNormalize normalises the strings of a BFCL-like call under
// BFCL's pipeline (delete, lower, replace): fused into one pass, as a
// rule compiles it, and one normaliser after another.
func BenchmarkNormalize(b *testing.B) {
	pipeline := mustParse(b, `[{"delete":" ,./-_*^"},"lower",{"replace":{"'":"\""}}]`)
	var steps []normStep
	for _, e := range pipeline.Elems() {
		st := stepByName(e.Str())
		if e.Kind() == value.Object {
			var err error
			if st, err = paramStep(e); err != nil {
				b.Fatal(err)
			}
		}
		steps = append(steps, st)
	}
	var oneByOne []normalizer
	for _, st := range steps {
		oneByOne = append(oneByOne, st.fn)
	}
	in := []string{"San Francisco, CA", "kilometers", "New York's", "2023-10-01", "Müller-Lüdenscheid"}
	for _, tc := range []struct {
		name string
		fns  []normalizer
	}{{"fused", fuse(steps)}, {"steps", oneByOne}} {
		b.Run(tc.name, func(b *testing.B) {
			var nb normBufs
			for b.Loop() {
				for _, s := range in {
					nb.apply(tc.fns, s, 0)
				}
			}
		})
	}
}

// BenchmarkCompareTyped compares calls shaped as BFCL's importer writes
// them: each argument of the tool ruled by its type, its strings
// normalised, some with a one_of, optional ones the expected call leaves
// out; the actual call right but for a string's case. Each operation is
// the verdict (Accepts) and then the comparison with the type checks
// (CompareChecked) with a report, as the engine asks for a pair.
func BenchmarkCompareTyped(b *testing.B) {
	norm := `"normalize":[{"delete":" ,./-_*^"},"lower",{"replace":{"'":"\""}}]`
	s := newSet(b, rules.Extensions{},
		call("location", `{"type":"string",`+norm+`}`),
		call("unit", `{"type":"string","one_of":["celsius","c",""],"optional":true,`+norm+`}`),
		call("days", `{"type":"integer"}`),
		call("detailed", `{"type":"boolean","optional":true}`),
		call("language", `{"type":"string","optional":true,`+norm+`}`),
		declare("detailed"), declare("language"))
	e := mustParse(b, `{"location":"Berlin, Germany","unit":"celsius","days":3}`)
	a := mustParse(b, `{"days":3,"location":"berlin, germany","unit":"celsius"}`)
	ctx := &Context{Tool: "get_weather"}
	report := func(Diff) { b.Fatal("diff") }
	if !s.Accepts(e, a, ctx, nil) {
		b.Fatal("not accepted")
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Accepts(e, a, ctx, nil)
		s.CompareChecked(e, a, ctx, report)
	}
}
