package dsl

import "github.com/callgrade/callgrade/engine"

// Install makes the engine compile `expr` rule properties and `assert`
// expressions with c. It keeps o.Extensions.Plugin as it is.
func (c *Compiler) Install(o *engine.Options) {
	o.Extensions.Expr = c.Comparator
	o.Assert = c.Assert
}
