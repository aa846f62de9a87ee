package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// reader reads a whole response of one family of formats, once detection
// or the forced format has found where its calls are (the plan). There
// is one a family: single responses (single), conversations
// (conversation, run_conv.go), recorded streams (*streamer, stream.go), a
// model's text (textFamily, text.go) and traces (traceFamily, otlp.go).
// What they share is the plan and the reading of a list's elements by
// their format's emits and read (response.go), and oneTurn. The plan
// comes by value: a pointer passed through the interface would make
// every response's plan escape to the heap.
type reader interface {
	// calls returns the calls of p in order, into dst when it has room
	// (see Options.Calls); want is the format asked for, which a
	// conversation that is no list of messages names in its
	// *ShapeError.
	calls(p plan, x extraction, want format.Format, dst []Call) ([]Call, error)
	// run returns r, whose calls p found, as a run.
	run(p plan, r value.Value, x extraction, want format.Format) (Run, error)
}

// single is the reader of a single response (a chat completion, a
// message, a list of calls): its calls are its list's elements, and it
// is a run of one turn.
type single struct{}

func (single) calls(p plan, x extraction, _ format.Format, dst []Call) ([]Call, error) {
	return p.listCalls(x, dst), nil
}

func (single) run(p plan, r value.Value, x extraction, want format.Format) (Run, error) {
	run := oneTurn(&p, r, x, want, p.listCalls(x, nil), turnIDs|turnAnswer)
	singleBFCL(&p, r, &run)
	return run, nil
}

// singleBFCL sets what ReadAs(FinalBFCL) reads of run, a single response
// whose calls p found: one message to BFCL, which is the run's answer
// when BFCL cannot decode one of its calls (the repr of its first call),
// and which has none when it is of calls BFCL decodes or holds an empty
// tool_calls list. A message of text alone is read as oneTurn read it,
// but for a response that is a string, which BFCL reads whole, thinking
// and all.
func singleBFCL(p *plan, r value.Value, run *Run) {
	switch {
	case r.Kind() == value.String:
		run.end = finalEnd{bfcl: true, text: r.Str()}
	case p.bad != "":
	case len(run.Steps) == 0:
		if p.emptyList {
			run.end = finalEnd{bfcl: true}
		}
	default:
		run.end = finalEnd{bfcl: true}
		// One pass over the entries beside the steps: finding each
		// entry anew cost a pass for each call, quadratic in a message
		// of many.
		var first value.Value
		k := 0
		for e := range p.entries {
			if k == 0 {
				first = e
			}
			if k >= len(run.Steps) {
				break
			}
			if err := run.Steps[k].Err; err != nil && !bfclDecodes(err, e) {
				run.end = finalEnd{bfcl: true, broken: true, name: run.Steps[0].Name, call: first}
				break
			}
			k++
		}
	}
}

// entries yields the elements of the response that p reads as calls, one
// for each call, in the order fill reads them.
func (p *plan) entries(yield func(value.Value) bool) {
	for _, e := range p.list {
		if e.Kind() == value.Object && !p.f.emits(e) {
			continue
		}
		if !yield(e) {
			return
		}
	}
	if p.hasOne && !yield(p.one) {
		return
	}
	for _, e := range p.rest {
		if !yield(e) {
			return
		}
	}
}

// reader is the reader of p's format; a response that detection found
// no format for (null, a text answer) reads as a single response with no
// calls.
func (p *plan) reader() reader {
	if p.f == nil {
		return single{}
	}
	return p.f.reader
}

// turnReading is what oneTurn reads of a response besides its calls.
type turnReading uint8

const (
	turnIDs    turnReading = 1 << iota // the calls' ids, from p's list
	turnAnswer                         // the text answer of a response without calls
	turnText                           // the answer is a model's text (textAnswer)
)

// oneTurn makes calls, read from r, whose calls p found, a run of one
// turn: the calls as steps and, when there are none, the response's text
// answer as Final, as how says.
func oneTurn(p *plan, r value.Value, x extraction, want format.Format, calls []Call, how turnReading) Run {
	hintFitting(calls, r, want, x)
	var run Run
	if len(calls) > 0 {
		run.Steps = make([]Step, len(calls))
		for i := range calls {
			run.Steps[i] = Step{Call: calls[i]}
		}
		if how&turnIDs != 0 {
			p.ids(run.Steps)
		}
	} else if how&turnAnswer != 0 {
		run.Final, run.end.first, run.end.split = answerText(r, 0)
		if r.Kind() == value.String || how&turnText != 0 {
			// What the model kept out of its answer (its thinking,
			// harmony's analysis) is not the answer.
			run.Final, run.end.split = textAnswer(p.f, run.Final), false
		}
		run.HasFinal = run.Final != ""
	}
	return run
}
