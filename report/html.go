package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

//go:embed report.html
var page string

// HTMLOptions configure WriteHTML.
type HTMLOptions struct {
	// Meta is the run's metadata, shown above the table with the suite
	// files and the models the cases tell. Its responses file is taken
	// from the cases (AttachResponses) when left empty.
	Meta RunMeta
	// PassK are the values of k of pass@k and pass^k for a results file
	// with samples (as SetPassK reads them); the number of samples when
	// empty.
	PassK []int

	// title heads the page in place of the one WriteHTML makes:
	// "callgrade report: " and the suite files the cases were read from
	// (base names), or "callgrade report" when none is known. The tests
	// set it, to tell their pages apart.
	title string
}

// RunMeta is what the page shows above the table of a run that its cases
// do not tell: the responses file (or the results file, for callgrade
// diff), when it was scored and by which callgrade.
type RunMeta struct {
	Responses string
	Date      string
	Version   string
}

// pageMeta is a run's metadata as the page reads it: RunMeta, and the
// suite files and models its cases tell.
type pageMeta struct {
	Suites    []string `json:"suites,omitempty"`
	Responses string   `json:"responses,omitempty"`
	Date      string   `json:"date,omitempty"`
	Version   string   `json:"version,omitempty"`
	// Models are the models of the run's responses (Case.model), each
	// once, in the order first seen.
	Models []string `json:"models,omitempty"`
}

// fill is r with the suite files, the models and, where r leaves it
// empty, the responses file its cases tell.
func (r RunMeta) fill(cases []Case) pageMeta {
	m := pageMeta{Responses: r.Responses, Date: r.Date, Version: r.Version}
	seen := map[string]bool{}
	for i := range cases {
		c := &cases[i]
		if c.suiteFile != "" && !seen["s\x00"+c.suiteFile] {
			seen["s\x00"+c.suiteFile] = true
			m.Suites = append(m.Suites, c.suiteFile)
		}
		if c.model != "" && !seen["m\x00"+c.model] {
			seen["m\x00"+c.model] = true
			m.Models = append(m.Models, c.model)
		}
		if m.Responses == "" {
			m.Responses = c.responsesFile
		}
	}
	return m
}

// pageTitle is the page's title for a run of these suite files, title
// when it is not "".
func pageTitle(title string, suites []string) string {
	if title != "" {
		return title
	}
	if len(suites) == 0 {
		return "callgrade report"
	}
	names := make([]string, len(suites))
	for i, s := range suites {
		names[i] = filepath.Base(s)
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("and %d more", len(names)-3))
	}
	return "callgrade report: " + strings.Join(names, ", ")
}

// htmlCase is a case as the page's script reads it: short keys, because a
// page of 100,000 cases carries every one of them.
type htmlCase struct {
	ID       string          `json:"i"`
	Pass     bool            `json:"p"`
	Score    float64         `json:"s"`
	Tool     int             `json:"t"`
	Suite    int             `json:"f"`
	Unknown  bool            `json:"u,omitempty"`
	Sample   *int            `json:"k,omitempty"`
	Pairs    [][2]*int       `json:"c"`
	Diffs    []htmlDiff      `json:"d"`
	Expected json.RawMessage `json:"x,omitempty"`
	Actual   json.RawMessage `json:"a,omitempty"`
	// Run is the run of a run case whose response was read as one; the
	// page then shows the case as a timeline. PairPass and PairScore are
	// then each pair's verdict and score, in the order of Pairs.
	Run       *htmlRun  `json:"r,omitempty"`
	PairPass  []bool    `json:"cp,omitempty"`
	PairScore []float64 `json:"cs,omitempty"`
	// Tools, for a case written with steps, is how each tool of its
	// steps fared (Case.toolVerdicts): the chart of pass rates by tool
	// counts the case under each, and the tool filter finds it by each.
	Tools []htmlTool `json:"ts,omitempty"`
}

