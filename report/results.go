// Package report turns the results of a run into what people and CI
// systems read: a terminal table, JUnit XML, a self-contained HTML page, and
// the comparison of two runs.
//
// It reads the results file (spec section 3) as written, with
// ReadResults. What the results file does not carry (each case's tool and
// suite file, its expected calls, the calls the model made) is added from
// the suite with Annotate and from the responses file with AttachResponses;
// the results file itself is never changed.
package report

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// Case is one line of a results file, read into a results.Result, with
// what Annotate and AttachResponses add to it. The results file carries
// none of that: the Result's Tool, the case's first expected tool, and its
// StepTools, the tools of a case written with steps, one per step in
// order, stay empty until Annotate sets them. Such a case counts under
// each of its tools (ToolVerdicts).
type Case struct {
	results.Result

	// Suite is the file the case was read from ("" when unknown). Annotate
	// sets it and Tool.
	Suite string
	// Expected is the list of calls that counted, as JSON
	// [{"name":…,"arguments":…}]; Actual the calls read from the response.
	// Nil when unknown.
	Expected json.RawMessage
	Actual   json.RawMessage
	// Unknown says that the line is for a response whose id names no case.
	Unknown bool

	// IsRun says that the case is scored as an agent's run
	// (docs/trajectories.md): Annotate sets it for a case the suite
	// writes with steps, never, max_calls or final. A case whose diffs
	// carry a step is read as a run too.
	IsRun bool
	// Format is the format the case's response is in as the suite says
	// (the case's, else the suite's default); Annotate sets it, and
	// AttachResponses reads the response in it unless told another.
	Format format.Format
	// Params are the parameters schemas of the case's tools, with which
	// AttachResponses types what a model wrote out as text, as the scorer
	// does (Qwen3-Coder's parameters); Annotate sets them.
	Params map[string]value.Value
	// Run is the run read from the response of a run case, with each
	// step's turn, result and error flag and the final answer;
	// AttachResponses sets it. Nil when unknown, or when the response
	// cannot be read as a run.
	Run *response.Run
	// Model is the model that wrote the case's response, as the response
	// line's "model" key, else the provider body's "model" or
	// "modelVersion" names it; AttachResponses sets it. ResponsesFile is
	// the file the response was read from, for the HTML page's run
	// metadata.
	Model, ResponsesFile string
	// Metadata is the case's metadata as the suite gives it, defaults'
	// included (suite.Suite.MetadataOf); Annotate sets it. The results
	// file does not carry it. Nil when none.
	Metadata map[string]value.Value

	// tools, when not nil, are the case's ToolVerdicts: those of all its
	// samples, for a case that Compare made of them.
	tools []results.ToolVerdict
}

// ToolVerdicts returns how each tool fared in the case, as the by-tool
// rows of the table and the HTML page count it: a case written with steps
// once under each tool its steps call, with that tool's steps' verdict
// and mean score (results.StepVerdicts), any other case once under its
// first expected tool ("" when it expects none, UnknownTool when Annotate
// has not told it), with its own.
func (c *Case) ToolVerdicts() []results.ToolVerdict {
	if c.tools != nil {
		return c.tools
	}
	if len(c.StepTools) > 0 {
		return results.StepVerdicts(c.StepTools, c.Calls)
	}
	tool := c.Tool
	if c.Expected == nil {
		tool = UnknownTool
	}
	return []results.ToolVerdict{{Tool: tool, Pass: c.Pass, Score: c.Score}}
}

// stepClass is the JUnit classname of a case written with steps: the
// tools its steps call, each once at its first step, in step order.
func stepClass(tools []string) string {
	var seen []string
	for _, t := range tools {
		if !slices.Contains(seen, t) {
			seen = append(seen, t)
		}
	}
	return strings.Join(seen, " > ")
}

// Errored reports whether the case could not be scored as it stands: one of
// its diffs is of a kind results.IsError names.
func (c *Case) Errored() bool {
	for _, d := range c.Diffs {
		if results.IsError(d.Kind) {
			return true
		}
	}
	return false
}

