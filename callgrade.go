// Package callgrade is the front door to the engine: Open reads a suite,
// starts the plugins it declares, installs the expression language and
// compiles every rule, path, regular expression, expression and tool schema
// into a Grader, which scores responses until it is closed.
//
//	g, err := callgrade.Open([]string{"suite.yaml"}, callgrade.Options{})
//	if err != nil {
//		// *callgrade.SuiteError: every problem, with its file, key path and case
//	}
//	defer g.Close()
//	summary, err := g.Run(ctx, responses, results, callgrade.RunOptions{Name: "responses.jsonl"})
//	r, err := g.Score(ctx, "weather-berlin", responseJSON) // one response
//
// Compare scores one response against expected calls with no suite file.
// This is the whole recipe the callgrade command follows, and everything
// it needs is here: the types the root hands back are its own or aliases
// of the packages below it (engine and results, which are there for
// programs that need one step on its own; the module's suite reader for
// its errors, and its response reader for the format names). The suite
// model itself stays the module's own: a Suite is opaque.
package callgrade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// DefaultMaxValues is the most JSON values a response line (or a document
// Grader.Score takes) may hold when Options.Limits.MaxValues is zero: past
// it the line's case fails, naming the limit. Parsed, a value costs
// several times its text, so a line of millions of small values would
// cost many times the line; a million is far more than any model's answer
// or agent run holds, and about 60 MB parsed at most. The engine applies
// the same bound to a line given none, which its tests hold to this one.
const DefaultMaxValues = 1 << 20

// Options configure a Grader. The zero value is ready to use.
type Options struct {
	// Format and Limits go to the engine (see engine.Options): a response
	// format to force over the suite's (a case's format, defaults.format),
	// and the bounds of each arguments string.
	Format Format
	Limits Limits
	// ForceFormat makes Format win over the suite's formats even when it
	// is Auto (engine.Options.ForceFormat), as `--format auto` does.
	ForceFormat bool
	// Expr bounds the expressions of `expr` rules and `assert`; the zero
	// value means dsl's defaults.
	Expr dsl.Options
	// Plugins configure the plugin processes the suite declares.
	Plugins plugins.Options
}

// Grader is a compiled suite, ready to score: its expressions compiled and
// its plugins running. It is safe for concurrent use; Close stops the
// plugins.
type Grader struct {
	suite  *suite.Suite
	view   *Suite // of suite, as Suite hands it out
	engine *engine.Engine
	host   *plugins.Host
	given  Options // as Open or New was given them
	opts   engine.Options
	merger bool // made by OpenMerger for a suite with plugins: it does not score
}

// Open reads the suite files (layered in order, as `callgrade score --suite
// A --suite B` does) and compiles them into a Grader. When the files do
// not load, the error is a *SuiteError listing every problem at once:
// those of the files' shape together with those of compiling what did
// load (rules, paths, regular expressions, expressions, schemas).
func Open(files []string, opts Options) (*Grader, error) {
	s, err := suite.Load(files...)
	if err != nil {
		return nil, withCompileProblems(s, err, opts)
	}
	return newGrader(s, opts)
}

// New compiles a suite already read (Load) into a Grader, starting the
// plugins it declares.
func New(v *Suite, opts Options) (*Grader, error) {
	return newGrader(suite.ModelOf(v), opts)
}

func newGrader(s *suite.Suite, opts Options) (*Grader, error) {
	host, err := plugins.Open(s.Plugins, opts.Plugins)
	if err != nil {
		return nil, err
	}
	eopts := engineOptions(opts, host.Comparator)
	eng, err := engine.New(suite.ViewOf(s), eopts)
	if err != nil {
		host.Close()
		return nil, err
	}
	return &Grader{suite: s, view: suite.ViewOf(s), engine: eng, host: host, given: opts, opts: eopts}, nil
}

