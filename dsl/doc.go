// Package dsl is callgrade's rule expression language: expr-lang
// (github.com/expr-lang/expr) expressions, type-checked against a fixed
// environment, that decide whether one field matches (the `expr` rule
// property) or whether a whole call holds (a call's `assert` list).
//
// A Compiler compiles each distinct text once and hands out an *Expr, a
// rules.Comparator shared by every rule and every goroutine; each
// evaluation takes a VM from a pool, so workers never share one.
// Extensions plugs a Compiler into the engine, as callgrade.Open does:
//
//	c := dsl.NewCompiler(dsl.Options{})
//	eng, err := engine.New(suite.ViewOf(s), engine.Options{Extensions: c.Extensions()})
//
// # Environment
//
//	actual         the field's actual value (a call's arguments, for an assert)
//	expected       the field's expected value (the expected arguments, for an assert)
//	path           the field's path, "" for an assert
//	params         the rule's params, null when none
//	args           every actual argument of the call (an object)
//	expected_args  every expected argument of the call (an object)
//	tool           the call's name
//
// JSON values appear as nil, bool, float64, string, []any and map[string]any.
// decimal(), set_eq(), contains_all(), canon(), approx() and rel_approx()
// written on one of these names or a constant member path from one
// (`decimal(actual.price)`) see the exact JSON value instead, so that
// numbers keep their decimal text.
//
// # Helpers
//
// approx, rel_approx, num, decimal, norm, strip_punct, set_eq, contains_all,
// date, same_day, same_instant, same_instant_within, levenshtein,
// similarity, get, has, canon: see docs/dsl.md for each one's exact
// semantics. expr's own builtins are available except now, timezone and
// repeat; date, get, join, replace, string and toJSON are replaced by
// bounded or clock-free versions.
//
// # Limits
//
// Options bounds the text (MaxLength), the syntax tree (MaxNodes), what one
// evaluation allocates (MemoryBudget), how many closure steps it runs
// (MaxSteps), the strings it builds (MaxStringLen) and the inputs of the
// edit distance (MaxEditLen), the work of its string and list helpers and
// of `+` in loops together (MaxWork), and, as a backstop for what these do
// not count, its time (Timeout). An expression cannot reach files, the
// network, the environment or the clock.
//
// # Errors
//
// A bad expression is an *Error with its line, column and a caret snippet;
// Extensions' Expr and Assert wrap it in a *rules.CompileError, which the engine
// reports with the file, the key path and the case. A failure while
// evaluating (a helper refusing its argument, a limit exceeded, a panic) is
// a *RuntimeError in Outcome.Err, which the engine reports as a rule_error
// diff on that field; one stopped by a limit of Options has the code
// limit_exceeded too (errors.Is).
package dsl
