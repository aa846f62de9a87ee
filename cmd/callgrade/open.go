package main

import (
	"errors"
	"slices"

	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/response"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/suite"
	"github.com/callgrade/callgrade/value"
)

// compiled is a suite ready to score: the engine and the plugin processes
// its rules call. Close stops the plugins.
type compiled struct {
	suite  *suite.Suite
	engine *engine.Engine
	opts   engine.Options // what engine was compiled with
	host   *plugins.Host
}

// open loads and compiles a (possibly layered) suite the way score and
// check both need it: the expression language for `expr` and `assert`, and
// the suite's plugins started for `plugin` rules. It is the whole recipe an
// embedding program follows too (docs/library.md).
func open(files []string, format response.Format) (*compiled, error) {
	s, err := suite.Load(files...)
	if err != nil {
		return nil, withRuleProblems(s, err, format)
	}
	host, err := plugins.Open(s.Plugins, plugins.Options{})
	if err != nil {
		return nil, err
	}
	opts := engine.Options{Format: format}
	dsl.NewCompiler(dsl.Options{}).Install(&opts)
	opts.Extensions.Plugin = host.Comparator
	eng, err := engine.New(s, opts)
	if err != nil {
		host.Close()
		return nil, err
	}
	return &compiled{suite: s, engine: eng, opts: opts, host: host}, nil
}

// withRuleProblems adds to a suite's load problems those of compiling what
// did load (rules, paths, regexes, expressions, schemas), so that a user
// sees every problem in one pass. Plugins are not started for a suite that
// does not load: their rules are taken as written.
func withRuleProblems(partial *suite.Suite, err error, format response.Format) error {
	var se *suite.Error
	if partial == nil || !errors.As(err, &se) {
		return err
	}
	opts := engine.Options{Format: format}
	dsl.NewCompiler(dsl.Options{}).Install(&opts)
	opts.Extensions.Plugin = func(string, value.Value) (rules.Comparator, error) { return unstarted{}, nil }
	if _, cerr := engine.New(partial, opts); cerr != nil {
		var ce *suite.Error
		if errors.As(cerr, &ce) {
			return &suite.Error{Problems: append(slices.Clone(se.Problems), ce.Problems...)}
		}
	}
	return err
}

// unstarted stands for a plugin comparator while a suite that did not load
// is only being checked; it is never asked to compare.
type unstarted struct{}

func (unstarted) Compare(*rules.Input) rules.Outcome { return rules.Outcome{} }

// Close stops the suite's plugin processes.
func (c *compiled) Close() error { return c.host.Close() }
