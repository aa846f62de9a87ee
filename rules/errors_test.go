package rules

import (
	"errors"
	"testing"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/value"
)

// The error types carry their codes themselves, whoever builds them (the
// rule compiler, dsl, plugins), and word their parts the same way.
func TestErrors(t *testing.T) {
	underlying := errors.New("boom")
	tests := []struct {
		name  string
		err   error
		text  string
		codes []errcode.Code
		not   []errcode.Code
	}{
		{"compile error, whole rule", &CompileError{Offset: -1, Msg: "unknown shorthand"},
			"unknown shorthand", []errcode.Code{errcode.RuleCompileError}, []errcode.Code{errcode.UnknownKey, errcode.InvalidPath}},
		{"compile error with offset and cause", &CompileError{Property: "regex", Offset: 3, Msg: "invalid regular expression", Err: underlying},
			"regex: invalid regular expression at offset 3: boom", []errcode.Code{errcode.RuleCompileError}, []errcode.Code{errcode.UnknownKey}},
		{"compile error with a finer code", &CompileError{Property: "bogus", Offset: -1, Err: errcode.Wrap(errcode.UnknownKey, errors.New("unknown rule property"))},
			"bogus: unknown rule property", []errcode.Code{errcode.RuleCompileError, errcode.UnknownKey}, nil},
		{"compile error of a cause alone", &CompileError{Property: "expr", Offset: -1, Err: underlying},
			"expr: boom", []errcode.Code{errcode.RuleCompileError}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.text {
				t.Errorf("Error() = %q, want %q", got, tt.text)
			}
			for _, c := range tt.codes {
				if !errors.Is(tt.err, c) {
					t.Errorf("errors.Is(%v, %s) is false", tt.err, c)
				}
			}
			for _, c := range tt.not {
				if errors.Is(tt.err, c) {
					t.Errorf("errors.Is(%v, %s) is true", tt.err, c)
				}
			}
		})
	}
	if ce := (&CompileError{Err: underlying}); !errors.Is(ce, underlying) {
		t.Errorf("CompileError does not unwrap to its cause")
	}
}

// threeSteps is a run of three steps.
type threeSteps struct{}

func (threeSteps) StepCount() int            { return 3 }
func (threeSteps) StepName(int) string       { return "f" }
func (threeSteps) StepValue(int) value.Value { return value.Value{} }

// A comparator sees the steps before the one compared, never more than
// the run has; the zero Steps has none, as outside a run.
func TestStepsLen(t *testing.T) {
	tests := []struct {
		name  string
		steps Steps
		want  int
	}{
		{"zero", Steps{}, 0},
		{"no source", NewSteps(nil, 3), 0},
		{"the first two", NewSteps(threeSteps{}, 2), 2},
		{"past the run", NewSteps(threeSteps{}, 5), 3},
	}
	for _, tt := range tests {
		if got := tt.steps.Len(); got != tt.want {
			t.Errorf("%s: Len() = %d, want %d", tt.name, got, tt.want)
		}
	}
}
