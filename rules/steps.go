package rules

import "github.com/callgrade/callgrade/value"

// stepSource is the run's view NewSteps takes (see there), named for the
// field that keeps it.
type stepSource interface {
	StepCount() int
	StepName(i int) string
	StepValue(i int) value.Value
}

// Steps is the part of a run that a comparison may refer to: the actual
// steps before the one being compared (all of them for the run's final
// text). The zero Steps has none: references to a step then do not
// resolve. Only an engine builds one (NewSteps); a comparator reads it.
type Steps struct {
	src stepSource
	n   int // the steps 0 to n-1 are visible
}

// NewSteps returns the view of the steps 0 to n-1 of src, for an engine
// that scores a run: src has the methods StepCount() int, StepName(i int)
// string and StepValue(i int) value.Value, which returns step i as the
// object {name, arguments, result, error, id, turn} (result only when the
// tool's result is known, id only when the run gives one) and may build it
// on first use, so that a run no reference reads costs nothing. A nil src
// has no steps.
func NewSteps(src interface {
	StepCount() int
	StepName(i int) string
	StepValue(i int) value.Value
}, n int) Steps {
	return Steps{src: src, n: n}
}

// Len returns the number of visible steps.
func (s Steps) Len() int {
	if s.src == nil {
		return 0
	}
	return min(s.n, s.src.StepCount())
}

// Value returns visible step i as an object.
func (s Steps) Value(i int) value.Value { return s.src.StepValue(i) }

// Name returns the tool name of visible step i, without building its
// object.
func (s Steps) Name(i int) string { return s.src.StepName(i) }
