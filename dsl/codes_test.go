package dsl

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// Compile errors are expression_compile_error, and one past MaxLength is
// limit_exceeded too; run-time errors are expression_runtime_error, and a
// limit's is limit_exceeded too.
func TestErrorCodes(t *testing.T) {
	c := NewCompiler(Options{MaxLength: 64, MaxSteps: 10})
	compileErr := func(src string) func() error {
		return func() error { _, err := c.Compile(src); return err }
	}
	evalErr := func(src, actual string) func() error {
		return func() error {
			e, err := c.Compile(src)
			if err != nil {
				return err
			}
			a, _ := value.Parse(actual)
			_, err = e.eval(&rules.Input{Path: "x", Actual: a, Expected: a})
			return err
		}
	}
	tests := []struct {
		name  string
		err   func() error
		codes []errcode.Code
	}{
		{"syntax", compileErr("actual +"), []errcode.Code{errcode.ExpressionCompileError}},
		{"empty", compileErr(""), []errcode.Code{errcode.ExpressionCompileError}},
		{"unknown name", compileErr("nope == 1"), []errcode.Code{errcode.ExpressionCompileError}},
		{"too long", compileErr(strings.Repeat("1 == ", 20) + "1"), []errcode.Code{errcode.ExpressionCompileError, errcode.LimitExceeded}},
		{"index out of range", evalErr("actual[3] == 1", "[1]"), []errcode.Code{errcode.ExpressionRuntimeError}},
		{"too many steps", evalErr("all(actual, # == 1)", "[1,1,1,1,1,1,1,1,1,1,1,1]"), []errcode.Code{errcode.ExpressionRuntimeError, errcode.LimitExceeded}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			for _, c := range errcode.All {
				if got, want := errors.Is(err, c), slices.Contains(tt.codes, c); got != want {
					t.Errorf("errors.Is(%v, %s) = %v, want %v", err, c, got, want)
				}
			}
		})
	}
}
