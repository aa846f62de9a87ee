package rulecore

import (
	"github.com/callgrade/callgrade/rules"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// TestNormalisedOnce: a walk normalises an actual string once for all the
// possible values of a one_of, and each actual string of its own: every
// element of a list, equal in length and under the same normalisers, is
// compared as itself, and a later walk does not see the last one's.
func TestNormalisedOnce(t *testing.T) {
	set := newSet(t, rules.Extensions{}, call("l.#", `{"one_of":["a-b","C D","xy"],"normalize":[{"delete":"- "},"lower"]}`))
	for _, tc := range []struct {
		actual string
		diffs  []string
	}{
		{`{"l":["AB","cd","X-Y"]}`, nil},
		{`{"l":["AB","ce","XY"]}`, []string{"mismatch l.1"}},
		{`{"l":["ab","AB","zz"]}`, []string{"mismatch l.2"}},
		{`{"l":["zz","AB","cd"]}`, []string{"mismatch l.0"}},
	} {
		res, diffs := compareText(t, set, nil, `{"l":["a-b","C D","xy"]}`, tc.actual)
		got := brief(diffs)
		if tc.diffs == nil {
			tc.diffs = []string{}
		}
		if !slices.Equal(got, tc.diffs) {
			t.Errorf("%s: diffs %q, want %q%s", tc.actual, got, tc.diffs, describeDiffs(diffs))
		}
		if pass := len(tc.diffs) == 0; (res.Matched == res.Total) != pass {
			t.Errorf("%s: result %+v", tc.actual, res)
		}
	}
}

// TestOneOfNormalisedAtLoad gives the verdicts of a one_of whose strings
// are normalised at load, and holds each to the walk that normalises them
// at every comparison: with case folding, under a numeric mode (where the
// strings are not used), with normalisers inherited from the object
// above, and with possible values that are not strings.
func TestOneOfNormalisedAtLoad(t *testing.T) {
	const norm = `"normalize":[{"delete":"- "},"lower"]`
	plain := []rs{call("x", `{"one_of":["a-b","C D",5,"ß",null],`+norm+`}`)}
	folded := []rs{call("x", `{"one_of":["a-b","C D",5,"ß",null],"case_insensitive":true,`+norm+`}`)}
	numeric := []rs{call("x", `{"one_of":["a-b","C D",5,"ß",null],"numeric":true,`+norm+`}`)}
	inherited := []rs{call("o", `{`+norm+`}`), call("o.x", `{"one_of":["a-b","ß"]}`)}
	for _, tc := range []struct {
		name   string
		rules  []rs
		actual string
		pass   bool
	}{
		{"the same text", plain, `{"x":"a-b"}`, true},
		{"normalised", plain, `{"x":"A B"}`, true},
		{"the second", plain, `{"x":"cd"}`, true},
		{"none", plain, `{"x":"abc"}`, false},
		{"a number string for a number", plain, `{"x":"5"}`, false},
		{"a number", plain, `{"x":5}`, true},
		{"null", plain, `{"x":null}`, true},
		{"lower is no folding", plain, `{"x":"SS"}`, false},
		{"folded", folded, `{"x":"SS"}`, true},
		{"folded, normalised", folded, `{"x":"A-B"}`, true},
		{"numeric: a number string", numeric, `{"x":" 5.0"}`, true},
		{"numeric: normalised", numeric, `{"x":"c--d"}`, true},
		{"numeric: none", numeric, `{"x":"5x"}`, false},
		{"inherited", inherited, `{"o":{"x":"A B"}}`, true},
		{"inherited, none", inherited, `{"o":{"x":"SS"}}`, false},
		{"an object for a string", plain, `{"x":{"a":"b"}}`, false},
	} {
		set := newSet(t, rules.Extensions{}, tc.rules...)
		expected := `{"x":"a-b"}`
		if strings.HasPrefix(tc.actual, `{"o"`) {
			expected = `{"o":{"x":"a-b"}}`
		}
		e, a := mustParse(t, expected), mustParse(t, tc.actual)
		for _, slow := range []bool{false, true} {
			var diffs []Diff
			res, _ := set.walk(e, a, &Context{}, func(d Diff) { diffs = append(diffs, d) }, slow, nil)
			if pass := res.Matched == res.Total && len(diffs) == 0; pass != tc.pass {
				t.Errorf("%s (slow %v): %s passes %v, want %v%s", tc.name, slow, tc.actual, pass, tc.pass, describeDiffs(diffs))
			}
		}
	}
}

// fuseSteps are the normalisers FuzzFuse builds its pipelines from: each
// that maps characters on its own, with sets and replacements of ASCII
// and other characters, and some that do not, which end a fused run.
var fuseSteps = []string{
	`"lower"`, `"strip_punct"`, `{"delete":" ,./-_*^"}`, `{"delete":"é\t"}`,
	`{"replace":{"'":"\""}}`, `{"replace":{"a":"","ß":"s","K":"Ω"}}`,
	`{"replace":{"ab":"c"}}`, `"trim"`, `"nfc"`, `"collapse_space"`,
}

// FuzzFuse holds a fused pipeline of normalisers (see fuse) to the same
// normalisers run one after another, on any text, invalid UTF-8 included.
func FuzzFuse(f *testing.F) {
	for _, seed := range []struct {
		pick []byte
		s    string
	}{
		{[]byte{2, 0, 4}, "New-York's *Best*"},
		{[]byte{0, 5}, "KELVIN K ßtraße Ä"},
		{[]byte{3, 1, 7, 0}, " Été, \tà  l'ouest! "},
		{[]byte{0, 8, 0}, "E\u0301 İstanbul"},
		{[]byte{6, 0}, "AB ab\xffA"},
		{[]byte{1}, "\xe2\x80"},
		// Several characters to map alone in one word of eight: deleted
		// side by side, at the word's last byte, replaced after a
		// deletion, a character not ASCII after them, and in the last
		// few bytes.
		{[]byte{2, 0, 4}, "{'answer': 'Dong-Sup_Yoon', 'context': 'a.b,c'}"},
		{[]byte{2, 4}, "abcdefg.,,..--hijklmn'o'p'q_r_s"},
		{[]byte{2, 4, 0}, "AB-CD'EF\u2019G_H-\u00e9.Ij'k"},
		{[]byte{2, 0}, "1234567-x.y,z"},
	} {
		f.Add(seed.pick, seed.s)
	}
	f.Fuzz(func(t *testing.T, pick []byte, s string) {
		if len(pick) > 6 {
			pick = pick[:6]
		}
		var steps []normStep
		var src []string
		for _, p := range pick {
			text := fuseSteps[int(p)%len(fuseSteps)]
			src = append(src, text)
			v := mustParse(t, text)
			var st normStep
			if v.Kind() == value.String {
				st = stepByName(v.Str())
			} else {
				var err error
				if st, err = paramStep(v); err != nil {
					t.Fatal(err)
				}
			}
			steps = append(steps, st)
		}
		want := s
		for _, st := range steps {
			want = string(st.fn(nil, want))
		}
		var nb normBufs
		fns := fuse(steps)
		if got := nb.apply(fns, s, 0); got != want {
			t.Fatalf("normalize %s of %q: fused %q, one by one %q", src, s, got, want)
		}
		// Each normaliser appends to what dst holds, and keeps it.
		got := s
		for _, fn := range fns {
			out := string(fn([]byte("kept:"), got))
			if !strings.HasPrefix(out, "kept:") {
				t.Fatalf("normalize %s of %q: %q lost what dst held", src, s, out)
			}
			got = out[len("kept:"):]
		}
		if got != want {
			t.Fatalf("normalize %s of %q, appended: %q, one by one %q", src, s, got, want)
		}
	})
}

// TestScratch: comparisons that share a Context's Scratch, one after
// another, give what comparisons with none give, messages included; and
// a walk that begins while another holds the Scratch works in buffers of
// its own, so that neither overwrites the other's normal forms.
func TestScratch(t *testing.T) {
	set := newSet(t, rules.Extensions{}, call("l.#", `{"one_of":["a-b","C D","xy"],"normalize":[{"delete":"- "},"lower"]}`))
	var sc Scratch
	for _, actual := range []string{`{"l":["AB","cd","X-Y"]}`, `{"l":["AB","ce","XY"]}`, `{"l":["zz","AB","cd"]}`, `{"l":["ab","AB","zz"]}`} {
		wantRes, want := compareText(t, set, nil, `{"l":["a-b","C D","xy"]}`, actual)
		gotRes, got := compareText(t, set, &Context{Scratch: &sc}, `{"l":["a-b","C D","xy"]}`, actual)
		if gotRes != wantRes || !slices.Equal(describe(got), describe(want)) {
			t.Errorf("%s: with a Scratch %+v %q, without %+v %q", actual, gotRes, describe(got), wantRes, describe(want))
		}
		if sc.busy {
			t.Fatalf("%s: the Scratch is still held after the comparison", actual)
		}
	}

	ctx := Context{Scratch: &sc}
	var outer, inner walker
	outer.start(value.Value{}, value.Value{}, &ctx, nil, nil)
	inner.start(value.Value{}, value.Value{}, &ctx, nil, nil)
	ob := outer.bufs()
	if ob != &sc.nb || !sc.busy {
		t.Fatalf("the first walk does not work in the Scratch")
	}
	fns := fuse([]normStep{stepByName("lower"), stepByName("strip_punct")})
	s := ob.apply(fns, "A-B", 0)
	if ib := inner.bufs(); ib == ob {
		t.Fatalf("a walk begun while the Scratch is held shares its buffers")
	} else {
		ib.apply(fns, "X-Y-Z", 0)
	}
	inner.release()
	if !sc.busy || s != "ab" {
		t.Fatalf("the inner walk's end released the outer's Scratch (busy %v) or changed its normal form to %q", sc.busy, s)
	}
	outer.release()
	if sc.busy {
		t.Fatalf("the Scratch is still held after both walks")
	}
}

// describe lists each diff's kind, path and message.
func describe(ds []Diff) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, string(d.Kind)+" "+d.Path+": "+d.Message)
	}
	return out
}
