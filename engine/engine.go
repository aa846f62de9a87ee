// Package engine scores model tool calls against a suite: it extracts the
// calls from each response, pairs them with the expected calls, compares
// their arguments field by field under the compiled rules, and reports a
// verdict, a partial-credit score and every difference.
//
// An Engine is compiled once from a suite and is then read-only: any number
// of goroutines may score with it at once.
package engine

import (
	"fmt"
	"sync/atomic"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// Options configure an Engine. The zero value is ready to use.
type Options struct {
	// Format forces one response format; with Auto, the suite's format
	// (a case's format, else defaults.format) applies, and where it names
	// none each response's format is detected.
	Format format.Format
	// ForceFormat makes Format win even when it is Auto, as `--format
	// auto` does: each response's format is then detected, whatever the
	// suite says. A Format other than Auto wins without it.
	ForceFormat bool
	// Limits bound each arguments string, and each response line as a
	// whole by its depth (past the envelope) and the count of its values;
	// the zero value means value's defaults, and MaxValues zero or
	// less means 1,048,576 (callgrade.DefaultMaxValues).
	Limits value.Limits
	// Extensions compile the rule properties and asserts served by other
	// packages (expressions, plugins). Without them such rules are load
	// errors.
	Extensions rules.Extensions

	// maxDiffs is the most diffs listed for one call (an expected call
	// and its actual call, or an actual call paired with none); past it,
	// one more diff says how many were left out. The score and the
	// verdict still count every one. Zero or less: defaultMaxDiffs. Only
	// the engine's tests set it: the callgrade command has no flag for it.
	maxDiffs int
}

// defaultMaxDiffs is Options.maxDiffs when none is given: enough to say
// everything wrong with any call a person reads, and a bound on the
// results line and the memory of a call with hundreds of thousands of
// wrong arguments.
const defaultMaxDiffs = 100

// defaultMaxValues is Options.Limits.MaxValues when none is given: the
// most JSON values one response line may hold. A line past it fails its
// case, as a line that is not JSON does. Parsed, a value costs several
// times its text, so a line of millions of small values ({"k1":1,"k2":1,
// …}: 20 million in 200 MiB, 3 GB parsed) would cost many times the line;
// a million is far more than any model's answer or agent run holds, and
// about 60 MB parsed at most. It is callgrade.DefaultMaxValues, which a
// test holds it to.
const defaultMaxValues = 1 << 20

// Engine is a compiled suite.
type Engine struct {
	opts     Options
	cases    []compiledCase
	warnings []suite.Problem
	index    idIndex
	// unique says that no two cases share an id (suite.Load guarantees it;
	// a Suite built by hand may not), so that a case found by a guess is
	// the one index names.
	unique bool
	// blocking says that some comparator waits on I/O, so that Run scores
	// many lines at once.
	blocking bool
	// exhaustive makes unordered pairing weigh every pair even where
	// allPass would do, and a list of one call against one go through the
	// matcher rather than evaluateOne; the tests compare the two.
	exhaustive bool
	// samples is the suite's `samples:`, which a run with RunOptions.Samples
	// 0 reads.
	samples int
}

// New compiles the suite v is a view of (callgrade.Suite: what the root
// loads). Every problem found (a rule, a path, a regex, a schema, a
// tool) is reported together in one *suite.Error.
func New(v *suite.View, opts Options) (*Engine, error) {
	return newEngine(suite.ModelOf(v), opts)
}

// newEngine is New for the suite model itself.
func newEngine(s *suite.Suite, opts Options) (*Engine, error) {
	ext, blocking := watchBlocking(opts.Extensions)
	opts.Extensions = ext
	if opts.Limits.MaxValues <= 0 {
		opts.Limits.MaxValues = defaultMaxValues
	}
	c := newCompiler(s, opts)
	e := &Engine{opts: opts, cases: make([]compiledCase, len(s.Cases)), samples: s.Samples}
	e.index, e.unique = c.compileAll(s.Cases, e.cases)
	if len(c.problems) > 0 {
		return nil, &suite.Error{Problems: c.problems}
	}
	e.blocking = blocking.Load()
	e.warnings = c.warnings
	if len(s.Cases) == 0 {
		var loc suite.Loc
		if len(s.Files) > 0 {
			loc.File = s.Files[len(s.Files)-1]
		}
		e.warnings = append(e.warnings, suite.Problem{Loc: loc, Msg: "the suite has no cases"})
	}
	return e, nil
}

// Warnings lists what compiles but cannot be what the suite's author
// meant: an expected call naming a tool that the case's tools do not
// define, expected arguments that violate their own tool's schema (no call
// equal to them can pass), a suite without cases. Each names its file, key
// path and case. `callgrade check` prints them.
func (e *Engine) Warnings() []suite.Problem { return e.warnings }

// blocker is implemented by comparators whose Compare waits on I/O, such
// as a plugin's, which batches the comparisons that are pending at once.
// The engine then scores many cases at a time, so that such a comparator
// sees many comparisons together instead of one per core. The interface
// is the engine's own: a comparator says so with its Blocking method.
type blocker interface {
	Blocking() bool
}

// watchBlocking wraps the extensions so that compiling the suite records
// whether any comparator it made blocks.
func watchBlocking(ext rules.Extensions) (rules.Extensions, *atomic.Bool) {
	blocking := new(atomic.Bool) // cases compile on every core
	note := func(c rules.Comparator, err error) (rules.Comparator, error) {
		if b, ok := c.(blocker); ok && b.Blocking() {
			blocking.Store(true)
		}
		return c, err
	}
	if f := ext.Expr; f != nil {
		ext.Expr = func(src string) (rules.Comparator, error) { return note(f(src)) }
	}
	if f := ext.Plugin; f != nil {
		ext.Plugin = func(ref string, params value.Value) (rules.Comparator, error) { return note(f(ref, params)) }
	}
	return ext, blocking
}

// lookup returns the index of the case with the given id, trying guess
// first: responses mostly come in the order of the cases, and comparing one
// id is cheaper than a lookup in a map of every case.
func (e *Engine) lookup(id string, guess int) (int, bool) {
	if e.unique && guess >= 0 && guess < len(e.cases) && e.cases[guess].id == id {
		return guess, true
	}
	i, ok := e.index.get(id, e.cases)
	return i, ok
}

// Lookup returns the index of the case with the given id.
func (e *Engine) Lookup(id string) (int, bool) {
	i, ok := e.index.get(id, e.cases)
	return i, ok
}

// setUnknownCase sets r to the result reported for a response whose id
// names no case.
func setUnknownCase(r *results.Result, id string) {
	*r = results.Result{ID: id, Diffs: []results.Diff{{Kind: results.UnknownCase,
		Message: fmt.Sprintf("the responses name case %q, which the suite does not have", id), Call: -1}}}
}
