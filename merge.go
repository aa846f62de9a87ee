package callgrade

import (
	"context"
	"errors"
	"io"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// RunPartial scores a part of a responses file (see
// engine.Engine.RunPartial): one partial line per line read, in order,
// which Merge puts back together with the other parts. opts are read as
// Run reads them.
func (g *Grader) RunPartial(ctx context.Context, r io.Reader, w io.Writer, opts RunOptions) error {
	if g.merger {
		return errMerger
	}
	return g.engine.RunPartial(ctx, r, w, opts)
}

// Merge writes the results file of the partial runs whose output shards
// hold, in the order of the responses they scored (see
// engine.Engine.Merge): byte for byte what Run writes over all their
// responses at once. opts are read as Run reads them.
func (g *Grader) Merge(ctx context.Context, shards []Shard, w io.Writer, opts RunOptions) (*Summary, error) {
	return g.engine.Merge(ctx, shards, w, opts)
}

var errMerger = errors.New("callgrade: a Grader of OpenMerger only merges: it has no plugins to score with")

// OpenMerger reads and compiles the suite files as Open does, without
// starting the plugins the suite declares: a Grader that merges the output
// of partial runs (Grader.Merge), and reports on the suite, but does not
// score (Run, RunPartial and Score with it fail when the suite has
// plugin rules, which would need the plugins running).
func OpenMerger(files []string, opts Options) (*Grader, error) {
	s, err := suite.Load(files...)
	if err != nil {
		return nil, withCompileProblems(s, err, opts)
	}
	host, err := plugins.Open(nil, opts.Plugins)
	if err != nil {
		return nil, err
	}
	unstarted := func(string, value.Value) (rules.Comparator, error) { return unstartedPlugin{}, nil }
	eopts := engineOptions(opts, unstarted)
	eng, err := engine.New(suite.ViewOf(s), eopts)
	if err != nil {
		return nil, err
	}
	return &Grader{suite: s, view: suite.ViewOf(s), engine: eng, host: host, given: opts, opts: eopts, merger: len(s.Plugins) > 0}, nil
}
