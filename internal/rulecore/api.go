package rulecore

import (
	"context"

	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// Diff is one difference found comparing two argument trees.
type Diff struct {
	Kind        results.Kind
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
	Steps rules.Steps
	// Passes, when not nil, holds pairs of actual and expected values
	// known to pass under the set's rules, which the comparison takes as
	// passing without walking them.
	Passes *Passes
	// MaxWorded, when above 0, is how many diffs are reported in full:
	// past it, an extra argument or a mismatch is reported with its kind
	// and values but no Path or Message, which a caller that lists only
	// so many diffs of a call counts without wording each.
	MaxWorded int
	// Words, when not nil, holds the diffs' messages, which are then
	// valid until its Reset (see package words); nil gives each message
	// a string of its own.
	Words *words.Arena
	// Scratch, when not nil, is memory the comparison works in and
	// leaves for the next one: a caller that compares many calls on one
	// goroutine keeps one, rather than each comparison taking it from a
	// pool shared by all goroutines and giving it back.
	Scratch *Scratch
}

// Scratch is the memory a comparison works in: the buffers strings are
// normalised into. The zero Scratch is ready to use. It serves one
// comparison at a time, on one goroutine (a Scorer's); one that begins
// while it is in use (a comparator's own comparison, say) works in
// memory of its own.
type Scratch struct {
	nb   normBufs
	busy bool
}

// words is c's Words, nil for a nil c.
func (c *Context) words() *words.Arena {
	if c == nil {
		return nil
	}
	return c.Words
}

// Result sums up a comparison of two argument objects for scoring: Matched
// of Total counted arguments matched. Total is the number of top-level
// expected arguments plus each top-level actual argument rejected as extra
// (or otherwise wrong without being expected).
type Result struct {
	Matched, Total int
}