// htmlTool is how one tool fared in a case: its index in htmlData.Tools,
// its verdict and its score.
type htmlTool struct {
	Tool  int     `json:"t"`
	Pass  bool    `json:"p"`
	Score float64 `json:"s"`
}

// htmlRun is a run as the page reads it: its steps, in order, and its
// final answer.
type htmlRun struct {
	Steps []htmlStep `json:"s"`
	Final *string    `json:"f,omitempty"` // nil: the run has no final answer
}

// htmlStep is one actual step of a run.
type htmlStep struct {
	Name string          `json:"n"`
	Args json.RawMessage `json:"a,omitempty"`  // absent when they cannot be read
	Bad  string          `json:"ae,omitempty"` // why the arguments cannot be read
	ID   string          `json:"id,omitempty"`
	Turn int             `json:"t"`
	// Result is what the tool returned (absent when the run has none);
	// Error its error flag.
	Result json.RawMessage `json:"r,omitempty"`
	Error  bool            `json:"e,omitempty"`
}

type htmlDiff struct {
	Kind     int             `json:"k"`
	Call     *int            `json:"c"`
	Path     string          `json:"p"`
	Expected json.RawMessage `json:"e,omitempty"`
	Actual   json.RawMessage `json:"v,omitempty"`
	Rule     string          `json:"r,omitempty"`
	Message  string          `json:"m"`
	// Step and Turn, for a diff of a run's step: the actual step it
	// belongs to and that step's turn.
	Step *int `json:"st,omitempty"`
	Turn *int `json:"tn,omitempty"`
}

type htmlData struct {
	Tools      []string     `json:"tools"`
	Kinds      []string     `json:"kinds"`
	Suites     []string     `json:"suites"`
	ErrorKinds []string     `json:"errorKinds"`
	Cases      []htmlCase   `json:"cases"`
	Samples    *htmlSamples `json:"samples,omitempty"`
	Meta       pageMeta     `json:"meta"`
	// Models, for a run of several models, is each case's model's index
	// in Meta.Models (-1: none known), for the model column and filter.
	Models []int `json:"models,omitempty"`
	// Metadata are the names of the cases' metadata (Case.metadata), in
	// the order of their names, each a column, a filter and a group of
	// the page.
	Metadata []htmlMeta `json:"metadata,omitempty"`
}

// htmlMeta is one name of the cases' metadata as the page reads it: its
// values, each once, as text (a number as written), with their kinds, one
// letter each ("s" string, "n" number, "b" boolean), and each case's index
// in Values (-1: the case has none). By column, as Models, so that a page
// of 100,000 cases carries each name once.
type htmlMeta struct {
	Name   string   `json:"n"`
	Values []string `json:"v"`
	Kinds  string   `json:"k"`
	Cases  []int    `json:"c"`
}

// newHTMLMeta is the cases' metadata as the page reads it; nil when no
// case has any.
func newHTMLMeta(cases []Case) []htmlMeta {
	index := map[string]int{}
	var out []htmlMeta
	for i := range cases {
		for name := range cases[i].metadata {
			if _, ok := index[name]; !ok {
				index[name] = len(out)
				out = append(out, htmlMeta{Name: name})
			}
		}
	}
	if out == nil {
		return nil
	}
	slices.SortFunc(out, func(a, b htmlMeta) int { return strings.Compare(a.Name, b.Name) })
	for j := range out {
		m := &out[j]
		values := map[string]int{}
		kinds := []byte{}
		m.Cases = make([]int, len(cases))
		for i := range cases {
			v, ok := cases[i].metadata[m.Name]
			if !ok {
				m.Cases[i] = -1
				continue
			}
			var text string
			var kind byte
			switch v.Kind() {
			case value.String:
				text, kind = v.Str(), 's'
			case value.Number:
				text, kind = v.Str(), 'n'
			default:
				text, kind = string(v.AppendJSON(nil)), 'b'
			}
			// A string "1" and the number 1 are two values.
			key := string(kind) + text
			k, ok := values[key]
			if !ok {
				k = len(m.Values)
				values[key] = k
				m.Values = append(m.Values, text)
				kinds = append(kinds, kind)
			}
			m.Cases[i] = k
		}
		m.Kinds = string(kinds)
	}
	return out
}

