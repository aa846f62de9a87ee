package engine

import (
	"strconv"

	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// Kind is the kind of a Diff, as the results file spells it.
type Kind = rules.Kind

// The diff kinds of the results file (spec section 3). The argument-level
// kinds come from package rules, which finds them.
const (
	WrongTool          Kind = "wrong_tool"
	MissingArgument         = rules.MissingArgument
	Mismatch                = rules.Mismatch
	UnexpectedArgument      = rules.UnexpectedArgument
	InvalidArguments   Kind = "invalid_arguments"
	MissingCall        Kind = "missing_call"
	UnexpectedCall     Kind = "unexpected_call"
	Schema             Kind = "schema"
	AssertFailed       Kind = "assert_failed"
	MissingResponse    Kind = "missing_response"
	UnknownCase        Kind = "unknown_case"
	RuleError               = rules.RuleError
	PluginError             = rules.PluginError
)

// Result is the verdict on one case: one line of the results file.
type Result struct {
	ID    string
	Pass  bool
	Score float64
	Calls []CallResult
	Diffs []Diff
	// Alternative says which list of calls counted: 0 for `expected`, k for
	// the k-th entry of `alternatives`. Written only for cases that have
	// alternatives.
	Alternative int
	// Tool is the name of the case's first expected call, "" when it
	// expects none; summaries group by it.
	Tool string

	hasAlternatives bool
}

// CallResult pairs one expected call with one actual call. Expected or
// Actual is -1 when that side has no call (a missing or an unexpected call).
type CallResult struct {
	Expected int
	Actual   int
	Pass     bool
	Score    float64
}

// Diff is one thing wrong with a case: what package rules reports for an
// argument, or one of the kinds only the engine finds, and the pair it is
// about.
type Diff struct {
	rules.Diff
	// Call is the index into Result.Calls of the pair the diff is about, or
	// -1 when it concerns the case as a whole.
	Call int
}

// AppendJSON appends r as one line of the results file (without the
// newline). It is written by hand because the results file is the hot
// output path: a million lines should not go through reflection.
func (r *Result) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"id":`...)
	dst = value.AppendQuote(dst, r.ID)
	dst = append(dst, `,"pass":`...)
	dst = strconv.AppendBool(dst, r.Pass)
	dst = append(dst, `,"score":`...)
	dst = appendScore(dst, r.Score)
	if r.hasAlternatives {
		dst = append(dst, `,"alternative":`...)
		dst = strconv.AppendInt(dst, int64(r.Alternative), 10)
	}
	dst = append(dst, `,"calls":[`...)
	for i, c := range r.Calls {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"expected":`...)
		dst = appendIndex(dst, c.Expected)
		dst = append(dst, `,"actual":`...)
		dst = appendIndex(dst, c.Actual)
		dst = append(dst, `,"pass":`...)
		dst = strconv.AppendBool(dst, c.Pass)
		dst = append(dst, `,"score":`...)
		dst = appendScore(dst, c.Score)
		dst = append(dst, '}')
	}
	dst = append(dst, `],"diffs":[`...)
	for i := range r.Diffs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = r.Diffs[i].AppendJSON(dst)
	}
	return append(dst, "]}"...)
}

// AppendJSON appends d as a JSON object. Absent sides are left out, so that
// a missing argument is told apart from one that is null.
func (d *Diff) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"kind":`...)
	dst = value.AppendQuote(dst, string(d.Kind))
	dst = append(dst, `,"call":`...)
	dst = appendIndex(dst, d.Call)
	dst = append(dst, `,"path":`...)
	dst = value.AppendQuote(dst, d.Path)
	if d.HasExpected {
		dst = append(dst, `,"expected":`...)
		dst = d.Expected.AppendJSON(dst)
	}
	if d.HasActual {
		dst = append(dst, `,"actual":`...)
		dst = d.Actual.AppendJSON(dst)
	}
	dst = append(dst, `,"rule":`...)
	dst = value.AppendQuote(dst, d.Rule)
	dst = append(dst, `,"message":`...)
	dst = value.AppendQuote(dst, d.Message)
	return append(dst, '}')
}

// MarshalJSON makes a Result usable with encoding/json.
func (r *Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

func appendIndex(dst []byte, i int) []byte {
	if i < 0 {
		return append(dst, "null"...)
	}
	return strconv.AppendInt(dst, int64(i), 10)
}

func appendScore(dst []byte, f float64) []byte {
	switch f {
	case 0:
		return append(dst, '0')
	case 1:
		return append(dst, '1')
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}
