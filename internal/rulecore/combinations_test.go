package rulecore

import (
	"errors"
	"flag"
	"fmt"
	"github.com/callgrade/callgrade/rules"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// combinationExt accepts every expression and plugin, so that only the
// combination checks can refuse a rule.
var combinationExt = rules.Extensions{
	Expr: func(string) (rules.Comparator, error) {
		return comparatorFunc(func(*rules.Input) rules.Outcome { return rules.Outcome{} }), nil
	},
	Plugin: func(string, value.Value) (rules.Comparator, error) {
		return comparatorFunc(func(*rules.Input) rules.Outcome { return rules.Outcome{} }), nil
	},
}

// TestCompileContradictions holds every contradictory combination to its
// whole message.
func TestCompileContradictions(t *testing.T) {
	tests := []struct{ spec, want string }{
		{`{"ignore":true,"optional":true}`, "ignore: ignore: true cannot be combined with optional: an ignored field is never compared"},
		{`{"ignore":true,"exact":false}`, "ignore: ignore: true cannot be combined with exact: an ignored field is never compared"},
		{`{"ignore":true,"default":1,"params":{},"type":"string"}`, "ignore: ignore: true cannot be combined with default, type, params: an ignored field is never compared"},
		{`{"ignore":true,"regex":"a","one_of":[1]}`, "ignore: ignore: true cannot be combined with one_of, regex: an ignored field is never compared"},
		{`{"exact":true,"tolerance":1}`, "exact: exact: true contradicts tolerance"},
		{`{"exact":true,"relative":1}`, "exact: exact: true contradicts relative"},
		{`{"exact":true,"regex":"a"}`, "exact: exact: true contradicts regex"},
		{`{"exact":true,"expr":"x"}`, "exact: exact: true contradicts expr"},
		{`{"exact":true,"plugin":"a.b"}`, "exact: exact: true contradicts plugin"},
		{`{"exact":true,"numeric":true}`, "exact: exact: true contradicts numeric: true"},
		{`{"exact":true,"numeric":true,"regex":"a"}`, "exact: exact: true contradicts regex"},
		{`{"numeric":false,"tolerance":1}`, "numeric: numeric: false contradicts tolerance and relative, which compare numbers"},
		{`{"numeric":false,"relative":1}`, "numeric: numeric: false contradicts tolerance and relative, which compare numbers"},
		{`{"regex":"a","one_of":[1]}`, "regex: regex cannot be combined with one_of: both say what the actual value may be"},
		{`{"regex":"a","numeric":true}`, "regex: regex cannot be combined with numeric: both say what the actual value may be"},
		{`{"regex":"a","tolerance":1}`, "regex: regex cannot be combined with tolerance: both say what the actual value may be"},
		{`{"regex":"a","relative":1}`, "regex: regex cannot be combined with relative: both say what the actual value may be"},
		{`{"regex":"a","expr":"x"}`, "regex: regex cannot be combined with expr: both say what the actual value may be"},
		{`{"regex":"a","plugin":"a.b"}`, "regex: regex cannot be combined with plugin: both say what the actual value may be"},
		{`{"regex":"a","unordered":true}`, "regex: regex cannot be combined with unordered: regex matches a string, unordered compares lists"},
		{`{"regex":"a","one_of":[1],"unordered":true}`, "regex: regex cannot be combined with one_of: both say what the actual value may be"},
		{`{"expr":"x","plugin":"a.b"}`, "expr: expr cannot be combined with plugin: a field has one comparator"},
		{`{"expr":"x","numeric":true}`, "expr: expr cannot be combined with numeric: the expr decides the comparison"},
		{`{"expr":"x","tolerance":1}`, "expr: expr cannot be combined with tolerance: the expr decides the comparison"},
		{`{"expr":"x","relative":1}`, "expr: expr cannot be combined with relative: the expr decides the comparison"},
		{`{"expr":"x","unordered":true}`, "expr: expr cannot be combined with unordered: the expr decides the comparison"},
		{`{"expr":"x","one_of":[1]}`, "expr: expr cannot be combined with one_of: the expr decides the comparison"},
		{`{"plugin":"a.b","numeric":true}`, "plugin: plugin cannot be combined with numeric: the plugin decides the comparison"},
		{`{"plugin":"a.b","tolerance":1}`, "plugin: plugin cannot be combined with tolerance: the plugin decides the comparison"},
		{`{"plugin":"a.b","relative":1}`, "plugin: plugin cannot be combined with relative: the plugin decides the comparison"},
		{`{"plugin":"a.b","unordered":true}`, "plugin: plugin cannot be combined with unordered: the plugin decides the comparison"},
		{`{"plugin":"a.b","one_of":[1]}`, "plugin: plugin cannot be combined with one_of: the plugin decides the comparison"},
		{`{"plugin":"a.b","one_of":[1],"tolerance":1}`, "plugin: plugin cannot be combined with tolerance: the plugin decides the comparison"},
		{`{"params":{}}`, "params: params needs a plugin or an expr to pass them to"},
		{`{"params":{},"regex":"a"}`, "params: params needs a plugin or an expr to pass them to"},
	}
	for _, tt := range tests {
		_, err := Compile(mustParse(t, tt.spec), combinationExt)
		var ce *rules.CompileError
		if !errors.As(err, &ce) {
			t.Errorf("Compile(%s) = %v; want a *rules.CompileError", tt.spec, err)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Compile(%s):\n got %q\nwant %q", tt.spec, err, tt.want)
		}
	}
}

// fingerprint shows what a compiled Rule holds, but for its functions.
func (r *Rule) fingerprint() string {
	return fmt.Sprintf("reset=%v fold=%v/%v norm=%d/%v num=%d/%v tol=%q rel=%q unordered=%v one_of=%v/%d re=%v/%v cmp=%v params=%s ignore=%v optional=%v default=%v/%s extra=%d types=%d from=%v leaf=%v inherit=%v compare=%v",
		r.reset, r.fold, r.setFold, len(r.norm), r.setNorm, r.num, r.setNum, r.tol, r.rel, r.unordered, r.oneOf != nil, len(r.oneOf),
		r.re, r.reFold, r.cmp != nil, r.params, r.ignore, r.optional, r.hasDef, r.def, r.extra, r.types, r.from, r.leaf, r.inherit, r.compare)
}

var propertyNamesForTest = []string{"exact", "numeric", "tolerance", "relative", "case_insensitive", "normalize",
	"unordered", "one_of", "regex", "ignore", "optional", "default", "type", "from", "expr", "plugin", "params", "extra_fields"}

// combinationSamples are values of every property, both of a boolean's.
var combinationSamples = []struct{ key, val string }{
	{"exact", "true"}, {"exact", "false"},
	{"numeric", "true"}, {"numeric", "false"},
	{"tolerance", "0.5"},
	{"relative", "1e-2"},
	{"case_insensitive", "true"}, {"case_insensitive", "false"},
	{"normalize", `["trim",{"delete":"-"}]`},
	{"unordered", "true"}, {"unordered", "false"},
	{"one_of", "[1]"},
	{"regex", `"^a"`},
	{"ignore", "true"}, {"ignore", "false"},
	{"optional", "true"}, {"optional", "false"},
	{"default", "1"},
	{"type", `["string","null"]`},
	{"from", `"steps[0].result.id"`},
	{"expr", `"x"`},
	{"plugin", `"a.b"`},
	{"params", "{}"},
	{"extra_fields", `"allow"`},
}

// TestCompileCombinations compiles every shorthand and every rule of one, two and
// three properties and holds what it gives (the error, or String and the compiled fields) to
// testdata/combinations.golden, so that no change to how properties are
// checked or described goes unseen.
func TestCompileCombinations(t *testing.T) {
	var b strings.Builder
	n := len(combinationSamples)
	emit2 := func(spec string) {
		r, err := Compile(mustParse(t, spec), combinationExt)
		b.WriteString(spec + "\t")
		if err != nil {
			b.WriteString("error " + err.Error() + "\n")
		} else {
			b.WriteString(r.String() + "\t" + r.fingerprint() + "\n")
		}
	}
	emit := func(idx ...int) {
		var parts []string
		for _, i := range idx {
			parts = append(parts, `"`+combinationSamples[i].key+`":`+combinationSamples[i].val)
		}
		emit2("{" + strings.Join(parts, ",") + "}")
	}
	for _, sh := range []string{"exact", "numeric", "case_insensitive", "unordered", "ignore", "optional"} {
		r, err := Compile(value.StringOf(sh), rules.Extensions{})
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(sh + "\t" + r.String() + "\t" + r.fingerprint() + "\n")
	}
	for _, sh := range []string{"fuzzy", "Exact", "tolerance", "params", ""} {
		_, err := Compile(value.StringOf(sh), rules.Extensions{})
		b.WriteString(strconv.Quote(sh) + "\terror " + err.Error() + "\n")
	}
	// Every property with values of every kind, most of them wrong.
	for _, p := range append(propertyNamesForTest, "bogus") {
		for _, v := range []string{"true", "null", "-1", "0", `"x"`, `"a.b"`, `"allow"`, `"  "`, "[]", "[1]", `["x"]`, `["string"]`,
			`[{"delete":""}]`, `[{"replace":{}}]`, `[{"replace":{"":"x"}}]`, `[{"replace":{"a":1}}]`, `[{"x":1}]`, `[{"delete":"a","replace":{}}]`, "{}", `{"a":1}`} {
			emit2(`{"` + p + `":` + v + `}`)
		}
	}
	for i := 0; i < n; i++ {
		emit(i)
		for j := i + 1; j < n; j++ {
			if combinationSamples[j].key == combinationSamples[i].key {
				continue
			}
			emit(i, j)
			for k := j + 1; k < n; k++ {
				if combinationSamples[k].key == combinationSamples[j].key {
					continue
				}
				emit(i, j, k)
			}
		}
	}
	const path = "testdata/combinations.golden"
	got := b.String()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/rulecore -run TestCompileCombinations -update writes it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s line %d:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, the compiler gives %d", path, len(wl), len(gl))
	}
}