// ReadResults reads a results file with results.Read, whose strict
// reading and errors (a *results.LineError for a line that is not a
// results line, or a second line for one case) it keeps. name is used in
// error messages.
func ReadResults(r io.Reader, name string) ([]Case, error) {
	rs, err := results.Read(r, name)
	if err != nil {
		return nil, err
	}
	out := make([]Case, len(rs))
	for i := range rs {
		out[i] = Case{Result: rs[i], Unknown: results.Unknown(&rs[i])}
	}
	return out, nil
}

// Annotate sets each case's Tool, Suite, Expected and Metadata from the
// suite it was scored against. Cases the suite does not have are left as they are.
func Annotate(cases []Case, s *suite.Suite) {
	index := make(map[string]*suite.Case, len(s.Cases))
	params := suite.Params(s.Tools)
	for i := range s.Cases {
		index[s.Cases[i].ID] = &s.Cases[i]
	}
	for i := range cases {
		c := &cases[i]
		sc := index[c.ID]
		if sc == nil || c.Unknown {
			continue
		}
		c.Suite = sc.Loc.File
		c.Metadata = s.MetadataOf(sc)
		c.IsRun = sc.IsRun()
		c.Params = params
		if sc.Tools != nil {
			c.Params = suite.Params(sc.Tools)
		}
		c.Format = s.FormatOf(sc)
		if sc.HasSteps() {
			steps := sc.Run.Steps
			// A steps case: its expected calls are its steps, and the
			// page shows each one's rules on its tool's result.
			if len(steps) > 0 {
				c.Tool = steps[0].Name
			}
			c.StepTools = make([]string, len(steps))
			for j := range steps {
				c.StepTools[j] = steps[j].Name
			}
			b := []byte{'['}
			for j := range steps {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendStep(b, &steps[j])
			}
			c.Expected = append(b, ']')
			continue
		}
		list := sc.Expected
		if c.Alternative > 0 && c.Alternative <= len(sc.Alternatives) {
			list = sc.Alternatives[c.Alternative-1]
		}
		if len(sc.Expected) > 0 {
			c.Tool = sc.Expected[0].Name
		}
		var b []byte
		b = append(b, '[')
		for j, call := range list {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendCall(b, call.Name, call.Arguments)
		}
		c.Expected = append(b, ']')
	}
}

// appendStep appends an expected step as {"name","arguments"}, with
// "rules", its PATH -> RULE entries on the arguments, and "result", those
// on the tool's result (and "error", the error flag it must have), when it
// has some.
func appendStep(b []byte, st *suite.Step) []byte {
	b = appendCall(b, st.Name, st.Arguments)
	b = b[:len(b)-1]
	if len(st.Rules) > 0 {
		b = appendRules(append(b, `,"rules":{`...), st.Rules, false)
	}
	if len(st.Result) > 0 || st.HasError {
		b = append(b, `,"result":{`...)
		if st.HasError {
			b = append(b, `"error":`...)
			b = strconv.AppendBool(b, st.Error)
		}
		b = appendRules(b, st.Result, st.HasError)
	}
	return append(b, '}')
}

// appendRules appends rs as the members of an object, and the object's
// "}"; comma says that a member comes before them.
func appendRules(b []byte, rs suite.RuleSet, comma bool) []byte {
	for _, pr := range rs {
		if comma {
			b = append(b, ',')
		}
		comma = true
		b = value.AppendQuote(b, pr.Path)
		b = append(b, ':')
		b = pr.Rule.AppendJSON(b)
	}
	return append(b, '}')
}

func appendCall(b []byte, name string, args value.Value) []byte {
	b = append(b, `{"name":`...)
	b = value.AppendQuote(b, name)
	b = append(b, `,"arguments":`...)
	b = args.AppendJSON(b)
	return append(b, '}')
}

