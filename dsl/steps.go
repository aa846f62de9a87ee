package dsl

import (
	"errors"
	"strings"

	"github.com/callgrade/callgrade/rules"
)

// UsesSteps reports whether the expression reads the run's steps, so that
// an engine gives it a view of the run (rules.StepsUser).
func (e *Expr) UsesSteps() bool { return e.uses.steps || e.isAll }

// stepsAny converts the visible steps of a run for the VM.
func stepsAny(s rules.Steps) []any {
	n := s.Len()
	out := make([]any, n)
	for i := range n {
		out[i] = toAny(s.Value(i))
	}
	return out
}

// isStepRange reports whether err is an index out of range, which in an
// expression that reads steps is most likely a step that did not happen.
func isStepRange(err error) bool {
	var re *RuntimeError
	return errors.As(err, &re) && strings.Contains(re.Msg, "out of range")
}
