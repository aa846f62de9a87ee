package response

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// FuzzRun feeds arbitrary JSON to Read in every format: it must not
// panic, must fail only with a *ShapeError and exactly when ReadCalls does,
// must give a step for each call ReadCalls reads (the same calls), and must
// pair each result with a call by the rules: its id, or its name or place
// in the last turn, only one result a step.
func FuzzRun(f *testing.F) {
	addRunSeeds(f)
	all := everyFormat()
	f.Add(`[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{"x":"\ud800"}}]}]`)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := value.Parse(s)
		if errors.Is(err, value.ErrInvalidUTF8) {
			if r, err := new(value.Parser).ParseKeepInvalidUTF8(s, value.Limits{}); err == nil {
				for _, want := range all {
					checkInvalidUTF8(t, r, want)
				}
			}
			return
		}
		if err != nil {
			return
		}
		for _, want := range all {
			checkRunRules(t, r, want)
		}
	})
}

// checkSkipResults reads r again with Options.SkipResults: the same run
// but for the results' content, each result still paired with its call.
func checkSkipResults(t *testing.T, r value.Value, want, got format.Format, run *Run) {
	t.Helper()
	skip, gotSkip, err := extractRun(r, want, extraction{lim: fuzzLimits, skipResults: true})
	if err != nil || gotSkip != got {
		t.Fatalf("read without results (%q): %q, %v; with them %q", want, gotSkip, err, got)
	}
	if len(skip.Steps) != len(run.Steps) || skip.Final != run.Final || skip.HasFinal != run.HasFinal {
		t.Fatalf("read without results (%q): %d steps, final %q; with them %d steps, final %q", want, len(skip.Steps), skip.Final, len(run.Steps), run.Final)
	}
	for i := range run.Steps {
		a, b := &skip.Steps[i], &run.Steps[i]
		if a.Name != b.Name || a.ID != b.ID || a.Turn != b.Turn || a.HasResult != b.HasResult || a.Error != b.Error ||
			(a.Err == nil) != (b.Err == nil) || a.Err == nil && !value.Equal(a.Args, b.Args) {
			t.Fatalf("read without results (%q), step %d: %+v; with them %+v", want, i, a, b)
		}
		if b.HasResult && !isTrace(r, want) && a.Result.Kind() != value.Null {
			t.Fatalf("read without results (%q), step %d has result %s", want, i, a.Result)
		}
	}
	if f, g := skip.ReadAs(format.FinalBFCL), run.ReadAs(format.FinalBFCL); f.Final != g.Final || len(f.Steps) != len(g.Steps) {
		t.Fatalf("read without results (%q): BFCL's reading %q of %d steps, with them %q of %d", want, f.Final, len(f.Steps), g.Final, len(g.Steps))
	}
}

// checkInvalidUTF8 reads r, which holds text that is not UTF-8, with
// Options.InvalidUTF8: Read's steps fail exactly where ReadCalls's
// calls do, and no call that is not failed holds such text in its name
// or arguments.
func checkInvalidUTF8(t *testing.T, r value.Value, want format.Format) {
	t.Helper()
	o := Options{Limits: fuzzLimits, InvalidUTF8: true}
	calls, _, err := o.ReadCalls(r, want)
	run, _, rerr := o.Read(r, want)
	if err != nil || rerr != nil {
		return // which of them reads a shape is FuzzRun's to check
	}
	if isTrace(r, want) {
		return // a trace's run is read apart from its calls
	}
	if len(run.Steps) != len(calls) {
		t.Fatalf("%s: %d steps, %d calls", want, len(run.Steps), len(calls))
	}
	for i, c := range calls {
		if (c.Err == nil) != (run.Steps[i].Err == nil) {
			t.Fatalf("%s: call %d fails with %v, its step with %v", want, i, c.Err, run.Steps[i].Err)
		}
		if c.Err != nil {
			continue
		}
		if _, bad := invalidUTF8(c.Args, ""); bad || !utf8.ValidString(c.Name) {
			t.Fatalf("%s: call %d holds text that is not UTF-8 and is not failed: %q %s", want, i, c.Name, c.Args)
		}
	}
}

