package callgrade

import (
	"context"
	"fmt"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// compareID names the one case of the suite Compare builds; the Result
// Compare returns has no id, since its caller named none.
const compareID = "compare"

// Compare scores one response against expected calls, for a platform that
// keeps its expected calls in its own store and has no suite file.
// expected is what a suite case's expected: holds, as JSON: one call
// {"name": …, "arguments": {…}} or a list of them, each with the rules,
// mode and options a suite gives a call (docs/suite.md). resp is a response
// in any supported format, as Grader.Score takes it.
//
// Compare builds a suite of that one case in memory, compiles it with opts
// (a format to read resp in, limits, expressions) and scores resp through
// the same engine as Open and Run, so its verdict is the one `callgrade
// score` gives that case. An expected value that does not compile is a
// *SuiteError naming it as the case's expected. For many responses against
// one set of calls, build the suite once (Load, New) and Score each.
func Compare(ctx context.Context, expected, resp []byte, opts Options) (*Result, error) {
	exp, err := value.Parse(string(expected))
	if err != nil {
		return nil, fmt.Errorf("expected: %w", err)
	}
	c, err := value.ObjectOf(value.Member{Key: "id", Value: value.StringOf(compareID)}, value.Member{Key: "expected", Value: exp})
	if err != nil {
		return nil, err
	}
	doc, err := value.ObjectOf(value.Member{Key: "version", Value: value.Int(1)}, value.Member{Key: "cases", Value: value.ArrayOf(c)})
	if err != nil {
		return nil, err
	}
	s, err := suite.FromValue("expected", doc)
	if err != nil {
		return nil, err
	}
	g, err := newGrader(s, opts)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	r, err := g.Score(ctx, compareID, resp)
	if err != nil {
		return nil, err
	}
	r.ID = ""
	return r, nil
}
