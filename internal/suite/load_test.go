package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"weak"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/testenv"
	"github.com/callgrade/callgrade/value"
)

// dump renders a suite as text, one fact a line, with file names replaced
// by their extension so that the same suite in two formats dumps the same.
func dump(s *Suite) string {
	var b strings.Builder
	loc := func(l Loc) string {
		l.File = strings.TrimPrefix(filepath.Ext(l.File), ".")
		return l.String()
	}
	rules := func(prefix string, rs RuleSet) {
		for _, r := range rs {
			fmt.Fprintf(&b, "%s %q = %s @ %s\n", prefix, r.Path, r.Rule, loc(r.Loc))
		}
	}
	tools := func(prefix string, ts []Tool) {
		if ts == nil {
			return
		}
		fmt.Fprintf(&b, "%s: %d\n", prefix, len(ts))
		for _, t := range ts {
			fmt.Fprintf(&b, "%s %s %q %s @ %s\n", prefix, t.Name, t.Description, t.Parameters, loc(t.Loc))
		}
	}
	calls := func(prefix string, cs []Call) {
		fmt.Fprintf(&b, "%s: %d calls\n", prefix, len(cs))
		for _, c := range cs {
			fmt.Fprintf(&b, "%s %s %s @ %s\n", prefix, c.Name, c.Arguments, loc(c.Loc))
			rules(prefix+" rule", c.Rules)
			for _, a := range c.Assert {
				fmt.Fprintf(&b, "%s assert %q @ %s\n", prefix, a.Expr, loc(a.Loc))
			}
		}
	}
	fmt.Fprintf(&b, "version %d\n", s.Version)
	tools("tools", s.Tools)
	fmt.Fprintf(&b, "defaults %s %s %v\n", s.Defaults.ExtraFields, s.Defaults.Calls, s.Defaults.NullIsMissing)
	rules("defaults rule", s.Defaults.Rules)
	for _, name := range sortedKeys(s.Rulesets) {
		rules("ruleset "+name, s.Rulesets[name])
	}
	for _, name := range sortedKeys(s.Plugins) {
		p := s.Plugins[name]
		fmt.Fprintf(&b, "plugin %s %q %q %q @ %s\n", name, p.Command, p.SHA256, p.Timeout, loc(p.Loc))
	}
	for _, c := range s.Cases {
		fmt.Fprintf(&b, "case %s use=%q extra=%q calls=%q", c.ID, c.Use, c.ExtraFields, c.Calls)
		if c.NullIsMissing != nil {
			fmt.Fprintf(&b, " null_is_missing=%v", *c.NullIsMissing)
		}
		fmt.Fprintf(&b, " @ %s\n", loc(c.Loc))
		tools("case tools", c.Tools)
		calls("expected", c.Expected)
		for i, alt := range c.Alternatives {
			calls(fmt.Sprintf("alternative %d", i), alt)
		}
	}
	return b.String()
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func mustLoad(t *testing.T, paths ...string) *Suite {
	t.Helper()
	s, err := Load(paths...)
	if err != nil {
		t.Fatalf("Load(%q): %v", paths, err)
	}
	return s
}

const basicDump = `version 1
tools: 2
tools get_weather "Current weather for a city" {"properties":{"city":{"type":"string"},"unit":{"enum":["celsius","fahrenheit"],"type":"string"}},"required":["city"],"type":"object"} @ X: tools[0]
tools get_forecast "Forecast for a city" {"properties":{"city":{"type":"string"},"days":{"type":"integer"}},"type":"object"} @ X: tools[1]
defaults allow unordered true
defaults rule "city" = {"normalize":["trim","lower"]} @ X: defaults.rules.city
ruleset fuzzy_city "city" = {"normalize":["trim","lower"]} @ X: rulesets.fuzzy_city.city
ruleset fuzzy_city "filters.price.max" = "numeric" @ X: rulesets.fuzzy_city.filters.price.max
plugin geo ["./bin/callgrade-geo" "--verbose"] "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" "2s" @ X: plugins.geo
plugin shell ["./bin/plugin" "--name" "two words" "quoted \" arg"] "" "" @ X: plugins.shell
case weather-berlin use=["fuzzy_city"] extra="reject" calls="ordered" null_is_missing=false @ X: cases[0] (case weather-berlin)
expected: 1 calls
expected get_weather {"city":"Berlin","unit":"celsius"} @ X: cases[0].expected[0] (case weather-berlin)
expected rule "unit" = "case_insensitive" @ X: cases[0].expected[0].rules.unit (case weather-berlin)
expected assert "actual.city != ''" @ X: cases[0].expected[0].assert[0] (case weather-berlin)
alternative 0: 1 calls
alternative 0 get_forecast {"city":"Berlin","days":0} @ X: cases[0].alternatives[0][0] (case weather-berlin)
alternative 1: 1 calls
alternative 1 get_forecast {"city":"Berlin","days":1} @ X: cases[0].alternatives[1][0] (case weather-berlin)
case no-call use=[] extra="" calls="" @ X: cases[1] (case no-call)
case tools: 1
case tools lookup "" null @ X: cases[1].tools[0] (case no-call)
expected: 0 calls
case single-call use=[] extra="" calls="" @ X: cases[2] (case single-call)
expected: 1 calls
expected get_forecast {} @ X: cases[2].expected[0] (case single-call)
`

func TestLoadFormats(t *testing.T) {
	for _, name := range []string{"basic.yaml", "basic.json", "basic.toml"} {
		t.Run(name, func(t *testing.T) {
			s := mustLoad(t, filepath.Join("testdata", name))
			ext := strings.TrimPrefix(filepath.Ext(name), ".")
			want := strings.ReplaceAll(basicDump, "@ X", "@ "+ext)
			if got := dump(s); got != want {
				t.Errorf("dump differs\n got:\n%s\nwant:\n%s", got, want)
			}
			if !slices.Equal(s.Files, []string{filepath.Join("testdata", name)}) {
				t.Errorf("Files = %q", s.Files)
			}
		})
	}
}

func TestLoadDefaultsWhenAbsent(t *testing.T) {
	s, err := load(memFiles{"s.yaml": []byte("cases: [{id: a, expected: []}]\n")}, []string{"s.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 1 || s.Defaults.ExtraFields != ExtraReject || s.Defaults.Calls != CallsOrdered || s.Defaults.NullIsMissing {
		t.Errorf("defaults = version %d %+v", s.Version, s.Defaults)
	}
	if s.Tools != nil || s.Rulesets != nil || s.Plugins != nil {
		t.Errorf("want nil tools, rulesets, plugins; got %v %v %v", s.Tools, s.Rulesets, s.Plugins)
	}
	c := s.Cases[0]
	if c.Tools != nil || c.Expected == nil || len(c.Expected) != 0 || c.NullIsMissing != nil {
		t.Errorf("case = %+v", c)
	}
}

func TestLoadEmptyFiles(t *testing.T) {
	files := memFiles{"empty.yaml": nil, "empty.json": []byte("{}"), "empty.toml": nil, "nulls.yaml": []byte("tools:\ndefaults:\ncases:\n")}
	for name := range files {
		s, err := load(files, []string{name})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(s.Cases) != 0 || s.Version != 1 {
			t.Errorf("%s: %+v", name, s)
		}
	}
}

func TestLayering(t *testing.T) {
	base, team := filepath.Join("testdata", "layers", "base.yaml"), filepath.Join("testdata", "layers", "team.json")
	s := mustLoad(t, base, team)
	want := `version 1
tools: 2
tools get_weather "Weather" {"properties":{"city":{"type":"string"}},"type":"object"} @ json: [0]
tools get_time "" null @ json: [1]
defaults allow unordered false
defaults rule "city" = {"case_insensitive":true} @ json: defaults.rules.city
defaults rule "unit" = "case_insensitive" @ yaml: defaults.rules.unit
defaults rule "zip" = "exact" @ json: defaults.rules.zip
ruleset fuzzy "city" = {"normalize":["lower"]} @ yaml: rulesets.fuzzy.city
ruleset team_rules "x" = "ignore" @ json: rulesets.team_rules.x
plugin geo ["./geo"] "" "5s" @ yaml: plugins.geo
case base-1 use=[] extra="" calls="" @ yaml: cases[0] (case base-1)
expected: 1 calls
expected a {} @ yaml: cases[0].expected[0] (case base-1)
case base-2 use=["team_rules"] extra="" calls="" @ yaml: cases[1] (case base-2)
expected: 0 calls
case team-1 use=[] extra="" calls="" @ json: cases[0] (case team-1)
expected: 1 calls
expected b {} @ json: cases[0].expected[0] (case team-1)
`
	if got := dump(s); got != want {
		t.Errorf("dump differs\n got:\n%s\nwant:\n%s", got, want)
	}
	if got := s.Tools[0].Loc.File; got != filepath.Join("testdata", "tools", "tools.json") {
		t.Errorf("tools file = %q", got)
	}
	if !slices.Equal(s.Files, []string{base, team}) {
		t.Errorf("Files = %q", s.Files)
	}

	// The other way round: the later file's tools replace the earlier tools_file.
	s = mustLoad(t, team, base)
	if len(s.Tools) != 1 || s.Tools[0].Name != "old_tool" {
		t.Errorf("tools = %+v", s.Tools)
	}
	if s.Defaults.Calls != CallsOrdered || s.Plugins["geo"].Timeout != "2s" {
		t.Errorf("later file does not win: %+v %+v", s.Defaults, s.Plugins)
	}
	if ids := caseIDs(s); !slices.Equal(ids, []string{"team-1", "base-1", "base-2"}) {
		t.Errorf("cases = %q", ids)
	}
}

func caseIDs(s *Suite) []string {
	var ids []string
	for _, c := range s.Cases {
		ids = append(ids, c.ID)
	}
	return ids
}

// TestLayeringNulls: a key set to null in a later file counts as left
// out, as it does in one file (a YAML key whose children are all
// commented out is one), so it keeps what an earlier file wrote; a
// version other than 1 is an error that no later file undoes; a plugin's
// problem names the file its command came from.
func TestLayeringNulls(t *testing.T) {
	files := memFiles{
		"base.yaml": []byte("defaults:\n  extra_fields: allow\n  calls: unordered\ntools: [{name: f, parameters: {type: object}}]\n" +
			"rulesets:\n  rs: {city: case_insensitive}\nplugins:\n  geo: {command: ./geo}\ncases: [{id: a, use: [rs], expected: []}]\n"),
		"field.yaml":    []byte("defaults:\n  extra_fields:\n"),
		"all.yaml":      []byte("defaults:\n  # extra_fields: reject\ntools:\nrulesets:\nplugins:\n"),
		"all.json":      []byte(`{"defaults": null, "tools": null, "tools_file": null, "rulesets": {"rs": null}}`),
		"all.toml":      []byte("[defaults]\n"),
		"calls.yaml":    []byte("defaults: {calls: ordered}\n"),
		"v2.yaml":       []byte("version: 2\n"),
		"v1.yaml":       []byte("version: 1\n"),
		"team.yaml":     []byte("plugins:\n  geo: {command: ./team-geo}\n"),
		"teamtime.yaml": []byte("plugins:\n  geo: {timeout: 1s}\n"),
	}
	for _, layer := range []string{"field.yaml", "all.yaml", "all.json", "all.toml"} {
		s, err := load(files, []string{"base.yaml", layer})
		if err != nil {
			t.Fatalf("%s: %v", layer, err)
		}
		if s.Defaults.ExtraFields != ExtraAllow || s.Defaults.Calls != CallsUnordered || len(s.Tools) != 1 || len(s.Rulesets["rs"]) != 1 || len(s.Plugins) != 1 {
			t.Errorf("base then %s: defaults %+v, %d tools, rulesets %v, plugins %v", layer, s.Defaults, len(s.Tools), s.Rulesets, s.Plugins)
		}
	}
	// A value still overrides.
	if s, err := load(files, []string{"base.yaml", "calls.yaml"}); err != nil || s.Defaults.Calls != CallsOrdered || s.Defaults.ExtraFields != ExtraAllow {
		t.Errorf("base then calls.yaml: %+v, %v", s.Defaults, err)
	}
	for _, order := range [][]string{{"v2.yaml", "v1.yaml"}, {"v1.yaml", "v2.yaml"}} {
		_, err := load(files, order)
		if err == nil || !strings.Contains(err.Error(), "v2.yaml: version: unsupported version 2") {
			t.Errorf("%v: %v", order, err)
		}
	}
	for _, tc := range []struct {
		layers []string
		file   string
	}{
		{[]string{"base.yaml"}, "base.yaml"},
		{[]string{"base.yaml", "team.yaml"}, "team.yaml"},
		{[]string{"base.yaml", "teamtime.yaml"}, "base.yaml"},
	} {
		s, err := load(files, tc.layers)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Plugins["geo"].Loc.File; got != tc.file {
			t.Errorf("%v: the plugin's file is %q, want %q", tc.layers, got, tc.file)
		}
	}
}

func TestLayeringThreeFormats(t *testing.T) {
	files := memFiles{
		"a.toml": []byte("version = 1\n[defaults]\nextra_fields = \"allow\"\n[[cases]]\nid = \"a\"\nexpected = []\n"),
		"b.json": []byte(`{"defaults": {"calls": "subset"}, "cases": [{"id": "b", "expected": []}]}`),
		"c.yml":  []byte("defaults: {null_is_missing: true}\ncases: [{id: c, expected: []}]\n"),
	}
	s, err := load(files, []string{"a.toml", "b.json", "c.yml"})
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Defaults; d.ExtraFields != ExtraAllow || d.Calls != CallsSubset || !d.NullIsMissing {
		t.Errorf("defaults = %+v", d)
	}
	if ids := caseIDs(s); !slices.Equal(ids, []string{"a", "b", "c"}) {
		t.Errorf("cases = %q", ids)
	}
	for i, f := range []string{"a.toml", "b.json", "c.yml"} {
		if got := s.Cases[i].Loc; got != (Loc{File: f, Key: "cases[0]", Case: s.Cases[i].ID}) {
			t.Errorf("case %d Loc = %+v", i, got)
		}
	}
}

func TestToolsFile(t *testing.T) {
	s := mustLoad(t, filepath.Join("testdata", "tools", "suite.yaml"))
	dir := filepath.Join("testdata", "tools")
	if len(s.Tools) != 2 || s.Tools[0].Name != "get_weather" || s.Tools[1].Name != "get_time" {
		t.Fatalf("suite tools = %+v", s.Tools)
	}
	if got, want := s.Tools[0].Loc, (Loc{File: filepath.Join(dir, "tools.json"), Key: "[0]"}); got != want {
		t.Errorf("tool Loc = %+v, want %+v", got, want)
	}
	if s.Cases[0].Tools != nil {
		t.Errorf("case without tools got %+v", s.Cases[0].Tools)
	}
	for _, c := range s.Cases[1:] {
		if len(c.Tools) != 2 || c.Tools[0].Name != "search_flights" || c.Tools[1].Name != "book_flight" {
			t.Fatalf("case %s tools = %+v", c.ID, c.Tools)
		}
		if got := c.Tools[1].Parameters.String(); got != `{"type":"object"}` {
			t.Errorf("input_schema = %s", got)
		}
		if got := c.Tools[0].Loc; got != (Loc{File: filepath.Join(dir, "tools.yaml"), Key: "[0]"}) {
			t.Errorf("case tool Loc = %+v", got)
		}
	}
}

func TestExactNumbers(t *testing.T) {
	tests := []struct {
		file string
		want string
	}{
		{"numbers.yaml", `{"big":9007199254740993,"binary":5,"date":"2024-01-02","exp":1E+3,"flag":true,` +
			`"float_tag":7,"half":0.5,"hex":31,"huge":123456789012345678901234567890,"int_tag":42,` +
			`"neg_half":-0.5,"neg_hex":-255,"neg_zero":-0,"nothing":null,"octal":15,"on_word":"on","plus":5,` +
			`"point":5.0,"quoted":"5","tagged":"5","tenth":0.30000000000000004,"tiny":1e-400,"under":1000,"yes_word":"yes"}`},
		{"numbers.json", `{"big":9007199254740993,"exp":1E+3,"five":5.0,"huge":123456789012345678901234567890,` +
			`"neg_zero":-0,"quoted":"5","tenth":0.30000000000000004,"tiny":1e-400}`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			s := mustLoad(t, filepath.Join("testdata", tt.file))
			args := s.Cases[0].Expected[0].Arguments
			if got := args.String(); got != tt.want {
				t.Errorf("arguments\n got %s\nwant %s", got, tt.want)
			}
			big, _ := args.Get("big")
			if value.Equal(big, value.Int(9007199254740992)) {
				t.Error("9007199254740993 lost precision")
			}
		})
	}
}

// TestTOMLLiterals: a TOML float is the number written, and a date or
// time the text written, wherever it stands (a table, an array of tables
// and a table below its last element, an inline table in an array, a
// dotted key, a quoted key holding a dot or brackets beside the path it
// spells), as the same values in YAML are; the decoder alone would give
// the nearest float64 and RFC 3339 rewritten.
func TestTOMLLiterals(t *testing.T) {
	toml := `version = 1
[defaults.rules]
x = {tolerance = 0.10000000000000000001}
[[cases]]
id = "a"
expected = [{name = "f", arguments = {big = 9007199254740993.0, frac = 1.00000000000000000001, plus = +1.5e3, at = 2024-05-01 10:00:00.500+00:00, list = [1.0, {when = 2024-05-01T10:00:00Z, n = 2.50}], d.e = 3.0, local = 2024-05-01T10:00:00, int = 0x1F}}]
[[cases]]
id = "b"
[[cases.expected]]
name = "g"
[cases.expected.arguments]
z = 0.1e-400
inf_free = -0.0
[[cases]]
id = "c"
[[cases.expected]]
name = "h"
[cases.expected.arguments]
"price.max" = 10.5
price = {max = 99.5}
"v[0]" = 0.1
v = [0.2]
"" = {x = 1.5}
x = 2.5
"slot.start" = 2024-05-01T10:00:00Z
slot = {start = 2030-01-01T00:00:00Z}
space = 2024-05-01 10:00:00
lower = 2024-05-01t10:00:00
time = 10:00:00.0000000001
date = 2024-05-01
`
	yaml := `version: 1
defaults: {rules: {x: {tolerance: 0.10000000000000000001}}}
cases:
  - id: a
    expected: [{name: f, arguments: {big: 9007199254740993.0, frac: 1.00000000000000000001, plus: 1.5e3, at: "2024-05-01 10:00:00.500+00:00", list: [1.0, {when: "2024-05-01T10:00:00Z", n: 2.50}], d: {e: 3.0}, local: "2024-05-01T10:00:00", int: 31}}]
  - id: b
    expected: [{name: g, arguments: {z: 0.1e-400, inf_free: -0.0}}]
  - id: c
    expected:
      - name: h
        arguments:
          "price.max": 10.5
          price: {max: 99.5}
          "v[0]": 0.1
          v: [0.2]
          "": {x: 1.5}
          x: 2.5
          "slot.start": "2024-05-01T10:00:00Z"
          slot: {start: "2030-01-01T00:00:00Z"}
          space: "2024-05-01 10:00:00"
          lower: "2024-05-01t10:00:00"
          time: "10:00:00.0000000001"
          date: "2024-05-01"
`
	files := memFiles{"s.toml": []byte(toml), "s.yaml": []byte(yaml)}
	st, err := load(files, []string{"s.toml"})
	if err != nil {
		t.Fatal(err)
	}
	sy, err := load(files, []string{"s.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range sy.Cases {
		g, w := st.Cases[i].Expected[0].Arguments.String(), sy.Cases[i].Expected[0].Arguments.String()
		if g != w {
			t.Errorf("case %d: TOML gives\n %s\nYAML gives\n %s", i, g, w)
		}
	}
	if g, w := st.Defaults.Rules[0].Rule.String(), sy.Defaults.Rules[0].Rule.String(); g != w {
		t.Errorf("the rule: TOML gives %s, YAML %s", g, w)
	}
	big, _ := st.Cases[0].Expected[0].Arguments.Get("big")
	if value.Equal(big, value.Int(9007199254740992)) {
		t.Error("9007199254740993.0 lost precision")
	}
}

func TestYAMLAliasesAndMergeKeys(t *testing.T) {
	src := `call: &call {name: get_weather, arguments: {city: Berlin, unit: celsius}}
args: &args {city: Paris}
more: &more {days: 3, city: Lyon}
cases:
  - id: alias
    expected: *call
  - id: merged
    expected:
      <<: *call
      arguments:
        <<: [*args, *more]
        unit: kelvin
`
	_, err := load(memFiles{"s.yaml": []byte(src)}, []string{"s.yaml"})
	if err == nil {
		t.Fatal("want an error for the unknown top-level keys call, args and more")
	}
	// Anchors have to live somewhere: under a case is fine.
	src = `cases:
  - id: alias
    expected: &call {name: get_weather, arguments: &args {city: Berlin, unit: celsius}}
  - id: merged
    expected:
      <<: *call
      arguments:
        <<: [{days: 3, city: Lyon}, *args]
        unit: kelvin
`
	s, err := load(memFiles{"s.yaml": []byte(src)}, []string{"s.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Cases[0].Expected[0].Arguments.String(); got != `{"city":"Berlin","unit":"celsius"}` {
		t.Errorf("alias: %s", got)
	}
	c := s.Cases[1].Expected[0]
	if got := c.Name + " " + c.Arguments.String(); got != `get_weather {"city":"Lyon","days":3,"unit":"kelvin"}` {
		t.Errorf("merged: %s", got)
	}
}

func TestYAMLNumber(t *testing.T) {
	tests := []struct {
		in, want string
		isInt    bool
		err      string
	}{
		{in: "5", want: "5", isInt: true},
		{in: "-0", want: "-0", isInt: true},
		{in: "+5", want: "5", isInt: true},
		{in: "0x1F", want: "31", isInt: true},
		{in: "-0x1f", want: "-31", isInt: true},
		{in: "0o17", want: "15", isInt: true},
		{in: "0b101", want: "5", isInt: true},
		{in: "1_000_000", want: "1000000", isInt: true},
		{in: "0xFFFFFFFFFFFFFFFFFFFF", want: "1208925819614629174706175", isInt: true},
		{in: "017", isInt: true, err: "ambiguous number 017"},
		{in: "1.5", isInt: true, err: "invalid integer"},
		{in: "1.5", want: "1.5"},
		{in: ".5", want: "0.5"},
		{in: "-.5e3", want: "-0.5e3"},
		{in: "5.", want: "5.0"},
		{in: "+1.5E-3", want: "1.5E-3"},
		{in: "00.5", want: "0.5"},
		{in: "1_000.25", want: "1000.25"},
		{in: "0.30000000000000004", want: "0.30000000000000004"},
		{in: ".inf", err: "no JSON spelling"},
		{in: "-.Inf", err: "no JSON spelling"},
		{in: ".NaN", err: "no JSON spelling"},
		{in: "abc", err: "invalid number"},
		{in: "1e", err: "invalid number"},
		{in: ".", err: "invalid number"},
		{in: "0x", err: "invalid number"},
		{in: "0xZZ", isInt: true, err: "invalid number"},
	}
	for _, tt := range tests {
		got, err := yamlNumber(tt.in, tt.isInt)
		if tt.err != "" {
			if !strings.Contains(err, tt.err) {
				t.Errorf("yamlNumber(%q) = %q, %q; want error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != "" || got != tt.want {
			t.Errorf("yamlNumber(%q) = %q, %q; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestYAMLNumbersBeyondGoTypes checks that a YAML number too large or too
// precise for int64, uint64 and float64 is still a number, with the same
// value as the same suite written in JSON: yaml.v3 calls such a plain
// scalar a string.
func TestYAMLNumbersBeyondGoTypes(t *testing.T) {
	tests := []struct {
		yaml string // the argument's value in YAML
		json string // the same in JSON, as it must decode
	}{
		{"1e400", "1e400"},
		{"-1e400", "-1e400"},
		{"1e-400", "1e-400"},
		{"1E+400", "1E+400"},
		{"+1e400", "1e400"},
		{".5e400", "0.5e400"},
		{"-.5E-999", "-0.5E-999"},
		{"0xFFFFFFFFFFFFFFFFFFFF", "1208925819614629174706175"},
		{"-0x1_0000_0000_0000_0000", "-18446744073709551616"},
		{"0o777777777777777777777777", "4722366482869645213695"},
		{"0b1" + strings.Repeat("0", 64), "18446744073709551616"},
		{"18446744073709551616", "18446744073709551616"},
		{"-9223372036854775809", "-9223372036854775809"},
		{"123456789012345678901234567890.5", "123456789012345678901234567890.5"},
		{"1_000_000_000_000_000_000_000", "1000000000000000000000"},
		{"!!float 1e400", "1e400"},
		{"!!int 18446744073709551616", "18446744073709551616"},
		{`"1e400"`, `"1e400"`},
		{`'0xFFFFFFFFFFFFFFFFFFFF'`, `"0xFFFFFFFFFFFFFFFFFFFF"`},
		{"!!str 1e400", `"1e400"`},
		{"!!str 18446744073709551616", `"18446744073709551616"`},
		{"1e400x", `"1e400x"`},
		{"0x1G", `"0x1G"`},
	}
	for _, tt := range tests {
		t.Run(tt.yaml, func(t *testing.T) {
			files := memFiles{
				"s.yaml": []byte("cases:\n  - id: a\n    expected: {name: f, arguments: {x: " + tt.yaml + "}}\n"),
				"s.json": []byte(`{"cases": [{"id": "a", "expected": {"name": "f", "arguments": {"x": ` + tt.json + `}}}]}`),
			}
			y, err := load(files, []string{"s.yaml"})
			if err != nil {
				t.Fatal(err)
			}
			j, err := load(files, []string{"s.json"})
			if err != nil {
				t.Fatal(err)
			}
			ya, ja := y.Cases[0].Expected[0].Arguments, j.Cases[0].Expected[0].Arguments
			if got, want := ya.String(), `{"x":`+tt.json+`}`; got != want {
				t.Errorf("YAML arguments = %s, want %s", got, want)
			}
			if !value.Equal(ya, ja) {
				t.Errorf("YAML %s and JSON %s differ", ya, ja)
			}
		})
	}
}

// TestConformanceSuites loads the contract's conformance suites, from the
// project's shared data beside the repository (../shared), when it is
// there.
func TestConformanceSuites(t *testing.T) {
	paths, _ := filepath.Glob("../../../shared/conformance/*/suite.yaml")
	if len(paths) == 0 {
		testenv.Skipf(t, "no conformance suites at ../shared/conformance: they are the project's shared data, which a clone lacks; check the project's shared folder out beside the repository to load them")
	}
	for _, p := range paths {
		s := mustLoad(t, p)
		if len(s.Cases) == 0 {
			t.Errorf("%s: no cases", p)
		}
	}
}

func TestFromValue(t *testing.T) {
	doc, err := value.FromAny(map[string]any{
		"defaults": map[string]any{"calls": "unordered"},
		"cases": []any{
			map[string]any{"id": "a", "expected": map[string]any{"name": "f", "arguments": map[string]any{"n": 5}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromValue("embedded.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	if s.Defaults.Calls != CallsUnordered || len(s.Cases) != 1 || s.Cases[0].Expected[0].Arguments.String() != `{"n":5}` {
		t.Errorf("suite = %s", dump(s))
	}
	if !slices.Equal(s.Files, []string{"embedded.json"}) || s.Cases[0].Loc.File != "embedded.json" {
		t.Errorf("Files = %q, Loc = %+v", s.Files, s.Cases[0].Loc)
	}

	// A number id counts as its text; other kinds are errors.
	num, _ := value.FromAny(map[string]any{"cases": []any{map[string]any{"id": 5, "expected": []any{}}}})
	if s, err := FromValue("embedded.json", num); err != nil || s.Cases[0].ID != "5" {
		t.Errorf("id 5: err=%v, suite=%s", err, dump(s))
	}
	bad, _ := value.FromAny(map[string]any{"cases": []any{map[string]any{"id": true, "expected": []any{}}}})
	_, err = FromValue("embedded.json", bad)
	checkProblems(t, err, []want{{Loc{File: "embedded.json", Key: "cases[0].id"}, "must be a string, not a boolean"}})

	_, err = FromValue("embedded.json", value.StringOf("x"))
	checkProblems(t, err, []want{{Loc{File: "embedded.json"}, "must be an object"}})
}

func TestLoadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"suites/s.yaml":     {Data: []byte("tools_file: tools.json\ncases: [{id: a, expected: {name: f}}]\n")},
		"suites/t.json":     {Data: []byte(`{"cases": [{"id": "b", "tools_file": "../shared/tools.yaml", "expected": []}]}`)},
		"suites/tools.json": {Data: []byte(`[{"name": "f"}]`)},
		"shared/tools.yaml": {Data: []byte("- name: g\n")},
	}
	s, err := LoadFS(fsys, "suites/s.yaml", "suites/t.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "f" || len(s.Cases) != 2 || s.Cases[1].Tools[0].Name != "g" {
		t.Errorf("suite = %s", dump(s))
	}
	if got := s.Cases[1].Tools[0].Loc.File; got != "shared/tools.yaml" {
		t.Errorf("tools Loc.File = %q", got)
	}
	if want := []string{"shared/tools.yaml", "suites/tools.json"}; !slices.Equal(s.ToolsFiles, want) {
		t.Errorf("ToolsFiles = %q, want %q", s.ToolsFiles, want)
	}
	_, err = LoadFS(fsys, "suites/missing.yaml")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want fs.ErrNotExist", err)
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{in: "./bin/geo", want: []string{"./bin/geo"}},
		{in: "  a   b\tc\n", want: []string{"a", "b", "c"}},
		{in: `a 'b c' "d e"`, want: []string{"a", "b c", "d e"}},
		{in: `a 'it''s' x`, want: []string{"a", "its", "x"}},
		{in: `"say \"hi\"" 'back\slash'`, want: []string{`say "hi"`, `back\slash`}},
		{in: `"a\b \$x \\"`, want: []string{`a\b $x \`}},
		{in: `one\ word two`, want: []string{"one word", "two"}},
		{in: `empty '' ""`, want: []string{"empty", "", ""}},
		{in: "joined\\\nline", want: []string{"joinedline"}},
		{in: "", want: nil},
		{in: `'open`, err: "unterminated single quote"},
		{in: `"open`, err: "unterminated double quote"},
		{in: `trailing\`, err: "lone backslash"},
	}
	for _, tt := range tests {
		got, err := splitCommand(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("splitCommand(%q) = %q, %v; want error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("splitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestLocString(t *testing.T) {
	tests := []struct {
		loc  Loc
		want string
	}{
		{Loc{}, ""},
		{Loc{File: "s.yaml"}, "s.yaml"},
		{Loc{File: "s.yaml", Line: 3}, "s.yaml:3"},
		{Loc{File: "s.json", Line: 3, Column: 7}, "s.json:3:7"},
		{Loc{File: "s.yaml", Key: "cases[0].id", Case: "a"}, "s.yaml: cases[0].id (case a)"},
		{Loc{Key: "defaults.calls"}, "defaults.calls"},
	}
	for _, tt := range tests {
		if got := tt.loc.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.loc, got, tt.want)
		}
	}
}

// TestFastPathAgrees checks that the JSON cases fastCase decodes come out
// as the general decoder makes them, and that it leaves to the general
// decoder whatever it does not handle.
func TestFastPathAgrees(t *testing.T) {
	src := genSuite(500)
	src = strings.TrimSuffix(src, "]}\n") + `,
 {"expected": {"rules": {"b": "exact", "a": {"tolerance": 0.5}}, "arguments": {"x": 1.50}, "name": "f"}, "id": "id-last"},
 {"id": "list", "expected": [{"name": "f"}, {"name": "g", "rules": {"z": "ignore", "y": "numeric", "x": "exact"}}], "calls": "subset"},
 {"id": "empty", "expected": [], "extra_fields": "allow"},
 {"id": "escaped\"id", "expected": {"name": "caf\u00e9", "arguments": {"s": "\n"}}},
 {"id": "unicode-é", "expected": {"name": "f", "rules": {"é": "exact"}}},
 {"id": "assert", "expected": {"name": "f", "assert": ["true"]}},
 {"id": "alts", "expected": [], "alternatives": [[{"name": "f"}]]},
 {"id": "args-null", "expected": {"name": "f", "arguments": null}},
 {"id": "rules-empty", "expected": {"name": "f", "rules": {}}},
 {"id": "ws" ,  "expected" : [ { "name" : "f" , "arguments" : { } } ] }
]}`
	files := memFiles{"s.json": []byte(src)}
	fast, err := load(files, []string{"s.json"})
	if err != nil {
		t.Fatal(err)
	}
	l := newLoader(files, []string{"s.json"})
	l.slow = true
	slow, err := l.load()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := dump(fast), dump(slow); a != b {
		t.Errorf("fast and general decoding differ:\nfast:\n%s\ngeneral:\n%s", a, b)
	}
	if n := len(fast.Cases); n != 510 {
		t.Errorf("%d cases", n)
	}
}

// TestParallelDecode loads a suite big enough to be decoded on several
// goroutines, with problems in several of the parts.
func TestParallelDecode(t *testing.T) {
	src := genSuite(12000)
	src = strings.Replace(src, `{"id": "c100", `, `{"id": "c100", "bogus": 1, `, 1)
	src = strings.Replace(src, `{"id": "c11000", `, `{"id": "c7", `, 1)
	l := newLoader(memFiles{"s.json": []byte(src)}, []string{"s.json"})
	_, err := l.load()
	checkProblems(t, err, []want{
		{Loc{File: "s.json", Key: "cases[100].bogus", Case: "c100"}, "unknown key"},
		{Loc{File: "s.json", Key: "cases[11000].id", Case: "c7"}, `duplicate case id "c7"; first at s.json: cases[7]`},
	})
	s, err := load(memFiles{"s.json": []byte(genSuite(12000))}, []string{"s.json"})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range s.Cases {
		if want := fmt.Sprintf("c%d", i); c.ID != want || c.Loc.Key != fmt.Sprintf("cases[%d]", i) {
			t.Fatalf("case %d: id %q, Loc %+v", i, c.ID, c.Loc)
		}
	}
}

func TestToolForms(t *testing.T) {
	src := `tools:
  - {type: function, function: {name: chat, description: d, parameters: {type: object}, strict: true}}
  - {type: function, name: responses, parameters: {type: object}, strict: false}
  - {name: bare, description: d, parameters: {type: object}}
  - {name: anthropic, input_schema: {type: object}}
  - {name: no_params}
`
	s, err := load(memFiles{"s.yaml": []byte(src)}, []string{"s.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range s.Tools {
		got = append(got, tl.Name+" "+tl.Parameters.String())
	}
	want := []string{`chat {"type":"object"}`, `responses {"type":"object"}`, `bare {"type":"object"}`, `anthropic {"type":"object"}`, "no_params null"}
	if !slices.Equal(got, want) {
		t.Errorf("tools = %q, want %q", got, want)
	}
}

func TestByteOrderMarkIsSkipped(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"s.json": `{"version": 1, "cases": [{"id": "a", "expected": []}]}`,
		"s.yaml": "version: 1\ncases: [{id: a, expected: []}]\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("\ufeff"+text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Load(path)
		if err != nil || len(s.Cases) != 1 {
			t.Errorf("%s with a byte order mark: %v", name, err)
		}
	}
}

func TestLoadReturnsWhatDecodedWithTheProblems(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte("version: 1\ncases:\n  - {id: a, expectd: []}\n  - {id: b, expected: {name: f, arguments: {x: 1}, rules: {x: exact}}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *Error", err)
	}
	if s == nil || len(s.Cases) != 2 || s.Cases[1].ID != "b" || len(s.Cases[1].Expected[0].Rules) != 1 {
		t.Fatalf("partial suite = %s, want both cases, b with its rule", dump(s))
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Fatal("a missing file loaded")
	}
}

// TestReloadDoesNotKeepTheOldSuite: a JSON suite's arguments are parsed
// into blocks of memory; loading the suite again (as a service reloading
// it does) must not keep the first load's blocks, and through them its
// file's text, alive once the first suite is dropped.
func TestReloadDoesNotKeepTheOldSuite(t *testing.T) {
	text := []byte(`{"version": 1, "cases": [{"id": "a", "expected": {"name": "f", "arguments": {"city": "Berlin", "days": 3}}}]}`)
	files := memFiles{"s.json": text}
	first, err := load(files, []string{"s.json"})
	if err != nil {
		t.Fatal(err)
	}
	member := weak.Make(&first.Cases[0].Expected[0].Arguments.Members()[0])
	first = nil
	second, err := load(files, []string{"s.json"})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC()
	if member.Value() != nil {
		t.Error("the first suite's arguments are still reachable after loading it again")
	}
	runtime.KeepAlive(second)
}

// A case's `format: auto` is a value that wins over defaults.format, as
// any other name does; a case without format, or with format: null,
// takes defaults.format.
func TestFormatOf(t *testing.T) {
	files := map[string]string{
		"s.yaml": `version: 1
defaults: {format: hermes}
cases:
  - {id: inherits, expected: []}
  - {id: "null", format: null, expected: []}
  - {id: auto, format: auto, expected: []}
  - {id: AUTO, format: AUTO, expected: []}
  - {id: openai, format: openai, expected: []}
`,
		"s.json": `{"version": 1, "defaults": {"format": "hermes"}, "cases": [
  {"id": "inherits", "expected": []},
  {"id": "null", "format": null, "expected": []},
  {"id": "auto", "format": "auto", "expected": []},
  {"id": "AUTO", "format": "AUTO", "expected": []},
  {"id": "openai", "format": "openai", "expected": []}]}`,
	}
	want := map[string]format.Format{
		"inherits": format.Hermes, "null": format.Hermes,
		"auto": format.Auto, "AUTO": format.Auto, "openai": format.OpenAI,
	}
	for name, text := range files {
		t.Run(name, func(t *testing.T) {
			s, err := load(memFiles{name: []byte(text)}, []string{name})
			if err != nil {
				t.Fatal(err)
			}
			for i := range s.Cases {
				c := &s.Cases[i]
				if got := s.FormatOf(c); got != want[c.ID] {
					t.Errorf("case %s: FormatOf = %q, want %q", c.ID, got, want[c.ID])
				}
			}
		})
	}
	// A case built in Go that names a format has it without FormatSet,
	// which only an explicit auto needs.
	s := &Suite{Defaults: Defaults{Format: format.Hermes}}
	for c, want := range map[*Case]format.Format{
		{ID: "go", Format: format.OpenAI}:                   format.OpenAI,
		{ID: "unset"}:                                       format.Hermes,
		{ID: "auto", FormatSet: true}:                       format.Auto,
		{ID: "both", Format: format.Calls, FormatSet: true}: format.Calls,
	} {
		if got := s.FormatOf(c); got != want {
			t.Errorf("case %s built in Go: FormatOf = %q, want %q", c.ID, got, want)
		}
	}
}

// A suite whose cases share their tools by an alias loads, as the same
// suite written out does: the aliases' budget is not the file's size
// alone.
func TestYAMLSharedToolsLoad(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\ncases:\n  - id: c0\n    tools: &tools\n")
	for i := range 40 {
		fmt.Fprintf(&b, "      - name: t%d\n        parameters:\n          type: object\n          properties:\n", i)
		for j := range 8 {
			fmt.Fprintf(&b, "            p%d: {type: string, description: parameter %d}\n", j, j)
		}
	}
	b.WriteString("    expected: []\n")
	for i := 1; i < 1000; i++ {
		fmt.Fprintf(&b, "  - id: c%d\n    tools: *tools\n    expected: []\n", i)
	}
	s, err := load(memFiles{"s.yaml": []byte(b.String())}, []string{"s.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) != 1000 || len(s.Cases[999].Tools) != 40 {
		t.Errorf("got %d cases, the last with %d tools", len(s.Cases), len(s.Cases[999].Tools))
	}
}

// A multi-line TOML string of a file saved with CRLF line breaks holds
// "\n", as the same YAML file's does: the verdict does not depend on how
// git checked the file out.
func TestTOMLLineBreaks(t *testing.T) {
	for _, name := range []string{"s.toml", "s.yaml"} {
		src := "version = 1\n[[cases]]\nid = \"a\"\n[cases.expected]\nname = \"f\"\n[cases.expected.arguments]\nnote = \"\"\"\nline1\nline2\"\"\"\nraw = '''\nx\ny'''\n"
		if name == "s.yaml" {
			src = "version: 1\ncases:\n  - id: a\n    expected:\n      name: f\n      arguments:\n        note: |-\n          line1\n          line2\n        raw: |-\n          x\n          y\n"
		}
		crlf := strings.ReplaceAll(src, "\n", "\r\n")
		s, err := load(memFiles{name: []byte(crlf)}, []string{name})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := s.Cases[0].Expected[0].Arguments.String(), `{"note":"line1\nline2","raw":"x\ny"}`; got != want {
			t.Errorf("%s with CRLF: %s, want %s", name, got, want)
		}
	}
	// A place is where it was.
	_, err := load(memFiles{"s.toml": []byte("version = 1\r\n[defaults\r\n")}, []string{"s.toml"})
	if err == nil || !strings.Contains(err.Error(), "s.toml:2:10") {
		t.Errorf("got %v, want the error at 2:10", err)
	}
}