func checkRunRules(t *testing.T, r value.Value, want format.Format) {
	t.Helper()
	type paired struct {
		step int
		m    match
	}
	var pairs []paired
	x := extraction{lim: fuzzLimits, onMatch: func(step int, m match) { pairs = append(pairs, paired{step, m}) }}
	run, got, err := extractRun(r, want, x)
	checkStepsReused(t, r, want, run, err)
	calls, gotCalls, callsErr := readCalls(r, want, fuzzLimits)
	if (err == nil) != (callsErr == nil) || got != gotCalls {
		t.Fatalf("ExtractRun(%q) = %q, %v; Extract = %q, %v", want, got, err, gotCalls, callsErr)
	}
	if err != nil {
		var se *ShapeError
		if !errors.As(err, &se) || run.Steps != nil || got != want {
			t.Fatalf("ExtractRun(%q) = %d steps, %q, %v", want, len(run.Steps), got, err)
		}
		return
	}
	if run.NotEvaluable != "" {
		// A trace without the content of its calls: ReadCalls gives it one
		// failed call, so that it never passes for want of evidence.
		if len(calls) != 1 || calls[0].Err == nil || !strings.Contains(calls[0].Err.Error(), "not evaluable") {
			t.Fatalf("ExtractRun(%q) is not evaluable (%s), Extract gives %v", want, run.NotEvaluable, calls)
		}
		return
	}
	checkBFCLReading(t, &run, want)
	checkSkipResults(t, r, want, got, &run)
	if len(run.Steps) != len(calls) || !sameCalls(calls, run.Calls()) {
		t.Fatalf("ExtractRun(%q) has %d steps, Extract %d calls: %v, %v", want, len(run.Steps), len(calls), run.Calls(), calls)
	}
	if run.HasFinal != (run.Final != "") {
		t.Fatalf("ExtractRun(%q) final %q, HasFinal %v", want, run.Final, run.HasFinal)
	}
	answered := map[int]bool{}
	for _, p := range pairs {
		s := run.Steps[p.step]
		m := p.m
		placed := (m.id == "" || s.ID == "") && p.step >= m.first && p.step < m.end &&
			(m.name != "" && s.Name == m.name || m.name == "" && p.step == m.first+m.ord)
		if !(m.id != "" && s.ID == m.id || placed) || answered[p.step] {
			t.Fatalf("ExtractRun(%q) paired result %+v with step %d (id %q, name %q), answered before: %v", want, m, p.step, s.ID, s.Name, answered[p.step])
		}
		answered[p.step] = true
	}
	for i, s := range run.Steps {
		if s.HasResult != answered[i] || !s.HasResult && (s.Error || s.Result.Kind() != value.Null) {
			t.Fatalf("ExtractRun(%q) step %d has a result %v that no pairing gave (error %v)", want, i, s.HasResult, s.Error)
		}
	}
}

// checkStepsReused reads r again into Options.Steps that hold the steps
// of another run: it must give run (and err) as read without them, with
// nothing of the other run left in it.
func checkStepsReused(t *testing.T, r value.Value, want format.Format, run Run, err error) {
	t.Helper()
	for _, room := range []int{0, 3, 64} {
		got, _, gotErr := Options{Limits: fuzzLimits, Steps: staleSteps(room)}.Read(r, want)
		if (err == nil) != (gotErr == nil) || err != nil && err.Error() != gotErr.Error() {
			t.Fatalf("Read(%q) into %d stale steps: %v, want %v", want, room, gotErr, err)
		}
		if why := runDiff(run, got); why != "" {
			t.Fatalf("Read(%q) into %d stale steps: %s", want, room, why)
		}
	}
}