func engineOptions(opts Options, plugin func(string, value.Value) (rules.Comparator, error)) engine.Options {
	ext := dsl.NewCompiler(opts.Expr).Extensions()
	ext.Plugin = plugin
	return engine.Options{Format: opts.Format, ForceFormat: opts.ForceFormat, Limits: opts.Limits, Extensions: ext}
}

// withCompileProblems adds to a suite's load problems those of compiling
// what did load, so that a user sees every problem in one pass. Plugins
// are not started for a suite that does not load: their rules are taken
// as written.
func withCompileProblems(partial *suite.Suite, err error, opts Options) error {
	var se *suite.Error
	if partial == nil || !errors.As(err, &se) {
		return err
	}
	unstarted := func(string, value.Value) (rules.Comparator, error) { return unstartedPlugin{}, nil }
	if _, cerr := engine.New(suite.ViewOf(partial), engineOptions(opts, unstarted)); cerr != nil {
		var ce *suite.Error
		if errors.As(cerr, &ce) {
			return &suite.Error{Problems: append(slices.Clone(se.Problems), ce.Problems...)}
		}
	}
	return err
}

// unstartedPlugin stands for a plugin comparator while a suite that did
// not load is only being checked; it is never asked to compare.
type unstartedPlugin struct{}

func (unstartedPlugin) Compare(*rules.Input) rules.Outcome { return rules.Outcome{} }

// Suite returns the suite as read.
func (g *Grader) Suite() *Suite { return g.view }

// Warnings lists what compiles but cannot be meant, as callgrade check
// prints it (see engine.Engine.Warnings).
func (g *Grader) Warnings() []Problem { return g.engine.Warnings() }

// Score scores one response against the case with the given id, under
// ctx: once ctx is done, a comparison that waits (a plugin's) stops
// waiting and fails, and the result is then not the response's verdict,
// to be dropped. resp is the JSON document a line of a responses file
// holds under "response": a response in any supported format (a JSON
// string for the formats of a model's raw text). It is parsed within the
// bounds of a responses line (Options.Limits); a document that is not
// JSON is an error here, where a responses file fails its case.
func (g *Grader) Score(ctx context.Context, id string, resp []byte) (*Result, error) {
	if g.merger {
		return nil, errMerger
	}
	i, ok := g.engine.Lookup(id)
	if !ok {
		return nil, fmt.Errorf("no case with id %q", id)
	}
	v, err := (*value.Parser)(nil).Parse(string(resp), g.documentLimits(len(resp)))
	if err != nil {
		return nil, fmt.Errorf("response: %w", err)
	}
	// A Scorer of its own: the result outlives the call.
	sc := g.engine.NewScorer(ctx)
	return sc.Score(i, v), nil
}

// documentLimits are the bounds of a response document of n bytes, as a
// run parses a responses line: the envelope's depth on top of the
// arguments' (Options.Limits), and the line's count of values.
func (g *Grader) documentLimits(n int) value.Limits {
	depth := g.given.Limits.MaxDepth
	if depth <= 0 {
		depth = jsontext.DefaultMaxDepth
	}
	maxValues := g.given.Limits.MaxValues
	if maxValues <= 0 {
		maxValues = DefaultMaxValues
	}
	return value.Limits{MaxBytes: n + 1, MaxDepth: depth + response.EnvelopeDepth, MaxValues: maxValues}
}

// RunOptions configure Grader.Run, RunPartial and Merge (see
// engine.RunOptions). The zero value reads the suite's samples with every
// default: Samples 0 means the suite's `samples:`, as callgrade score
// without --samples, and a negative Samples one line per case, whatever
// the suite says; MaxLineBytes 0 means DefaultMaxLineBytes. OnResponse is
// handed the calls a model made, for a report made from the same pass
// (report.Responses.Add), which a stream on standard input cannot give
// twice.
type RunOptions = engine.RunOptions

// Run scores a JSON Lines responses stream and writes the results file to
// w, as `callgrade score` does (see engine.Engine.Run), and returns its
// totals. A line of the stream that cannot be read stops the run with an
// error naming it (a *results.InputError).
func (g *Grader) Run(ctx context.Context, r io.Reader, w io.Writer, opts RunOptions) (*Summary, error) {
	if g.merger {
		return nil, errMerger
	}
	return g.engine.Run(ctx, r, w, opts)
}

