package rules

import (
	"context"

	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// Comparator decides whether an actual value matches an expected value at
// one path. Implementations must be safe for concurrent use.
type Comparator interface {
	Compare(in *Input) Outcome
}

// Input is what a Comparator sees.
type Input struct {
	Path         string      // the field's path, e.g. "items.0.sku"
	Expected     value.Value // the expected value (after normalisers)
	Actual       value.Value // the actual value (after normalisers)
	Params       value.Value // the rule's params, Null when none
	Tool         string      // the call's name
	Args         value.Value // every actual argument of the call
	ExpectedArgs value.Value // every expected argument of the call
	Steps        Steps       // the run's steps before the call's (see Steps)
	// Ctx is the scoring's context, nil for none: a comparator that waits
	// (a plugin's) stops waiting once it is done, its outcome then an Err.
	Ctx context.Context
}

// Outcome is a Comparator's answer. A non-nil Err means the comparison could
// not be made: it becomes a diff of kind ErrKind, results.RuleError (the
// rule's fault) when empty; results.Mismatch puts it on the actual (a
// step it refers to did not happen), results.PluginError on a plugin that
// failed to answer.
type Outcome struct {
	Equal   bool
	Message string
	Err     error
	ErrKind results.Kind
}

// Extensions supply the comparators that live outside the engine: the
// expression language's, the plugins' and a program's own. A nil func makes
// what needs it a compile error that says it is not available.
type Extensions struct {
	// Expr compiles an `expr` property.
	Expr func(src string) (Comparator, error)
	// Plugin resolves a `plugin: name.comparator` property with its params.
	Plugin func(ref string, params value.Value) (Comparator, error)
	// Assert compiles a call-level `assert` expression. Its comparator sees
	// the call's arguments objects as Expected and Actual.
	Assert func(src string) (Comparator, error)
}
