package results

// Kind is the kind of a Diff, as the results file spells it.
type Kind string

// The diff kinds of the results file (spec section 3), all of them: those
// package internal/rulecore finds comparing arguments (MissingArgument, Mismatch,
// UnexpectedArgument, RuleError, PluginError) and those only the engine
// finds.
const (
	WrongTool          Kind = "wrong_tool"
	MissingArgument    Kind = "missing_argument"
	Mismatch           Kind = "mismatch"
	UnexpectedArgument Kind = "unexpected_argument"
	InvalidArguments   Kind = "invalid_arguments"
	MissingCall        Kind = "missing_call"
	UnexpectedCall     Kind = "unexpected_call"
	Schema             Kind = "schema"
	AssertFailed       Kind = "assert_failed"
	MissingResponse    Kind = "missing_response"
	UnknownCase        Kind = "unknown_case"
	RuleError          Kind = "rule_error"
	PluginError        Kind = "plugin_error"
	// NotEvaluable, callgrade's own, fails a case whose response is a
	// trace recorded without the content of its calls (docs/formats.md,
	// Traces): there is nothing to compare, and no evidence to pass on.
	NotEvaluable Kind = "not_evaluable"

	// The kinds of an agent's run (docs/trajectories.md).
	ForbiddenCall Kind = "forbidden_call" // an actual call matches a `never` entry
	TooManyCalls  Kind = "too_many_calls" // the run made more calls than max_calls
	MissingResult Kind = "missing_result" // a step's result rules, but the run has no result for it
	MissingFinal  Kind = "missing_final"  // final is given, but the run ends without a final text
)

// IsError reports whether a diff of kind k means that the case could not be
// scored as it stands (no response, unreadable arguments, a trace recorded
// without its content, a rule or a plugin that failed) rather than that
// the model answered wrongly. Summaries count such cases as errored, a
// subset of the failed ones.
func IsError(k Kind) bool {
	switch k {
	case MissingResponse, InvalidArguments, NotEvaluable, RuleError, PluginError:
		return true
	}
	return false
}
