package rulecore

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// absentMark stands for "the key left out" in the dict answers of the
// product tests, as "" does in BFCL's.
const absentMark = "<absent>"

// expandDict lists the objects a dict answer ({key: [values]}) accepts,
// each key taking each of its values or, for absentMark, left out, in the
// order an importer writes them (the first key varying slowest); at most
// limit objects, nil past it.
func expandDict(tb testing.TB, answer string, limit int) []value.Value {
	tb.Helper()
	d, err := value.Parse(answer)
	if err != nil || d.Kind() != value.Object {
		return nil
	}
	out := [][]value.Member{nil}
	for _, m := range d.Members() {
		if m.Value.Kind() != value.Array {
			return nil
		}
		var next [][]value.Member
		for _, prefix := range out {
			for _, o := range m.Value.Elems() {
				ms := slices.Clone(prefix)
				if o.Kind() != value.String || o.Str() != absentMark {
					ms = append(ms, value.Member{Key: m.Key, Value: o})
				}
				next = append(next, ms)
			}
		}
		if len(next) > limit {
			return nil
		}
		out = next
	}
	objs := make([]value.Value, len(out))
	for i, ms := range out {
		if objs[i], err = value.ObjectOf(ms...); err != nil {
			tb.Fatal(err)
		}
	}
	return objs
}

func oneOfRule(tb testing.TB, objs []value.Value) string {
	tb.Helper()
	b, err := json.Marshal(map[string]any{"one_of": objs})
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestFactor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		objs   []value.Value
		factor bool
	}{
		{"every combination", expandDict(t, `{"a":[1,"<absent>"],"b":["x","y","<absent>"],"c":[true]}`, 100), true},
		{"numbers as written told apart", expandDict(t, `{"a":[5,5.0,"<absent>"],"b":[1,2]}`, 100), true},
		{"one object", expandDict(t, `{"a":[1],"b":[2]}`, 100), false},
		{"too few to factor", expandDict(t, `{"a":[1,2],"b":[3]}`, 100), false},
		{"one combination missing", expandDict(t, `{"a":[1,2,3],"b":["x","y"]}`, 100)[1:], false},
		{"one combination twice", append(expandDict(t, `{"a":[1,2,3],"b":["x","y"]}`, 100), mustParse(t, `{"a":1,"b":"x"}`)), true},
		{"a combination twice in place of another", append(expandDict(t, `{"a":[1,2,3],"b":["x","y"]}`, 100)[1:], mustParse(t, `{"a":1,"b":"y"}`)), false},
		{"not all objects", append(expandDict(t, `{"a":[1,2,3],"b":["x","y"]}`, 100), mustParse(t, `[1]`)), false},
		{"nested values", expandDict(t, `{"a":[{"x":[1]},{"x":[2]},"<absent>"],"b":[[1,2],[2,1]]}`, 100), true},
		{"a key of its own each", keyEach(t, 5000), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := factor(tc.objs)
			if (p != nil) != tc.factor {
				t.Fatalf("factor of %d objects: %v, want factored %v", len(tc.objs), p, tc.factor)
			}
		})
	}
}

// keyEach is n objects, each of one key of its own: no product (factor
// tells so by the number of keys some objects leave out, before it looks
// at the combinations).
func keyEach(tb testing.TB, n int) []value.Value {
	objs := make([]value.Value, n)
	for i := range objs {
		var err error
		if objs[i], err = value.ObjectOf(value.Member{Key: strconv.Itoa(i), Value: value.Int(1)}); err != nil {
			tb.Fatal(err)
		}
	}
	return objs
}

