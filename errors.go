package callgrade

import "github.com/callgrade/callgrade/internal/errcode"

// Code is the stable name of a kind of error, for a program to branch on
// instead of an error's message, which may be reworded: snake_case, like a
// result's diff kinds. Test for one with errors.Is:
//
//	if errors.Is(err, callgrade.CodeUnknownKey) { … }
//
// errors.Is finds a code anywhere in err's tree: in a *suite.Error it is
// true when any of the problems has the code (each suite.Problem carries
// its Code), and an error wrapped with %w keeps its codes. One error may
// have several codes, a general one and a finer one: an unknown rule
// property is both rule_compile_error and unknown_key. A Code is an error
// only so that errors.Is can take it; nothing returns one. docs/library.md
// lists the codes with the messages that carry them.
type Code = errcode.Code

// The codes of a suite file's problems.
const (
	CodeNoSuiteFile     = errcode.NoSuiteFile     // no suite file given
	CodeUnknownFormat   = errcode.UnknownFormat   // a suite or tools file's extension is none callgrade reads
	CodeReadFailed      = errcode.ReadFailed      // a suite or tools file cannot be read
	CodeSyntaxError     = errcode.SyntaxError     // a file is not valid JSON, YAML or TOML, or uses YAML callgrade does not read
	CodeDuplicateKey    = errcode.DuplicateKey    // a key written twice in one mapping or object
	CodeUnknownKey      = errcode.UnknownKey      // a key (or rule property) callgrade does not know
	CodeMissingKey      = errcode.MissingKey      // a required key is missing
	CodeWrongType       = errcode.WrongType       // a value of the wrong kind: a string for a list, …
	CodeInvalidValue    = errcode.InvalidValue    // a value of the right kind that is not allowed
	CodeConflictingKeys = errcode.ConflictingKeys // two keys that exclude each other are both set
	CodeDuplicateCase   = errcode.DuplicateCase   // two cases have one id
	CodeDuplicateTool   = errcode.DuplicateTool   // two tools have one name
	CodeUnknownRuleset  = errcode.UnknownRuleset  // use names a ruleset that no file defines
	CodeLimitExceeded   = errcode.LimitExceeded   // input past a bound: too deep, too large, too long
)

// The codes of compiling rules, paths and expressions.
const (
	CodeRuleCompileError       = errcode.RuleCompileError       // a rule does not compile (a *rules.CompileError)
	CodeInvalidPath            = errcode.InvalidPath            // a PATH does not parse
	CodeExpressionCompileError = errcode.ExpressionCompileError // an expression does not compile (a *dsl.Error)
	CodeExpressionRuntimeError = errcode.ExpressionRuntimeError // an expression fails as it runs (a *dsl.RuntimeError)
)

// The codes of plugins.
const (
	CodePluginUnavailable      = errcode.PluginUnavailable      // a plugin cannot be found, started or reached
	CodePluginChecksumMismatch = errcode.PluginChecksumMismatch // a plugin's sha256 is not the one the suite gives
	CodePluginProtocolError    = errcode.PluginProtocolError    // a plugin started but describes itself badly
	CodePluginCrashed          = errcode.PluginCrashed          // a plugin crashed more often than it may be restarted
	CodeUnknownComparator      = errcode.UnknownComparator      // a plugin rule names a plugin or comparator that is not there
)
