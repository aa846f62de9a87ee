package engine

import (
	"github.com/callgrade/callgrade/internal/rulecore"
	"github.com/callgrade/callgrade/results"
)

// argDiff is what package rulecore reports of an argument as a diff of the
// results file, about the pair call (-1 for the case as a whole).
func argDiff(d rulecore.Diff, call int) results.Diff {
	return results.Diff{Kind: d.Kind, Path: d.Path, Expected: d.Expected, Actual: d.Actual,
		HasExpected: d.HasExpected, HasActual: d.HasActual, Rule: d.Rule, Message: d.Message, Call: call}
}
