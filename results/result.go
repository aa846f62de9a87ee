// Package results holds the two file contracts. The results file (spec
// section 3): the verdict on one case (Result, its pairs and its diffs),
// the kinds of diff, a run's Summary with its by-tool and by-kind
// tallies, the pass@k and pass^k estimators of runs with samples, and the
// strict reader of a results file (Read). The responses stream (spec
// section 2): what a line says before its response is scored
// (ReadResponseLine: its id, its sample, broken lines), the error of a
// stream that cannot be read (InputError) and the one message for a
// second response. The engine writes results and reads responses with
// it; reports, the server and embedders read both with it, without the
// engine.
//
// It is a leaf under the engine and package rules: it depends on package
// value (and gjson, to find the id of a line that is not valid JSON).
package results

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/runlines"
	"github.com/callgrade/callgrade/value"
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
	// alternatives, which HasAlternatives says.
	Alternative     int
	HasAlternatives bool
	// Tool is the name of the case's first expected call (its first
	// step's, for a case written with steps), "" when it expects none;
	// summaries group by it. StepTools are the tools of a case written
	// with steps, one per step in order: a summary counts such a case
	// under each of them (StepVerdicts). The line carries neither.
	Tool      string
	StepTools []string
	// Sample says which of the case's response lines this is, from 0, in
	// a run with several samples per case; Sampled says that the run has
	// samples. Lines of runs without samples carry neither.
	Sample  int
	Sampled bool
}

// CallResult pairs one expected call with one actual call. Expected or
// Actual is -1 when that side has no call (a missing or an unexpected call).
type CallResult struct {
	Expected int
	Actual   int
	Pass     bool
	Score    float64
}

// Diff is one thing wrong with a case: what the comparison of arguments
// (internal/rulecore) or a comparator reports for an argument, or one of
// the kinds only the engine finds, and the pair it is about.
type Diff struct {
	Kind        Kind
	Path        string // gjson-style path, "" for the arguments object itself
	Expected    value.Value
	Actual      value.Value
	HasExpected bool // false: the expected side is absent
	HasActual   bool // false: the actual side is absent
	Rule        string
	Message     string
	// Call is the index into Result.Calls of the pair the diff is about, or
	// -1 when it concerns the case as a whole.
	Call int
	// Step and Turn, when HasStep, are the index of the actual step of a
	// run that the diff belongs to and the turn of that step; only the
	// diffs of run cases (docs/trajectories.md) have them.
	Step, Turn int
	HasStep    bool
}

// AppendJSON appends r as one line of the results file (without the
// newline). It is written by hand because the results file is the hot
// output path: a million lines should not go through reflection.
func (r *Result) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"id":`...)
	dst = jsontext.AppendQuote(dst, r.ID)
	if r.Sampled {
		dst = append(dst, `,"sample":`...)
		dst = strconv.AppendInt(dst, int64(r.Sample), 10)
	}
	dst = append(dst, `,"pass":`...)
	dst = strconv.AppendBool(dst, r.Pass)
	dst = append(dst, `,"score":`...)
	dst = appendScore(dst, r.Score)
	if r.HasAlternatives {
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
		dst = r.Diffs[i].appendJSON(dst)
	}
	return append(dst, "]}"...)
}

// appendJSON appends d as a JSON object. Absent sides are left out, so that
// a missing argument is told apart from one that is null.
func (d *Diff) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"kind":`...)
	dst = jsontext.AppendQuote(dst, string(d.Kind))
	dst = append(dst, `,"call":`...)
	dst = appendIndex(dst, d.Call)
	if d.HasStep {
		dst = append(dst, `,"step":`...)
		dst = strconv.AppendInt(dst, int64(d.Step), 10)
		dst = append(dst, `,"turn":`...)
		dst = strconv.AppendInt(dst, int64(d.Turn), 10)
	}
	dst = append(dst, `,"path":`...)
	dst = jsontext.AppendQuote(dst, d.Path)
	if d.HasExpected {
		dst = append(dst, `,"expected":`...)
		dst = d.Expected.AppendJSON(dst)
	}
	if d.HasActual {
		dst = append(dst, `,"actual":`...)
		dst = d.Actual.AppendJSON(dst)
	}
	dst = append(dst, `,"rule":`...)
	dst = jsontext.AppendQuote(dst, d.Rule)
	dst = append(dst, `,"message":`...)
	dst = jsontext.AppendQuote(dst, d.Message)
	return append(dst, '}')
}

