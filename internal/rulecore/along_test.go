package rulecore

import (
	"github.com/callgrade/callgrade/rules"
	"strings"
	"testing"
)

// TestRulesAlong: the rule in force at each step of a concrete path, as a
// comparison finds it: the most specific pattern, a call's rule over a
// ruleset's, indices where the value holds an array, keys past what it
// holds.
func TestRulesAlong(t *testing.T) {
	var s Set
	add := func(level Level, path, rule string) {
		p, err := ParsePath(path)
		if err != nil {
			t.Fatal(err)
		}
		s.Add(level, p, mustRule(t, rules.Extensions{}, rule))
	}
	add(LevelCall, "city", `{"regex": "^B"}`)
	add(LevelRuleset, "city", `"ignore"`)
	add(LevelRuleset, "unit", `"ignore"`)
	add(LevelCall, "items.#.sku", `{"one_of": ["a"]}`)
	add(LevelCall, "*", `"case_insensitive"`)
	add(LevelCall, "where.lat", `{"type": "number"}`)
	add(LevelDefaults, "meta", `"ignore"`)
	add(LevelCall, "meta.id", `"exact"`)
	add(LevelSchema, "meta.n", `"numeric"`)
	args := mustParse(t, `{"items": [{"sku": "a"}, {}], "where": {"lat": 1}, "0": {"x": 1}, "meta": {"id": 1, "n": 2}}`)
	tests := []struct {
		path string
		want string // the rules' names, "-" for none
	}{
		{"", "-"},
		{"city", "- regex"},
		{"unit", "- ignore"},
		{"other", "- case_insensitive"},
		{"items.1.sku", "- case_insensitive - one_of"},
		{"items.5.sku", "- case_insensitive - one_of"},
		{"items.x", "- case_insensitive -"},
		{"where.lat", "- case_insensitive type"},
		{"where.lon", "- case_insensitive -"},
		{"0.x", "- case_insensitive -"},
		// Below an ignored field, a written rule is in force, not what
		// the schema implies.
		{"meta", "- ignore"},
		{"meta.id", "- - exact"},
		{"meta.n", "- ignore numeric"},
		{"meta.other", "- ignore -"},
	}
	for _, tt := range tests {
		var path []string
		if tt.path != "" {
			path = strings.Split(tt.path, ".")
		}
		var got []string
		for _, r := range s.RulesAlong(args, path) {
			name := "-"
			if r != nil {
				name, _, _ = strings.Cut(r.String(), "+")
				name, _, _ = strings.Cut(name, "=")
			}
			got = append(got, name)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("RulesAlong(%s) = %s, want %s", tt.path, strings.Join(got, " "), tt.want)
		}
	}
	if r := s.RulesAlong(args, []string{"where", "lat"})[2]; !r.Typed() {
		t.Errorf("where.lat: %s is not Typed", r)
	}
	if r := s.RulesAlong(args, []string{"city"})[1]; r.Typed() || !r.Standalone() {
		t.Errorf("city: %s is Typed or not Standalone", r)
	}
}