// TestProductDecides holds the factored one_of to its objects tried in
// turn (the walk without shortcuts) on the corners: a key left out, a key
// the product does not know, null under null_is_missing, a default the
// rule below judges, normalised strings, and actual values that are not
// objects.
func TestProductDecides(t *testing.T) {
	objs := expandDict(t, `{"mode":["COOL","","<absent>"],"temp":[24,"<absent>"],"on":[false,null,"<absent>"],"tags":[["a","b"],"<absent>"]}`, 1000)
	entries := []rs{
		call("b", oneOfRule(t, objs)),
		call("b.mode", `{"normalize":["trim"],"case_insensitive":true}`),
		call("b.temp", `{"numeric":true}`),
		call("b.on", `{"default":true,"one_of":[false,null]}`), // a default the rule refuses
	}
	s := newSet(t, rules.Extensions{}, entries...)
	if st := s.compiled().key("b"); st == nil || st.product == nil {
		t.Fatal("the one_of at b is not factored")
	}
	actuals := []string{
		`{}`, `{"mode":"cool"}`, `{"mode":" COOL "}`, `{"mode":"heat"}`, `{"mode":""}`,
		`{"temp":24.0}`, `{"temp":"24"}`, `{"temp":25}`, `{"on":false}`, `{"on":null}`, `{"on":true}`,
		`{"tags":["a","b"]}`, `{"tags":["b","a"]}`, `{"extra":1}`, `{"mode":"COOL","temp":24,"on":false,"tags":["a","b"]}`,
		`{"mode":"COOL","temp":24,"on":false,"tags":["a","b"],"x":null}`, `"COOL"`, `null`, `[{"mode":"COOL"}]`,
		`{"mode":"COOL","temp":24,"on":"false"}`, `{"モード":"COOL"}`,
	}
	passes := 0
	for _, nullIsMissing := range []bool{false, true} {
		for _, allow := range []bool{false, true} {
			ctx := &Context{NullIsMissing: nullIsMissing, AllowExtra: allow}
			for _, actual := range actuals {
				e := mustParse(t, `{"b":{"mode":"COOL"}}`)
				a := mustParse(t, `{"b":`+actual+`}`)
				fast, fastRes, _ := shortcutRun(s, e, a, ctx, false)
				slow, slowRes, _ := shortcutRun(s, e, a, ctx, true)
				if fastRes != slowRes || !reflect.DeepEqual(fast, slow) {
					t.Errorf("%s (null_is_missing %v, allow_extra %v): factored %+v%s, one by one %+v%s",
						actual, nullIsMissing, allow, fastRes, describeDiffs(fast), slowRes, describeDiffs(slow))
				}
				if fastRes.Matched == fastRes.Total {
					passes++
				}
			}
		}
	}
	// Both verdicts are met, or the comparison above says little.
	if passes == 0 || passes == 4*len(actuals) {
		t.Fatalf("%d of %d comparisons pass", passes, 4*len(actuals))
	}
}

// TestProductEmptyObjects: a one_of of the empty object, four times, is a
// product of no keys. An empty actual object matches it; a member it
// lacks is one the expected objects have no such member for, unless
// extra_fields allows it; an empty list or null is no object.
func TestProductEmptyObjects(t *testing.T) {
	empty := mustParse(t, `{}`)
	s := newSet(t, rules.Extensions{}, call("b", oneOfRule(t, []value.Value{empty, empty, empty, empty})))
	if p := s.compiled().key("b").product; p == nil || len(p.keys) != 0 {
		t.Fatalf("four empty objects: product %v", p)
	}
	for _, tc := range []struct {
		actual string
		allow  bool
		pass   bool
	}{
		{`{}`, false, true},
		{`{"a":1}`, false, false},
		{`{"a":1}`, true, true},
		{`{"a":null}`, false, false},
		{`[]`, false, false},
		{`null`, false, false},
	} {
		ctx := &Context{AllowExtra: tc.allow}
		e, a := mustParse(t, `{"b":{}}`), mustParse(t, `{"b":`+tc.actual+`}`)
		fast, fastRes, _ := shortcutRun(s, e, a, ctx, false)
		slow, slowRes, _ := shortcutRun(s, e, a, ctx, true)
		if fastRes != slowRes || !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: factored %+v%s, one by one %+v%s", tc.actual, fastRes, describeDiffs(fast), slowRes, describeDiffs(slow))
		}
		if pass := fastRes.Matched == fastRes.Total; pass != tc.pass {
			t.Errorf("%s (allow_extra %v): pass %v, want %v", tc.actual, tc.allow, pass, tc.pass)
		}
	}
}

