package main

import (
	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/response"
	"github.com/callgrade/callgrade/suite"
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
		return nil, err
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

// Close stops the suite's plugin processes.
func (c *compiled) Close() error { return c.host.Close() }
