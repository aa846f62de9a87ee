package engine

import (
	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/results"
)

// Result, Diff, CallResult, Kind, Summary and InputError are package
// results' types, which is where the two file contracts live. They are
// aliases, not copies, kept because the engine's API returns them and its
// scoring code and tests name them throughout while that code is reworked
// on its own (issue 29, point 2); the diff kinds are named from package
// results directly, and new code names its types there too.
type (
	Result     = results.Result
	Diff       = results.Diff
	CallResult = results.CallResult
	Kind       = results.Kind
	Summary    = results.Summary
	InputError = results.InputError
)

// argDiff is what package rulecore reports of an argument as a diff of the
// results file, about the pair call (-1 for the case as a whole).
func argDiff(d rulecore.Diff, call int) Diff {
	return Diff{Kind: d.Kind, Path: d.Path, Expected: d.Expected, Actual: d.Actual,
		HasExpected: d.HasExpected, HasActual: d.HasActual, Rule: d.Rule, Message: d.Message, Call: call}
}