// AttachResponses sets each case's Actual from a responses file (spec
// section 2; gzip-compressed or not, see response.NewReader), read in
// format f, or when f is format.Auto in the case's Format (as the
// scorer reads it; Auto detects each). A call whose arguments cannot be
// read is shown with its error as a string. For a run case (IsRun, or a
// case whose diffs carry a step) it also sets Run, the response read as a
// run. Each line is read as the scorer reads it
// (results.ReadResponseLine, within the default limits); lines it cannot
// read, or reads only as broken, are skipped: scoring has reported them
// already. In a results file with samples, a response line goes to the
// line of its case and its "sample".
func AttachResponses(cases []Case, r io.Reader, f format.Format) error {
	index := make(map[string]int, len(cases))
	samples := 0 // in a results file with samples, one more than the highest
	for i := range cases {
		if !cases[i].Unknown {
			index[sampleKey(cases[i].ID, cases[i].Sampled, cases[i].Sample)] = i
			if cases[i].Sampled {
				samples = max(samples, cases[i].Sample+1)
			}
		}
	}
	text, err := response.NewReader(r)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(text)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	for n := 1; sc.Scan(); n++ {
		// As the scorer reads the line, within its default limits; what
		// it could not read, or read only as broken, it has reported.
		lim := value.Limits{MaxBytes: len(sc.Bytes()) + 1, MaxDepth: value.DefaultLimits.MaxDepth + response.EnvelopeDepth}
		rl, lerr := results.ReadResponseLine(nil, sc.Text(), n, lim, samples)
		if lerr != nil || rl.Broken != nil || rl.InvalidUTF8 {
			continue
		}
		i, ok := index[sampleKey(rl.ID, samples > 0, rl.Sample)]
		if !ok {
			continue
		}
		c := &cases[i]
		resp := rl.Response
		c.Model = modelOf(rl.Doc, resp)
		want := f
		if want == format.Auto {
			want = c.Format
		}
		var calls []response.Call
		o := response.Options{Params: c.Params}
		if c.isRun() {
			// As the scorer reads a run case's response: its calls are
			// the run's steps.
			run, _, err := o.Read(resp, want)
			if err == nil && run.NotEvaluable == "" {
				c.Run = &run
				c.Actual = appendCalls(run.Calls(), nil)
				continue
			}
		}
		calls, _, err = o.ReadCalls(resp, want)
		c.Actual = appendCalls(calls, err)
	}
	return sc.Err()
}

// modelOf is the model a response line names: its "model" key, else the
// provider body's "model" or "modelVersion" (Gemini's); "" when none does.
func modelOf(line, resp value.Value) string {
	if m, ok := line.Get("model"); ok && m.Kind() == value.String && m.Str() != "" {
		return m.Str()
	}
	if resp.Kind() != value.Object {
		return ""
	}
	for _, k := range []string{"model", "modelVersion"} {
		if m, ok := resp.Get(k); ok && m.Kind() == value.String && m.Str() != "" {
			return m.Str()
		}
	}
	return ""
}

// isRun reports whether c is read as a run: the suite says so, or a diff
// carries a step, which only a run's diffs do.
func (c *Case) isRun() bool {
	if c.IsRun {
		return true
	}
	for i := range c.Diffs {
		if c.Diffs[i].HasStep {
			return true
		}
	}
	return false
}

// appendCalls is calls as the page reads them, [{"name","arguments"}],
// with err, when not nil, as a call of no name whose arguments are the
// error's text, and a call's arguments that cannot be read as their
// error's text.
func appendCalls(calls []response.Call, err error) []byte {
	b := []byte{'['}
	if err != nil {
		b = appendCall(b, "", value.StringOf(err.Error()))
	}
	for j, call := range calls {
		if j > 0 || err != nil {
			b = append(b, ',')
		}
		args := call.Args
		if call.Err != nil {
			args = value.StringOf(call.Err.Error())
		}
		b = appendCall(b, call.Name, args)
	}
	return append(b, ']')
}

// sampleKey is the key of a results line in AttachResponses' index: its
// id, and its sample when it has one.
func sampleKey(id string, sampled bool, k int) string {
	if !sampled {
		return id
	}
	return id + "\x00" + strconv.Itoa(k)
}

// UnknownTool is the tool Summarize counts a case under when Annotate has
// not told it the case's tool.
const UnknownTool = "(tool unknown)"

// Summarize totals cases the way a run's results.Summary does, with the
// same results.Summary.Add, so that a results file read back prints the
// same table as the run that wrote it. For a results file with samples it
// also counts each case's samples and estimates pass@k and pass^k for k
// the number of samples (SetPassK chooses others).
func Summarize(cases []Case) *results.Summary {
	s := &results.Summary{ByTool: map[string]*results.Tally{}, ByKind: map[results.Kind]int{}}
	for i := range cases {
		c := &cases[i]
		if c.Unknown {
			s.Unknown++
			continue
		}
		s.Add(&c.Result, c.ToolVerdicts()...)
	}
	summarizeSamples(s, cases)
	return s
}