// Options returns the options the Grader was made with.
func (g *Grader) Options() Options { return g.given }

// Close stops the suite's plugin processes.
func (g *Grader) Close() error { return g.host.Close() }

// ScoreCase scores one response, a document already parsed (in any
// supported format), against a case that comes with it rather than from
// the suite: a service's inline case (callgrade serve's /v1/score with
// "case"). c is a case object as a suite's cases: holds it; it may `use`
// the suite's rulesets and name the suite's plugins, and inherits its
// tools and defaults. It may not name a tools_file, which would have the
// Grader read a file its sender names. A case that does not compile is a
// *SuiteError, its file "inline case". The scoring stops once ctx is
// done, as NewScorer's does.
func (g *Grader) ScoreCase(ctx context.Context, c, resp value.Value) (*Result, error) {
	if c.Kind() != value.Object {
		return nil, errors.New(`"case" must be a case object, as in a suite's cases`)
	}
	if c.Has("tools_file") {
		return nil, errors.New("an inline case cannot name a tools_file; give its tools inline")
	}
	// Only the names of the rulesets are needed, for `use` to be checked;
	// the engine compiles them from the suite.
	sets := make([]value.Member, 0, len(g.suite.Rulesets))
	for name := range g.suite.Rulesets {
		empty, _ := value.ObjectOf()
		sets = append(sets, value.Member{Key: name, Value: empty})
	}
	rulesets, err := value.ObjectOf(sets...)
	if err != nil {
		return nil, err
	}
	doc, err := value.ObjectOf(
		value.Member{Key: "version", Value: value.Int(1)},
		value.Member{Key: "rulesets", Value: rulesets},
		value.Member{Key: "cases", Value: value.ArrayOf(c)},
	)
	if err != nil {
		return nil, err
	}
	one, err := suite.FromValue("inline case", doc)
	if err != nil {
		return nil, err
	}
	s := *g.suite
	s.Cases = one.Cases
	eng, err := engine.New(suite.ViewOf(&s), g.opts)
	if err != nil {
		return nil, err
	}
	if g.merger {
		return nil, errMerger
	}
	return eng.NewScorer(ctx).Score(0, resp), nil
}

// Scorer scores the lines of a responses stream one at a time against a
// Grader's suite, reusing its memory from one line to the next, for a
// service that answers each line as it comes (Run scores a whole stream).
// The Result it returns, and the values it holds (its diffs' messages
// too), are valid until its next call. A Scorer must not be used by two
// goroutines at once: make one for each.
type Scorer struct {
	g  *Grader
	sc *engine.Scorer
}

// NewScorer returns a Scorer for g's suite that scores under ctx: once ctx
// is done, a comparison that waits (a plugin's) stops waiting and fails,
// and what the Scorer returns is then not a response's verdict, to be
// dropped. A nil ctx is none.
func (g *Grader) NewScorer(ctx context.Context) *Scorer {
	sc := g.engine.NewScorer(ctx)
	return &Scorer{g: g, sc: sc}
}

// ScoreLine scores one line of a responses stream (spec section 2) exactly
// as Run reads it, with the suite's samples per case (samples:), and
// returns the result, the index of the case the line names (-1 when its
// id names none: the result is then the unknown_case one) and its sample
// (0 without samples). line is the line's number, for messages. A line
// that cannot be scored (not a JSON object with an id; without a sample
// that fits the suite's) is a *results.InputError naming the line, its
// File left for the caller to set. Which lines are blank, and what a
// second line for the same case means, is the caller's to decide.
func (s *Scorer) ScoreLine(text string, line int) (*Result, int, int, error) {
	if s.g.merger {
		return nil, -1, 0, errMerger
	}
	return s.sc.ScoreLine(text, line, s.g.suite.Samples)
}