// MarshalJSON makes a Result usable with encoding/json.
func (r *Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// UnmarshalJSON reads one line of the results file, as AppendJSON writes
// it, into r. It reads strictly: the line must be an object with the
// members AppendJSON always writes, each of the JSON type spec section 3
// gives it, so that a file of something else (a responses file) is an
// error rather than a run in which every case failed. Members it does not
// know are ignored, so that a line with members a later version adds still
// reads. A null line is an error, not the no-op encoding/json's convention
// asks for: no results line is null. Tool and StepTools are left empty:
// the line does not carry them. On an error r is left as it was.
func (r *Result) UnmarshalJSON(b []byte) error {
	doc, err := (*value.Parser)(nil).Parse(string(b), value.Limits{MaxBytes: len(b) + 1, MaxDepth: runlines.MaxResultDepth})
	if err != nil {
		return err
	}
	if doc.Kind() != value.Object {
		return fmt.Errorf("%s, not an object", article(doc.Kind()))
	}
	var lr lineReader
	out := Result{
		ID:    lr.member(doc, "id", value.String).Str(),
		Pass:  lr.member(doc, "pass", value.Bool).Bool(),
		Score: lr.score(doc, "score"),
	}
	calls := lr.member(doc, "calls", value.Array).Elems()
	diffs := lr.member(doc, "diffs", value.Array).Elems()
	if lr.missing && doc.Has("response") {
		return fmt.Errorf("%w (is this a responses file?)", lr.err)
	}
	if lr.missing && doc.Has("partial") && doc.Has("result") {
		return fmt.Errorf("%w: a partial result line of score --partial; merge the parts into a results file first (callgrade merge)", lr.err)
	}
	if doc.Has("sample") {
		out.Sample, out.Sampled = lr.index(lr.member(doc, "sample", value.Number), "sample"), true
	}
	if doc.Has("alternative") {
		out.Alternative, out.HasAlternatives = lr.index(lr.member(doc, "alternative", value.Number), "alternative"), true
	}
	out.Calls = make([]CallResult, len(calls))
	for i, c := range calls {
		lr.object(c, "calls")
		out.Calls[i] = CallResult{
			Expected: lr.indexOrNull(c, "calls.expected"),
			Actual:   lr.indexOrNull(c, "calls.actual"),
			Pass:     lr.member(c, "calls.pass", value.Bool).Bool(),
			Score:    lr.score(c, "calls.score"),
		}
	}
	out.Diffs = make([]Diff, len(diffs))
	for i, d := range diffs {
		lr.object(d, "diffs")
		x := &out.Diffs[i]
		x.Kind = Kind(lr.member(d, "diffs.kind", value.String).Str())
		x.Call = lr.indexOrNull(d, "diffs.call")
		if d.Has("step") {
			x.Step, x.HasStep = lr.index(lr.member(d, "diffs.step", value.Number), "diffs.step"), true
			x.Turn = lr.index(lr.member(d, "diffs.turn", value.Number), "diffs.turn")
		}
		x.Path = lr.member(d, "diffs.path", value.String).Str()
		x.Expected, x.HasExpected = d.Get("expected")
		x.Actual, x.HasActual = d.Get("actual")
		x.Rule = lr.member(d, "diffs.rule", value.String).Str()
		x.Message = lr.member(d, "diffs.message", value.String).Str()
	}
	if lr.err != nil {
		return lr.err
	}
	*r = out
	return nil
}

// lineReader reads the members of a results line one after another and
// keeps the first thing wrong, which is the error.
type lineReader struct {
	err     error
	missing bool // err is a member that is absent
}

// member returns the member of obj at the end of path ("id",
// "diffs.kind"), which must be of kind want.
func (lr *lineReader) member(obj value.Value, path string, want value.Kind) value.Value {
	if lr.err != nil {
		return value.Value{}
	}
	v, ok := obj.Get(memberName(path))
	switch {
	case !ok:
		lr.err, lr.missing = fmt.Errorf("no %q", path), true
	case v.Kind() != want:
		lr.err = fmt.Errorf("%q is %s, not %s", path, article(v.Kind()), article(want))
	}
	return v
}

// object checks that an element of the list named list is an object.
func (lr *lineReader) object(v value.Value, list string) {
	if lr.err == nil && v.Kind() != value.Object {
		lr.err = fmt.Errorf("%q is %s, not an object", list, article(v.Kind()))
	}
}

// score reads a number member as the float64 AppendJSON wrote.
func (lr *lineReader) score(obj value.Value, path string) float64 {
	v := lr.member(obj, path, value.Number)
	if lr.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(v.Str(), 64)
	if err != nil {
		lr.err = fmt.Errorf("%q is out of range: %s", path, v.Str())
	}
	return f
}

// indexOrNull reads a member that is an index, or null for none (-1).
func (lr *lineReader) indexOrNull(obj value.Value, path string) int {
	if v, ok := obj.Get(memberName(path)); ok && v.IsNull() {
		return -1
	}
	return lr.index(lr.member(obj, path, value.Number), path)
}

// index reads number v as an index: an integer from 0, spelt as
// AppendJSON spells one.
func (lr *lineReader) index(v value.Value, path string) int {
	if lr.err != nil {
		return 0
	}
	i, err := strconv.Atoi(v.Str())
	if err != nil || i < 0 {
		lr.err = fmt.Errorf("%q is out of range: %s", path, v.Str())
	}
	return i
}

// memberName is the last name of a path: "kind" of "diffs.kind".
func memberName(path string) string { return path[strings.LastIndexByte(path, '.')+1:] }

// jsonNames name the kinds of value as the results file's errors do.
var jsonNames = [...]string{value.Null: "null", value.Bool: "bool", value.Number: "number",
	value.String: "string", value.Array: "list", value.Object: "object"}

func article(k value.Kind) string {
	switch k {
	case value.Null:
		return "null"
	case value.Object:
		return "an object"
	}
	return "a " + jsonNames[k]
}

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
