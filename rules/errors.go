package rules

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/errcode"
)

// CompileError is a rule that cannot be compiled: an unknown property, a
// value of the wrong type, an unknown normaliser, a contradictory
// combination, a bad regular expression or expression, or a property whose
// extension is not enabled. Its code is rule_compile_error (callgrade.Code);
// a finer one (unknown_key for an unknown property) is its cause's, found
// by errors.Is through Unwrap.
type CompileError struct {
	Property string // the property at fault; "" for the rule as a whole
	Offset   int    // byte offset inside the property's text when known (regex, expr), else -1
	Msg      string
	Err      error // the underlying error, if any
}

// Error returns "property: message at offset N: underlying error".
func (e *CompileError) Error() string {
	var b strings.Builder
	if e.Property != "" {
		b.WriteString(e.Property)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Offset >= 0 {
		b.WriteString(" at offset ")
		b.WriteString(strconv.Itoa(e.Offset))
	}
	if e.Err != nil {
		if e.Msg != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *CompileError) Unwrap() error { return e.Err }

// Is reports whether target is rule_compile_error, for errors.Is; the
// underlying error's codes (unknown_key, an expression's, a plugin's) are
// found through Unwrap.
func (e *CompileError) Is(target error) bool { return target == errcode.RuleCompileError }
