package response

import "github.com/callgrade/callgrade/value"

// Run is what an agent did over a whole conversation: the calls its model
// made, in the order it made them, each with the result its tool gave
// back, and the answer it ended with. A single response is a run of one
// turn whose calls have no results.
type Run struct {
	Steps []Step
	// Final is the text of the last assistant message that comes after
	// the run's last call (its answer); HasFinal says there is one.
	Final    string
	HasFinal bool
	// NotEvaluable, when not "", says why the run cannot be scored: a
	// trace recorded without the opt-in content of its calls. Such a run
	// fails its case; it never passes for want of evidence.
	NotEvaluable string
}

// Step is one call of a run, and what came of it.
type Step struct {
	Call
	// ID is the call's id as the run gives it ("" when none), by which a
	// tool's result finds its call.
	ID string
	// Turn counts the assistant messages before the one that made the
	// call, from 0.
	Turn int
	// Result is what the tool returned: its content parsed as JSON when it
	// is JSON text, else the text; meaningful only when HasResult.
	Result    value.Value
	HasResult bool
	// Error says the tool reported an error (Anthropic's is_error,
	// LangChain's status "error", a span's error status).
	Error bool
}

// Calls returns the run's calls, in order.
func (r *Run) Calls() []Call {
	if len(r.Steps) == 0 {
		return nil
	}
	out := make([]Call, len(r.Steps))
	for i := range r.Steps {
		out[i] = r.Steps[i].Call
	}
	return out
}

// ExtractRun reads r as a run. A response of any format that Extract reads
// is a run of one turn: its calls, without results.
func ExtractRun(r value.Value, f Format) (Run, Format, error) {
	return extractRun(r, f, extraction{})
}

// ExtractRun is ExtractRun with the options o.
func (o Options) ExtractRun(r value.Value, f Format) (Run, Format, error) {
	return extractRun(r, f, extraction{lim: o.Limits, p: o.Parser, params: o.Params})
}

func extractRun(r value.Value, f Format, x extraction) (Run, Format, error) {
	calls, got, err := extract(r, f, x)
	if err != nil {
		return Run{}, got, err
	}
	run := Run{Steps: make([]Step, len(calls))}
	for i := range calls {
		run.Steps[i] = Step{Call: calls[i]}
	}
	return run, got, nil
}
