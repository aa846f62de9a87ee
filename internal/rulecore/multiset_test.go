package rulecore

import (
	"github.com/callgrade/callgrade/rules"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// longList writes n elements made by elem, in the order perm gives.
func longList(n int, perm []int, elem func(i int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		i := k
		if perm != nil {
			i = perm[k]
		}
		b.WriteString(elem(i))
	}
	b.WriteByte(']')
	return b.String()
}

// TestCompareUnorderedLongLists: lists far beyond the old limit of 1000
// elements are compared in any order, by every way of pairing: canonical
// keys, sorted numbers under a tolerance, and the general matching.
func TestCompareUnorderedLongLists(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 10000
	perm := r.Perm(n)
	ints := func(i int) string { return strconv.Itoa(i) }
	tests := []struct {
		name     string
		rules    []rs
		elem     func(i int) string // expected element i
		actual   func(i int) string // actual element i, before shuffling
		n        int
		wantDiff string // "" for a pass, else the diff's kind and a part of its message
	}{
		{name: "numbers", rules: []rs{call("xs", `"unordered"`)}, elem: ints, actual: ints, n: n},
		{name: "numbers respelled", rules: []rs{call("xs", `"unordered"`)}, elem: ints,
			actual: func(i int) string { return ints(i) + ".0" }, n: n},
		{name: "one element off", rules: []rs{call("xs", `"unordered"`)}, elem: ints,
			actual: func(i int) string {
				if i == 4321 {
					return "-1"
				}
				return ints(i)
			}, n: n, wantDiff: "mismatch: missing [4321]; extra [-1]"},
		{name: "duplicates count", rules: []rs{call("xs", `"unordered"`)}, elem: func(i int) string { return ints(i / 2) },
			actual: func(i int) string { return ints(i / 3) }, n: 9000, wantDiff: "mismatch: expected the same elements in any order; missing"},
		{name: "objects", rules: []rs{call("xs", `"unordered"`)},
			elem:   func(i int) string { return `{"sku":"S` + ints(i) + `","qty":` + ints(i%7) + `}` },
			actual: func(i int) string { return `{"qty":` + ints(i%7) + `.0,"sku":"S` + ints(i) + `"}` }, n: n},
		{name: "case folding and numeric strings", rules: []rs{call("xs", `{"unordered":true,"case_insensitive":true,"numeric":true}`)},
			elem: func(i int) string {
				if i%2 == 0 {
					return `"Straße ` + ints(i) + `"`
				}
				return ints(i)
			},
			actual: func(i int) string {
				if i%2 == 0 {
					return `"STRASSE ` + ints(i) + `"`
				}
				return `" ` + ints(i) + `.00"`
			}, n: n},
		{name: "settings of the elements", rules: []rs{call("xs", `"unordered"`), call("xs.#.name", `{"normalize":["trim","lower"]}`)},
			elem:   func(i int) string { return `{"name":"N` + ints(i) + `"}` },
			actual: func(i int) string { return `{"name":" n` + ints(i) + ` "}` }, n: n},
		{name: "tolerance", rules: []rs{call("xs", `{"unordered":true,"tolerance":0.5}`)},
			elem: ints, actual: func(i int) string { return ints(i) + ".4" }, n: n},
		{name: "tolerance on the elements", rules: []rs{call("xs", `"unordered"`), call("xs.#", `{"tolerance":0.5}`)},
			elem: ints, actual: func(i int) string { return ints(i) + ".5" }, n: n},
		{name: "tolerance, one outside", rules: []rs{call("xs", `{"unordered":true,"tolerance":0.5}`)},
			elem: ints, actual: func(i int) string {
				if i == 77 {
					return "77.6"
				}
				return ints(i)
			}, n: n, wantDiff: "mismatch: missing [77]; extra [77.6]"},
		{name: "relative tolerance", rules: []rs{call("xs", `{"unordered":true,"relative":0.01}`)},
			elem: func(i int) string { return ints(100 * (i + 1)) }, actual: func(i int) string { return ints(100*(i+1) + i/100) }, n: n},
		{name: "a rule for one index: every pair", rules: []rs{call("xs", `"unordered"`), call("xs.0", `"case_insensitive"`)},
			elem: ints, actual: ints, n: 2000},
		{name: "a rule for one index, one off", rules: []rs{call("xs", `"unordered"`), call("xs.0", `"case_insensitive"`)},
			elem: ints, actual: func(i int) string {
				if i == 5 {
					return "-5"
				}
				return ints(i)
			}, n: 2000, wantDiff: "mismatch: missing [5]; extra [-5]"},
		{name: "beyond every pair", rules: []rs{call("xs", `"unordered"`), call("xs.0", `"case_insensitive"`)},
			elem: ints, actual: ints, n: 4097, wantDiff: "rule_error: an unordered list of 4097 elements"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := perm
			if tt.n != n {
				p = r.Perm(tt.n)
			}
			e := `{"xs":` + longList(tt.n, nil, tt.elem) + `}`
			a := `{"xs":` + longList(tt.n, p, tt.actual) + `}`
			s := newSet(t, rules.Extensions{}, tt.rules...)
			_, diffs := compareText(t, s, nil, e, a)
			switch {
			case tt.wantDiff == "" && len(diffs) != 0:
				t.Errorf("diffs %.300s", describeDiffs(diffs))
			case tt.wantDiff != "":
				kind, msg, _ := strings.Cut(tt.wantDiff, ": ")
				if len(diffs) != 1 || string(diffs[0].Kind) != kind || !strings.Contains(diffs[0].Message, msg) || diffs[0].Path != "xs" {
					t.Errorf("diffs %.300s, want %s", describeDiffs(diffs), tt.wantDiff)
				}
			}
		})
	}
}

