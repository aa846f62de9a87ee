package rules

import "github.com/callgrade/callgrade/value"

// StepSource is what a run's view gives references: the actual steps of
// the run, each as the object {name, arguments, result, error, id, turn}
// (result only when the tool's result is known, id only when the run gives
// one). An engine builds the objects on first use, so that a run no
// reference reads costs nothing.
type StepSource interface {
	StepCount() int
	StepName(i int) string
	StepValue(i int) value.Value
}

// Steps is the part of a run that a comparison may refer to: the actual
// steps before the one being compared (all of them for the run's final
// text). The zero Steps has none: references to a step then do not
// resolve.
type Steps struct {
	Src StepSource
	N   int // the steps 0 to N-1 are visible
}

// Len returns the number of visible steps.
func (s Steps) Len() int {
	if s.Src == nil {
		return 0
	}
	return min(s.N, s.Src.StepCount())
}

// Value returns visible step i as an object.
func (s Steps) Value(i int) value.Value { return s.Src.StepValue(i) }
