package dsl

import "github.com/callgrade/callgrade/rules"

// Extensions returns the comparators of the expression language, for
// rules.Extensions: `expr` rule properties and call-level `assert`
// expressions, compiled with c. Plugin is left nil for the caller to set.
func (c *Compiler) Extensions() rules.Extensions {
	return rules.Extensions{Expr: c.comparator, Assert: c.assert}
}