// htmlSamples are the run's estimates, for a results file with samples;
// the page works out each case's from its lines.
type htmlSamples struct {
	Cases   int       `json:"cases"`
	Fewest  int       `json:"n"`   // the fewest samples of a case
	Most    int       `json:"max"` // the most
	K       []int     `json:"ks"`
	PassAt  []float64 `json:"at"`
	PassHat []float64 `json:"hat"`
}

// WriteHTML writes cases as one self-contained HTML page: no request leaves
// it, so it works from file:// and as a CI artifact. It shows the headline
// figures, the pass rate by tool (a case written with steps under each
// tool of its steps, with that tool's verdict), the diffs by kind, a
// histogram of scores, and a table of cases (50 a page) that filters by
// result, tool, diff kind, id and each name of the cases' metadata
// (the case's metadata, which is also a column and a group-by); clicking a case opens its expected
// calls, actual calls and diffs side by side, with the differing paths
// marked. Expected and actual calls show only when Annotate and
// AttachResponses have set them. A case with a
// Run opens as a timeline instead: one row per actual step (its turn,
// call, result and error flag) with the expected step paired with it and
// the pair's verdict, expected steps paired with no call as gaps, the
// diffs on their steps' rows, and the final answer (docs/reports.md).
//
// The page computes its figures from the embedded cases; opened with the
// fragment #selftest it clicks its own "Failed" filter and writes what it
// then shows into a hidden #selftest-result element, which the tests read.
func WriteHTML(w io.Writer, cases []Case, opts HTMLOptions) error {
	meta := opts.Meta.fill(cases)
	title := pageTitle(opts.title, meta.Suites)
	d, err := newHTMLData(cases, opts)
	if err != nil {
		return err
	}
	d.Meta = meta
	d.Metadata = newHTMLMeta(cases)
	if len(d.Meta.Models) > 1 {
		idx := map[string]int{}
		for i, m := range d.Meta.Models {
			idx[m] = i
		}
		d.Models = make([]int, len(cases))
		for i := range cases {
			if j, ok := idx[cases[i].model]; ok {
				d.Models[i] = j
			} else {
				d.Models[i] = -1
			}
		}
	}
	// encoding/json escapes <, > and &, so the data cannot end the script
	// element it sits in.
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return writePage(w, page, title, data)
}

// writePage writes a page template with its title and its JSON data in
// place of {{.Title}} and {{.Data}}; the one page writer of the report
// and of the comparison of two runs.
func writePage(w io.Writer, page, title string, data []byte) error {
	before, after, _ := strings.Cut(page, "{{.Data}}")
	r := strings.NewReplacer("{{.Title}}", html.EscapeString(title))
	if _, err := r.WriteString(w, before); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	_, err := r.WriteString(w, after)
	return err
}

