// Package report turns the results of a run into what people and CI
// systems read: a terminal table, JUnit XML, a self-contained HTML page, and
// the comparison of two runs.
//
// It reads the results file (spec section 3) as written, with
// ReadResults. What the results file does not carry (each case's tool and
// suite file, its expected calls, the calls the model made) is added from
// the suite with Annotate and from the responses file with AttachResponses,
// or from the run that wrote the results as it read the responses, with
// Responses; the results file itself is never changed.
package report

import (
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// Case is one line of a results file, read into a results.Result, with
// what Annotate and AttachResponses add to it for the table, the HTML page
// and the JUnit XML: the case's suite file, expected calls, metadata and
// format, and the calls the model made. The results file carries none of
// that, which is the report's own and not a contract: only the Result is
// public. Its Tool, the case's first expected tool, and its StepTools,
// the tools of a case written with steps, one per step in order, stay
// empty until Annotate sets them. Such a case counts under each of its
// tools.
type Case struct {
	results.Result

	// suiteFile is the file the case was read from ("" when unknown). Annotate
	// sets it and Tool.
	suiteFile string
	// expected is the list of calls that counted, as JSON
	// [{"name":…,"arguments":…}]; actual the calls read from the response.
	// Nil when unknown.
	expected json.RawMessage
	actual   json.RawMessage
	// unknown says that the line is for a response whose id names no case.
	unknown bool

	// asRun says that the case is scored as an agent's run
	// (docs/trajectories.md): Annotate sets it for a case the suite
	// writes with steps, never, max_calls or final. A case whose diffs
	// carry a step is read as a run too.
	asRun bool
	// format is the format the case's response is in as the suite says
	// (the case's, else the suite's default); Annotate sets it, and
	// AttachResponses reads the response in it unless told another.
	format format.Format
	// params are the parameters schemas of the case's tools, with which
	// AttachResponses types what a model wrote out as text, as the scorer
	// does (Qwen3-Coder's parameters); Annotate sets them.
	params map[string]value.Value
	// run is the run read from the response of a run case, with each
	// step's turn, result and error flag and the final answer;
	// AttachResponses sets it. Nil when unknown, or when the response
	// cannot be read as a run.
	run *response.Run
	// model is the model that wrote the case's response, as the response
	// line's "model" key, else the provider body's "model" or
	// "modelVersion" names it; AttachResponses sets it. responsesFile is
	// the file the response was read from, for the HTML page's run
	// metadata.
	model, responsesFile string
	// metadata is the case's metadata as the suite gives it, defaults'
	// included (suite.Suite.MetadataOf); Annotate sets it. The results
	// file does not carry it. Nil when none.
	metadata map[string]value.Value

	// tools, when not nil, are the case's toolVerdicts: those of all its
	// samples, for a case that Compare made of them.
	tools []results.ToolVerdict
}

// toolVerdicts returns how each tool fared in the case, as the by-tool
// rows of the table and the HTML page count it: a case written with steps
// once under each tool its steps call, with that tool's steps' verdict
// and mean score (results.StepVerdicts), any other case once under its
// first expected tool ("" when it expects none, unknownTool when Annotate
// has not told it), with its own.
func (c *Case) toolVerdicts() []results.ToolVerdict {
	if c.tools != nil {
		return c.tools
	}
	if len(c.StepTools) > 0 {
		return results.StepVerdicts(c.StepTools, c.Calls)
	}
	tool := c.Tool
	if c.expected == nil {
		tool = unknownTool
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

// errored reports whether the case could not be scored as it stands: one of
// its diffs is of a kind results.IsError names.
func (c *Case) errored() bool {
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
		out[i] = Case{Result: rs[i], unknown: isUnknown(&rs[i])}
	}
	return out, nil
}

// isUnknown reports whether r is the line of a response whose id names
// no case of the suite: one with an unknown_case diff, which Summarize
// counts apart, never as a case.
func isUnknown(r *results.Result) bool {
	for i := range r.Diffs {
		if r.Diffs[i].Kind == results.UnknownCase {
			return true
		}
	}
	return false
}

// Annotate sets each case's Tool, Suite, Expected and Metadata from the
// suite it was scored against (callgrade.Load, callgrade.Grader.Suite).
// Cases the suite does not have are left as they are.
func Annotate(cases []Case, v *callgrade.Suite) {
	s := suite.ModelOf(v)
	index := make(map[string]*suite.Case, len(s.Cases))
	params := suite.Params(s.Tools)
	for i := range s.Cases {
		index[s.Cases[i].ID] = &s.Cases[i]
	}
	for i := range cases {
		c := &cases[i]
		sc := index[c.ID]
		if sc == nil || c.unknown {
			continue
		}
		c.suiteFile = sc.Loc.File
		c.metadata = s.MetadataOf(sc)
		c.asRun = sc.IsRun()
		c.params = params
		if sc.Tools != nil {
			c.params = suite.Params(sc.Tools)
		}
		c.format = s.FormatOf(sc)
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
			c.expected = append(b, ']')
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
		c.expected = append(b, ']')
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
		b = jsontext.AppendQuote(b, pr.Path)
		b = append(b, ':')
		b = pr.Rule.AppendJSON(b)
	}
	return append(b, '}')
}

func appendCall(b []byte, name string, args value.Value) []byte {
	b = append(b, `{"name":`...)
	b = jsontext.AppendQuote(b, name)
	b = append(b, `,"arguments":`...)
	b = args.AppendJSON(b)
	return append(b, '}')
}

// AttachResponses sets each case's actual calls, and the model that made
// them, from a responses file (spec section 2; gzip-compressed or not,
// read with results.ResponseReader) named name, which the HTML page shows
// as the run's responses. Each response is read in the format a Grader of
// opts would read it in: its case's (Annotate's, from the suite) unless
// opts.Format names another or opts.ForceFormat is set (auto then detects
// each); the rest of opts is not read. A call whose arguments cannot be
// read is shown with its error as a string. A run case (one the suite
// writes as an agent's run, or whose diffs carry a step) also gets its
// run, the response read as one, for the page's timeline. Each line is
// read as the scorer reads it (within the default limits); lines it
// cannot read, or reads only as broken, and lines over 1 GiB are skipped:
// scoring has reported them already. In a results file with samples, a
// response line goes to the line of its case and its "sample".
func AttachResponses(cases []Case, r io.Reader, name string, opts callgrade.Options) error {
	for i := range cases {
		cases[i].responsesFile = name
	}
	force := opts.Format != format.Auto || opts.ForceFormat
	index := make(map[string]int, len(cases))
	samples := 0 // in a results file with samples, one more than the highest
	for i := range cases {
		if !cases[i].unknown {
			index[sampleKey(cases[i].ID, cases[i].Sampled, cases[i].Sample)] = i
			if cases[i].Sampled {
				samples = max(samples, cases[i].Sample+1)
			}
		}
	}
	text, err := results.ResponseText(r)
	if err != nil {
		return err
	}
	// A line longer than any the scorer reads has failed its case there,
	// as not read.
	rr := results.NewResponseReader(text, maxLine, 0)
	var buf []byte
	for n := 1; ; n++ {
		b, ok, cut, err := rr.ReadLine(buf[:0])
		buf = b
		if err != nil && err != io.EOF {
			return err
		}
		if !ok {
			return nil
		}
		if cut > 0 {
			continue
		}
		// A string of its own: what is read from the line (a run's
		// steps) points into it.
		rl, ok := readLine(string(b), n, samples)
		if !ok {
			continue
		}
		i, ok := index[sampleKey(rl.ID, samples > 0, rl.Sample)]
		if !ok {
			continue
		}
		c := &cases[i]
		want := c.format
		if force {
			want = opts.Format
		}
		c.attach(readAttached(&rl, want, c.params, c.isRun()))
	}
}

// maxLine is the longest response line AttachResponses reads: 1 GiB, past
// any line callgrade score reads (--max-line-bytes).
const maxLine = 1 << 30

// readLine reads line n of a responses stream as the scorer reads it,
// within its default limits; ok is false for a line it could not read,
// or read only as broken, which scoring has reported already.
func readLine(text string, n, samples int) (rl results.ResponseLine, ok bool) {
	lim := value.Limits{MaxBytes: len(text) + 1, MaxDepth: jsontext.DefaultMaxDepth + response.EnvelopeDepth}
	rl, lerr := results.ReadResponseLine(nil, text, n, lim, samples)
	return rl, lerr == nil && rl.Broken == nil && !rl.InvalidUTF8
}

// attached is what a case's response line adds to its Case.
type attached struct {
	actual json.RawMessage
	run    *response.Run
	model  string
}

// readAttached reads the response of rl in format f, as the scorer reads
// it: a run case's (isRun) as a run, whose calls are its steps, when it
// reads as one; any other's as calls, with params typing what a model
// wrote out as text.
func readAttached(rl *results.ResponseLine, f format.Format, params map[string]value.Value, isRun bool) attached {
	resp := rl.Response
	a := attached{model: modelOf(rl.Doc, resp)}
	o := response.Options{Params: params}
	if isRun {
		run, _, err := o.Read(resp, f)
		if err == nil && run.NotEvaluable == "" {
			a.run, a.actual = &run, appendCalls(run.Calls(), nil)
			return a
		}
	}
	calls, _, err := o.ReadCalls(resp, f)
	a.actual = appendCalls(calls, err)
	return a
}

// attach sets what a is to c.
func (c *Case) attach(a attached) {
	c.model, c.actual = a.model, a.actual
	if a.run != nil {
		c.run = a.run
	}
}

// Responses collects the calls models made from the response lines of a
// run as the run reads them (callgrade.RunOptions.OnResponse), so that a
// report made from the same pass shows them, as AttachResponses would from
// the responses file, without reading the responses again: a stream on
// standard input cannot be read twice. A Responses is safe for use by
// several goroutines at once.
type Responses struct {
	cases map[string]responseCase // by case id
	mu    sync.Mutex
	got   map[string]attached // by sampleKey, sampled
}

// responseCase is how a case's response is read: its format, the
// parameters schemas of its tools, and whether it is a run.
type responseCase struct {
	format format.Format
	params map[string]value.Value
	isRun  bool
}

// NewResponses returns an empty Responses for the cases of s, whose
// responses it reads in the format a Grader of opts reads them in, as
// AttachResponses does.
func NewResponses(s *callgrade.Suite, opts callgrade.Options) *Responses {
	m := suite.ModelOf(s)
	force := opts.Format != format.Auto || opts.ForceFormat
	rs := &Responses{cases: make(map[string]responseCase, len(m.Cases)), got: map[string]attached{}}
	params := suite.Params(m.Tools)
	for i := range m.Cases {
		sc := &m.Cases[i]
		rc := responseCase{format: opts.Format, params: params, isRun: sc.IsRun()}
		if !force {
			rc.format = m.FormatOf(sc)
		}
		if sc.Tools != nil {
			rc.params = suite.Params(sc.Tools)
		}
		rs.cases[sc.ID] = rc
	}
	return rs
}

// Add reads the response of line, a line of the run's responses as the
// run read it, scored as result, as AttachResponses reads a line for the
// results line result is (a case whose diffs carry a step is read as a
// run): from the line's Text, within AttachResponses' limits, so that the
// two cannot differ. A line that names no case of the suite, that is
// broken or that holds text that is not UTF-8 is left out, as
// AttachResponses leaves it. Add keeps nothing of line's or result's
// memory: it reads a copy of the line's Text.
func (rs *Responses) Add(line *results.ResponseLine, result *results.Result) {
	rc, ok := rs.cases[line.ID]
	if !ok {
		return
	}
	rl, ok := readLine(strings.Clone(line.Text), 0, 0)
	if !ok {
		return
	}
	a := readAttached(&rl, rc.format, rc.params, rc.isRun || hasStep(result.Diffs))
	rs.mu.Lock()
	rs.got[sampleKey(line.ID, true, line.Sample)] = a
	rs.mu.Unlock()
}

// Attach sets each case's actual calls, model and, for a run case read as
// a run, run, from the lines added, as AttachResponses sets them from the
// responses file, and name as the responses file the page shows; a case
// with no line added is left as it is.
func (rs *Responses) Attach(cases []Case, name string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for i := range cases {
		c := &cases[i]
		c.responsesFile = name
		if c.unknown {
			continue
		}
		if a, ok := rs.got[sampleKey(c.ID, true, c.Sample)]; ok {
			c.attach(a)
		}
	}
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
func (c *Case) isRun() bool { return c.asRun || hasStep(c.Diffs) }

// hasStep reports whether one of diffs carries a step.
func hasStep(diffs []results.Diff) bool {
	for i := range diffs {
		if diffs[i].HasStep {
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

// unknownTool is the tool Summarize counts a case under when Annotate has
// not told it the case's tool.
const unknownTool = "(tool unknown)"

// Summarize totals cases the way a run's results.Summary does, with the
// same results.Summary.Add, so that a results file read back prints the
// same table as the run that wrote it. For a results file with samples it
// also counts each case's samples and estimates pass@k and pass^k for k
// the number of samples (SetPassK chooses others).
func Summarize(cases []Case) *results.Summary {
	s := &results.Summary{ByTool: map[string]*results.Tally{}, ByKind: map[results.Kind]int{}}
	for i := range cases {
		c := &cases[i]
		if c.unknown {
			s.Unknown++
			continue
		}
		s.Add(&c.Result, c.toolVerdicts()...)
	}
	summarizeSamples(s, cases)
	return s
}
