package rulecore

import (
	"errors"
	"github.com/callgrade/callgrade/rules"
	"testing"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// Every CompileError is rule_compile_error; an unknown property is
// unknown_key too, which is how the suite package tells it from the rest.
func TestCompileErrorCodes(t *testing.T) {
	unknown, _ := value.ObjectOf(value.Member{Key: "bogus", Value: value.StringOf("x")})
	badRegex, _ := value.ObjectOf(value.Member{Key: "regex", Value: value.StringOf("(")})
	tests := []struct {
		name  string
		spec  value.Value
		codes []errcode.Code
		not   errcode.Code
	}{
		{"unknown property", unknown, []errcode.Code{errcode.RuleCompileError, errcode.UnknownKey}, ""},
		{"bad regex", badRegex, []errcode.Code{errcode.RuleCompileError}, errcode.UnknownKey},
		{"unknown shorthand", value.StringOf("nope"), []errcode.Code{errcode.RuleCompileError}, errcode.UnknownKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(tt.spec, rules.Extensions{})
			for _, c := range tt.codes {
				if !errors.Is(err, c) {
					t.Errorf("errors.Is(%v, %s) is false", err, c)
				}
			}
			if tt.not != "" && errors.Is(err, tt.not) {
				t.Errorf("%v matches %s", err, tt.not)
			}
			if want := tt.codes[len(tt.codes)-1]; errcode.Of(err) != want {
				t.Errorf("errcode.Of = %s, want %s", errcode.Of(err), want)
			}
		})
	}
}

func TestPathErrorCode(t *testing.T) {
	for _, p := range []string{"", "a..b", `a\`, `a\x`} {
		_, err := ParsePath(p)
		if !errors.Is(err, errcode.InvalidPath) {
			t.Errorf("ParsePath(%q) = %v, want invalid_path", p, err)
		}
	}
}
