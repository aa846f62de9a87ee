package dsl

import (
	"errors"
	"strings"
)

// UsesSteps reports whether the expression reads the run's steps, so that
// an engine gives it a view of the run.
func (e *Expr) UsesSteps() bool { return e.uses.steps || e.isAll }

// isStepRange reports whether err is an index out of range, which in an
// expression that reads steps is most likely a step that did not happen.
// The message is expr's VM's, which has no code to test instead.
func isStepRange(err error) bool {
	var re *RuntimeError
	return errors.As(err, &re) && strings.Contains(re.Msg, "out of range")
}