// staleSteps is a slice of no length and n steps of room, each of them
// the step of another run.
func staleSteps(n int) []Step {
	s := make([]Step, n)
	for i := range s {
		s[i] = Step{Call: Call{Name: "stale", Args: value.StringOf("stale"), Err: errors.New("stale")},
			ID: "stale", Turn: 7, Result: value.StringOf("stale"), HasResult: true, Error: true}
	}
	return s[:0]
}

// runDiff says how run b differs from run a, "" when it does not: the
// same steps (calls by name, arguments and error text, ids, turns and
// results), final answer and the rest.
func runDiff(a, b Run) string {
	if len(a.Steps) != len(b.Steps) {
		return strconv.Itoa(len(b.Steps)) + " steps, want " + strconv.Itoa(len(a.Steps))
	}
	for i := range a.Steps {
		x, y := &a.Steps[i], &b.Steps[i]
		if x.Name != y.Name || !sameValue(x.Args, y.Args) || errText(x.Err) != errText(y.Err) ||
			x.ID != y.ID || x.Turn != y.Turn || x.HasResult != y.HasResult || x.Error != y.Error || !sameValue(x.Result, y.Result) {
			return fmt.Sprintf("step %d is %+v, want %+v", i, *y, *x)
		}
	}
	ea, eb := a.end, b.end
	if a.Final != b.Final || a.HasFinal != b.HasFinal || a.NotEvaluable != b.NotEvaluable ||
		ea.first != eb.first || ea.split != eb.split || ea.bfcl != eb.bfcl || ea.text != eb.text || ea.broken != eb.broken ||
		ea.name != eb.name || !sameValue(ea.call, eb.call) {
		return fmt.Sprintf("run is %+v, want %+v", b, a)
	}
	return ""
}

// sameValue reports whether a and b are the same JSON as written out.
func sameValue(a, b value.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() }

// addRunSeeds seeds a fuzz target of one response text with the runs of
// testdata/runs, every format's examples and the extraction tests' inputs.
func addRunSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "runs", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, examples := range formatExamples {
		for _, ex := range examples {
			f.Add(ex)
		}
	}
	for _, tt := range extractTests {
		f.Add(tt.in)
	}
}

// extractRun is Options.Read with the extraction given.
func extractRun(r value.Value, f format.Format, x extraction) (Run, format.Format, error) {
	var run Run
	got, err := readRunInto(r, f, x, nil, &run)
	return run, got, err
}

// checkBFCLReading holds run's FinalBFCL reading to what it may change: it
// drops the steps whose arguments could not be used and nothing else, in
// order, and has an answer exactly when its text is not empty.
func checkBFCLReading(t *testing.T, run *Run, want format.Format) {
	t.Helper()
	b := run.ReadAs(format.FinalBFCL)
	if b.HasFinal != (b.Final != "") {
		t.Fatalf("ReadAs(FinalBFCL) of a %q run: answer %q, HasFinal %v", want, b.Final, b.HasFinal)
	}
	if !run.end.bfcl {
		if len(b.Steps) != len(run.Steps) {
			t.Fatalf("ReadAs(FinalBFCL) of a %q run BFCL reads as joined has %d steps, want %d", want, len(b.Steps), len(run.Steps))
		}
		return
	}
	k := 0
	for i := range run.Steps {
		if run.Steps[i].Err != nil {
			continue
		}
		if k >= len(b.Steps) || b.Steps[k].Name != run.Steps[i].Name || b.Steps[k].ID != run.Steps[i].ID || b.Steps[k].Turn != run.Steps[i].Turn {
			t.Fatalf("ReadAs(FinalBFCL) of a %q run: steps %v, want the run's usable ones of %v", want, b.Calls(), run.Calls())
		}
		k++
	}
	if k != len(b.Steps) {
		t.Fatalf("ReadAs(FinalBFCL) of a %q run has %d steps, want %d", want, len(b.Steps), k)
	}
}