// newHTMLData is cases as the page's script reads them.
func newHTMLData(cases []Case, opts HTMLOptions) (*htmlData, error) {
	d := htmlData{Tools: []string{}, Kinds: []string{}, Suites: []string{""}, Cases: make([]htmlCase, len(cases))}
	tools, kinds, suites := map[string]int{}, map[results.Kind]int{}, map[string]int{"": 0}
	d.ErrorKinds = []string{}
	intern := func(m map[string]int, list *[]string, s string) int {
		i, ok := m[s]
		if !ok {
			i = len(*list)
			m[s] = i
			*list = append(*list, s)
		}
		return i
	}
	for i := range cases {
		c := &cases[i]
		tool := c.Tool
		switch {
		case c.unknown:
			tool = "(no case)" // left out of the tool chart and filter
		case c.expected == nil:
			tool = unknownTool
		}
		hc := htmlCase{ID: c.ID, Pass: c.Pass, Score: c.Score, Unknown: c.unknown,
			Tool:  intern(tools, &d.Tools, tool),
			Suite: intern(suites, &d.Suites, c.suiteFile),
			Pairs: make([][2]*int, len(c.Calls)), Diffs: make([]htmlDiff, len(c.Diffs)),
			Expected: c.expected, Actual: c.actual}
		if c.Sampled {
			hc.Sample = &c.Sample
		}
		if len(c.StepTools) > 0 && !c.unknown {
			for _, v := range c.toolVerdicts() {
				hc.Tools = append(hc.Tools, htmlTool{Tool: intern(tools, &d.Tools, v.Tool), Pass: v.Pass, Score: v.Score})
			}
		}
		for j, p := range c.Calls {
			hc.Pairs[j] = [2]*int{indexRef(p.Expected), indexRef(p.Actual)}
		}
		for j, df := range c.Diffs {
			k, ok := kinds[df.Kind]
			if !ok {
				k = len(d.Kinds)
				kinds[df.Kind] = k
				d.Kinds = append(d.Kinds, string(df.Kind))
				if results.IsError(df.Kind) {
					// The page tells errored cases by these; package results
					// decides which kinds they are.
					d.ErrorKinds = append(d.ErrorKinds, string(df.Kind))
				}
			}
			hc.Diffs[j] = htmlDiff{Kind: k, Call: indexRef(df.Call), Path: df.Path,
				Expected: sideJSON(df.HasExpected, df.Expected), Actual: sideJSON(df.HasActual, df.Actual),
				Rule: df.Rule, Message: df.Message}
			if df.HasStep {
				hc.Diffs[j].Step, hc.Diffs[j].Turn = &df.Step, &df.Turn
			}
		}
		if c.run != nil {
			// The timeline shows the run's steps, which are its calls.
			hc.Actual, hc.Run = nil, newHTMLRun(c.run)
			hc.PairPass, hc.PairScore = make([]bool, len(c.Calls)), make([]float64, len(c.Calls))
			for j, p := range c.Calls {
				hc.PairPass[j], hc.PairScore[j] = p.Pass, p.Score
			}
			if len(c.Calls) == 0 {
				// Present, so that the page tells a run without pairs.
				hc.PairPass, hc.PairScore = []bool{}, []float64{}
			}
		}
		d.Cases[i] = hc
	}
	if sc := samplesOf(cases); sc != nil {
		ks, err := passKs(sc, opts.PassK)
		if err != nil {
			return nil, err
		}
		t := tallies(sc)
		hs := &htmlSamples{Cases: len(sc), Fewest: fewestSamples(t), K: ks}
		for _, c := range t {
			hs.Most = max(hs.Most, c.N)
		}
		for _, e := range results.Estimates(t, ks) {
			hs.PassAt, hs.PassHat = append(hs.PassAt, e.PassAt), append(hs.PassHat, e.PassHat)
		}
		d.Samples = hs
	}
	return &d, nil
}

// newHTMLRun is run as the page reads it.
func newHTMLRun(run *response.Run) *htmlRun {
	hr := &htmlRun{Steps: make([]htmlStep, len(run.Steps))}
	for i := range run.Steps {
		st := &run.Steps[i]
		hs := htmlStep{Name: st.Name, ID: st.ID, Turn: st.Turn, Error: st.Error}
		if st.Err != nil {
			hs.Bad = st.Err.Error()
		} else {
			hs.Args = st.Args.AppendJSON(nil)
		}
		if st.HasResult {
			hs.Result = st.Result.AppendJSON(nil)
		}
		hr.Steps[i] = hs
	}
	if run.HasFinal {
		hr.Final = &run.Final
	}
	return hr
}

// indexRef is an index as the page reads it: null for none.
func indexRef(i int) *int {
	if i < 0 {
		return nil
	}
	return &i
}

// sideJSON is one side of a diff as the page reads it: left out when the
// line leaves it out, so that an absent side is told apart from null.
func sideJSON(has bool, v value.Value) json.RawMessage {
	if !has {
		return nil
	}
	return v.AppendJSON(nil)
}
