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
	Steps        Steps       // the run's steps before the call's (rules/steps.go)
	// Ctx is the scoring's context, nil for none: a comparator that waits
	// (a plugin's) stops waiting once it is done, its outcome then an Err.
	Ctx context.Context
}

// Outcome is a Comparator's answer. A non-nil Err means the comparison could
// not be made: it becomes a diff of kind ErrKind (RuleError when empty).
type Outcome struct {
	Equal   bool
	Message string
	Err     error
	ErrKind Kind
}

// Extensions supply the comparators that live in other packages: the
// expression language's and the plugins'. A nil func makes what needs it a
// compile error that says it is not available.
type Extensions struct {
	// Expr compiles an `expr` property.
	Expr func(src string) (Comparator, error)
	// Plugin resolves a `plugin: name.comparator` property with its params.
	Plugin func(ref string, params value.Value) (Comparator, error)
	// Assert compiles a call-level `assert` expression. Its comparator sees
	// the call's arguments objects as Expected and Actual.
	Assert func(src string) (Comparator, error)
}

// Kind is the kind of a Diff, as the results file spells it: package
// results defines every kind, this package's among them.
type Kind = results.Kind

// The diff kinds this package reports, named here for its comparators and
// plugins; package results defines them with the engine's.
const (
	MissingArgument    = results.MissingArgument
	Mismatch           = results.Mismatch
	UnexpectedArgument = results.UnexpectedArgument
	RuleError          = results.RuleError
	PluginError        = results.PluginError
)

// Diff is one difference found comparing two argument trees.
type Diff struct {
	Kind        Kind
	Path        string // gjson-style path, "" for the arguments object itself
	Expected    value.Value
	Actual      value.Value
	HasExpected bool // false: the expected side is absent
	HasActual   bool // false: the actual side is absent
	Rule        string
	Message     string
}

// Level orders the sources of rules. Between two equally specific paths the
// higher level wins. A rule at LevelSchema, which no one wrote, gives way
// even to a less specific rule of a higher level, which takes in its
// numeric mode and default where it says nothing of them.
type Level uint8

// The levels, lowest first.
const (
	LevelSchema   Level = iota // implied by the tool's JSON Schema
	LevelDefaults              // defaults.rules
	LevelRuleset               // rulesets pulled in with `use`
	LevelCall                  // the expected call's own rules
)

// Context is what a comparison of two calls' arguments depends on besides
// the rules.
type Context struct {
	// Ctx, when not nil, is the scoring's context, which comparators see
	// as Input.Ctx.
	Ctx           context.Context
	AllowExtra    bool   // extra_fields: allow, unless a rule at a path says otherwise
	NullIsMissing bool   // an argument set to null counts as omitted
	Tool          string // the call's name, for comparators
	// Steps are the run's actual steps before the one being compared,
	// which `from` references and expressions read; none outside a run.
	Steps Steps
	// Passes, when not nil, holds pairs of actual and expected values
	// known to pass under the set's rules, which the comparison takes as
	// passing without walking them.
	Passes *Passes
	// MaxWorded, when above 0, is how many diffs are reported in full:
	// past it, an extra argument or a mismatch is reported with its kind
	// and values but no Path or Message, which a caller that lists only
	// so many diffs of a call counts without wording each.
	MaxWorded int
}

// Result sums up a comparison of two argument objects for scoring: Matched
// of Total counted arguments matched. Total is the number of top-level
// expected arguments plus each top-level actual argument rejected as extra
// (or otherwise wrong without being expected).
type Result struct {
	Matched, Total int
}
