package results

import "testing"

// A case errs when it could not be scored as it stands; a wrong answer
// only fails. Summaries, JUnit and the HTML page all ask IsError.
func TestIsError(t *testing.T) {
	for _, tt := range []struct {
		k    Kind
		want bool
	}{
		{MissingResponse, true}, {InvalidArguments, true}, {NotEvaluable, true},
		{RuleError, true}, {PluginError, true},
		{WrongTool, false}, {MissingArgument, false}, {Mismatch, false},
		{UnexpectedArgument, false}, {MissingCall, false}, {UnexpectedCall, false},
		{Schema, false}, {AssertFailed, false}, {UnknownCase, false},
		{ForbiddenCall, false}, {TooManyCalls, false},
	} {
		if got := IsError(tt.k); got != tt.want {
			t.Errorf("IsError(%s) = %v, want %v", tt.k, got, tt.want)
		}
	}
	var s Summary
	s.Add(&Result{ID: "trace", Diffs: []Diff{{Call: -1}}})
	s.Cases, s.Errored = 0, 0
	r := Result{ID: "trace"}
	r.Diffs = append(r.Diffs, Diff{Call: -1})
	r.Diffs[0].Kind = NotEvaluable
	s.Add(&r)
	if s.Errored != 1 || s.Failed != 2 {
		t.Errorf("a not_evaluable case: errored %d, failed %d", s.Errored, s.Failed)
	}
}
