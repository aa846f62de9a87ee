// Package errcode holds the codes of callgrade's errors, in the one package
// every package that makes errors can import; the root package re-exports
// them as callgrade.Code and its constants, which is where they are
// documented for a caller.
package errcode

import "errors"

// Code is the stable name of a kind of error. It is an error itself only so
// that errors.Is(err, code) can test for it: every error type that carries a
// code matches it in its Is method. A code is never returned on its own.
type Code string

// Error returns the code.
func (c Code) Error() string { return string(c) }

// The codes. docs/library.md describes each; the root package's tests check
// that each one is produced by a real failing input.
const (
	NoSuiteFile     Code = "no_suite_file"
	UnknownFormat   Code = "unknown_format"
	ReadFailed      Code = "read_failed"
	SyntaxError     Code = "syntax_error"
	DuplicateKey    Code = "duplicate_key"
	UnknownKey      Code = "unknown_key"
	MissingKey      Code = "missing_key"
	WrongType       Code = "wrong_type"
	InvalidValue    Code = "invalid_value"
	ConflictingKeys Code = "conflicting_keys"
	DuplicateCase   Code = "duplicate_case"
	DuplicateTool   Code = "duplicate_tool"
	UnknownRuleset  Code = "unknown_ruleset"
	LimitExceeded   Code = "limit_exceeded"

	RuleCompileError       Code = "rule_compile_error"
	InvalidPath            Code = "invalid_path"
	ExpressionCompileError Code = "expression_compile_error"
	ExpressionRuntimeError Code = "expression_runtime_error"

	PluginUnavailable      Code = "plugin_unavailable"
	PluginChecksumMismatch Code = "plugin_checksum_mismatch"
	PluginProtocolError    Code = "plugin_protocol_error"
	PluginCrashed          Code = "plugin_crashed"
	UnknownComparator      Code = "unknown_comparator"
)

// All lists every code, in the order of the documentation.
var All = []Code{
	NoSuiteFile, UnknownFormat, ReadFailed, SyntaxError, DuplicateKey, UnknownKey, MissingKey,
	WrongType, InvalidValue, ConflictingKeys, DuplicateCase, DuplicateTool, UnknownRuleset, LimitExceeded,
	RuleCompileError, InvalidPath, ExpressionCompileError, ExpressionRuntimeError,
	PluginUnavailable, PluginChecksumMismatch, PluginProtocolError, PluginCrashed, UnknownComparator,
}

// Of returns the code of err for a suite problem made from it, or "": the
// first code of All that errors.Is finds in err's tree, rule_compile_error
// last, so that a rule's error is given the finer code of the error under
// it (an expression's, a plugin's, an unknown property's) when there is
// one. It is for building an error from another, never for the happy path.
func Of(err error) Code {
	if err == nil {
		return ""
	}
	for _, c := range All {
		if c != RuleCompileError && errors.Is(err, c) {
			return c
		}
	}
	if errors.Is(err, RuleCompileError) {
		return RuleCompileError
	}
	return ""
}

// Wrap gives err the code c for errors.Is, its message unchanged; nil stays
// nil.
func Wrap(c Code, err error) error {
	if err == nil {
		return nil
	}
	return &coded{c, err}
}

type coded struct {
	code Code
	err  error
}

func (e *coded) Error() string        { return e.err.Error() }
func (e *coded) Unwrap() error        { return e.err }
func (e *coded) Is(target error) bool { return target == e.code }
