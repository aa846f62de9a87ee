// Package rules is the comparator contract: what a comparator sees, what it
// answers, and how one is supplied to the engine.
//
// An `expr` expression, a `plugin` comparator and a team's own Go
// comparator are one kind of thing to the engine: a Comparator, given an
// Input for one path of one call (after the normalisers and case folding in
// force) and answering an Outcome, where a built-in property (exact,
// numeric, tolerance, regex, ...) would decide. The expression language
// (package dsl) and the plugin host (package plugins) supply theirs through
// Extensions, as a Go comparator is supplied through an engine's
// Extensions, so the engine imports neither.
//
// A comparator that reads Input.Steps, the run's earlier steps, says so
// with a method UsesSteps() bool that returns true, so that the engine
// builds a view of the run for the cases that need one and for no other.
//
// A rule that does not compile is a *CompileError, with the error code
// rule_compile_error. The diff kinds a comparator may report
// (Outcome.ErrKind) are package results' kinds.
//
// The RULE and PATH syntax itself, and the comparison of argument trees
// under it, are documented in docs/rules.md.
package rules