// TestPairingAgreesWithMatching holds the fast pairings to the general
// matching on random lists: the same verdict, and as many pairs.
func TestPairingAgreesWithMatching(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	specs := []string{`"unordered"`, `{"unordered":true,"case_insensitive":true}`, `{"unordered":true,"numeric":true}`,
		`{"unordered":true,"tolerance":1}`, `{"unordered":true,"relative":0.2}`, `{"unordered":true,"tolerance":0.5,"relative":0.1}`}
	atoms := []string{`1`, `1.0`, `"1"`, `2`, `2.5`, `3`, `-1`, `"a"`, `"A"`, `"b"`, `null`, `true`, `{"k":1}`, `{"k":1.0}`, `[1,2]`, `10`, `10.9`, `11.5`}
	for range 3000 {
		spec := specs[r.IntN(len(specs))]
		n := 33 + r.IntN(6)
		numeric := strings.Contains(spec, "tolerance") || strings.Contains(spec, "relative")
		pick := func() string {
			if numeric {
				return strconv.FormatFloat(float64(r.IntN(40))/4-3, 'f', -1, 64)
			}
			return atoms[r.IntN(len(atoms))]
		}
		var ee, ae []string
		for range n {
			ee = append(ee, pick())
		}
		for range n + r.IntN(2) {
			ae = append(ae, pick())
		}
		s := newSet(t, rules.Extensions{}, call("xs", spec))
		st := s.compiled().key("xs")
		ev := mustParse(t, "["+strings.Join(ee, ",")+"]").Elems()
		av := mustParse(t, "["+strings.Join(ae, ",")+"]").Elems()
		w := walker{}
		fast, ok := w.pairing(st, st.eff, ev, av, r.IntN(2) == 0)
		if !ok {
			t.Fatal("pairing refused")
		}
		k := newMatching(len(ev), len(av), nil)
		w.match(st, st.eff, ev, av, &k, false)
		slow := k.rowOf
		if paired(fast) != paired(slow) {
			t.Fatalf("%s %v %v: fast pairs %d, matching %d", spec, ee, ae, paired(fast), paired(slow))
		}
		for j, i := range fast {
			if i >= 0 && !w.value(st.index(i), st.eff, &ev[i], &av[j], true) {
				t.Fatalf("%s: paired %s with %s, which are not equal", spec, ee[i], ae[j])
			}
		}
	}
}

func BenchmarkCompareUnorderedLong(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1000, 10000} {
		perm := r.Perm(n)
		for _, c := range []struct {
			name string
			rule string
			elem func(i int) string
		}{
			{"numbers", `"unordered"`, func(i int) string { return strconv.Itoa(i) }},
			{"objects", `"unordered"`, func(i int) string { return `{"sku":"S` + strconv.Itoa(i) + `","qty":2}` }},
			{"tolerance", `{"unordered":true,"tolerance":0.5}`, func(i int) string { return strconv.Itoa(i) }},
		} {
			b.Run(c.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				s := newSet(b, rules.Extensions{}, call("xs", c.rule))
				e := mustParse(b, `{"xs":`+longList(n, nil, c.elem)+`}`)
				a := mustParse(b, `{"xs":`+longList(n, perm, c.elem)+`}`)
				b.ReportAllocs()
				for b.Loop() {
					if res := s.Compare(e, a, nil, nil); res.Matched != 1 {
						b.Fatal("not equal")
					}
				}
			})
		}
	}
}
