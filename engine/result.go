package engine

import (
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
)

// Result, Diff, CallResult, Kind, Summary and InputError are package
// results' types,
// which is where the results file's contract lives. They are aliases, not
// copies: the engine's scoring code and its tests name them throughout,
// and that code is being reworked on its own (issue 29, point 2); new code
// names package results.
type (
	Result     = results.Result
	Diff       = results.Diff
	CallResult = results.CallResult
	Kind       = results.Kind
	Summary    = results.Summary
	InputError = results.InputError
)

// The diff kinds, package results' (see Result for why they are named
// here too).
const (
	WrongTool          = results.WrongTool
	MissingArgument    = results.MissingArgument
	Mismatch           = results.Mismatch
	UnexpectedArgument = results.UnexpectedArgument
	InvalidArguments   = results.InvalidArguments
	MissingCall        = results.MissingCall
	UnexpectedCall     = results.UnexpectedCall
	Schema             = results.Schema
	AssertFailed       = results.AssertFailed
	MissingResponse    = results.MissingResponse
	UnknownCase        = results.UnknownCase
	RuleError          = results.RuleError
	PluginError        = results.PluginError
	NotEvaluable       = results.NotEvaluable
	ForbiddenCall      = results.ForbiddenCall
	TooManyCalls       = results.TooManyCalls
	MissingResult      = results.MissingResult
	MissingFinal       = results.MissingFinal
)

// argDiff is what package rules reports of an argument as a diff of the
// results file, about the pair call (-1 for the case as a whole).
func argDiff(d rules.Diff, call int) Diff {
	return Diff{Kind: d.Kind, Path: d.Path, Expected: d.Expected, Actual: d.Actual,
		HasExpected: d.HasExpected, HasActual: d.HasActual, Rule: d.Rule, Message: d.Message, Call: call}
}