// FuzzProduct holds the factored one_of to its objects tried in turn, for
// any dict answer expanded into its objects (in the importer's order,
// turned, with an object twice, or with one left out, which is no longer
// a product), any actual value, rules below the one_of, and the
// context's null_is_missing and allow_extra: the same result and the same
// diffs, and Accepts the same verdict.
func FuzzProduct(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":[1,"<absent>"],"b":["x","X ","<absent>"],"c":[null,false]}`, `{"a":1,"b":"x"}`},
		{`{"a":[1,"<absent>"],"b":["x","X ","<absent>"],"c":[null,false]}`, `{"b":"x ","c":null}`},
		{`{"d":[{"x":1},{"y":[1,2]}],"e":[5,5.0,"<absent>"]}`, `{"d":{"y":[1,2]},"e":5.00}`},
		{`{"x":["A","<absent>"],"y":[1,2],"z":[[],"<absent>"]}`, `{"x":"a","y":2,"z":[],"w":0}`},
		{`{"x":["A","<absent>"],"y":[1,2]}`, `"A"`},
		{`{"w":[1,2],"z":["a","B","<absent>"],"d":[{"x":1},{"x":1.0},"<absent>"],"q":[true,"<absent>"]}`, `{"w":3,"z":"a","d":{"x":1.0},"q":true}`},
	} {
		f.Add(s[0], s[1], uint16(0), uint8(0))
		f.Add(s[0], s[1], uint16(0xff), uint8(0x55))
		f.Add(s[0], s[1], uint16(0x1f0f), uint8(0xaa))
	}
	below := []rs{
		call("b.a", `{"normalize":["trim"]}`),
		call("b.b", `"case_insensitive"`),
		call("b.c", `{"default":false}`),
		call("b.y", `"optional"`),
		call("b.*", `"numeric"`),
		call("b.x", `{"one_of":["a","A"]}`),
		call("b.e", `{"default":7,"one_of":[5,6]}`), // a default the rule refuses
		call("b", `{"extra_fields":"allow"}`),
		call("b.w", `"ignore"`),
		call("b.z", `{"regex":"^[a-z]","optional":true}`),
		call("b.d.x", `{"type":"integer"}`),
		declare("b.q"),
		call("b.*", `{"exact":true}`),
	}
	f.Fuzz(func(t *testing.T, answer, actual string, pick uint16, flags uint8) {
		objs := expandDict(t, answer, 256)
		if len(objs) < 2 {
			return
		}
		a, err := value.Parse(actual)
		if err != nil {
			return
		}
		switch flags & 3 {
		case 1:
			slices.Reverse(objs)
		case 2:
			objs = append(objs, objs[len(objs)/2])
		case 3:
			objs = objs[1:]
		}
		entries := []rs{call("b", oneOfRule(t, objs))}
		for i, r := range below {
			if pick&(1<<i) != 0 {
				if r.path == "b" {
					// With the one_of, in one rule.
					entries[0].spec = `{"extra_fields":"allow",` + entries[0].spec[1:]
					continue
				}
				entries = append(entries, r)
			}
		}
		s := newSet(t, rules.Extensions{}, entries...)
		if flags&3 != 3 && len(objs) >= minProduct && s.compiled().key("b").product == nil {
			t.Fatalf("%d objects of %s not factored", len(objs), answer)
		}
		ctx := &Context{NullIsMissing: flags&4 != 0, AllowExtra: flags&8 != 0}
		expected := value.ArrayOf()
		if flags&16 == 0 {
			expected = objs[0]
		}
		e, err := value.ObjectOf(value.Member{Key: "b", Value: expected})
		if err != nil {
			t.Fatal(err)
		}
		am, err := value.ObjectOf(value.Member{Key: "b", Value: a})
		if err != nil {
			t.Fatal(err)
		}
		fast, fastRes, fastFailed := shortcutRun(s, e, am, ctx, false)
		slow, slowRes, slowFailed := shortcutRun(s, e, am, ctx, true)
		if fastRes != slowRes || !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(fastFailed, slowFailed) {
			t.Fatalf("%s against %d objects of %s under %v:\n factored   %+v%s\n one by one %+v%s",
				actual, len(objs), answer, entries[1:], fastRes, describeDiffs(fast), slowRes, describeDiffs(slow))
		}
		// With the types checked, as CompareChecked and Accepts judge.
		ft, _, fv := s.walkTyped(e, am, ctx, nil, nil, true, false)
		st, _, sv := s.walkTyped(e, am, ctx, nil, nil, true, true)
		if ft != st || !reflect.DeepEqual(fv, sv) {
			t.Fatalf("%s, types checked: factored %+v %+v, one by one %+v %+v", actual, ft, fv, st, sv)
		}
		checked := s.CompareChecked(e, am, ctx, nil)
		if got := s.Accepts(e, am, ctx, nil); got != (checked.Matched == checked.Total) {
			t.Fatalf("%s: Accepts %v, CompareChecked %+v", actual, got, checked)
		}
	})
}
