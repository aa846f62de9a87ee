package report

import (
	_ "embed"
	"encoding/json"
	"html"
	"io"
	"strings"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/value"
)

//go:embed report.html
var page string

// HTMLOptions configure WriteHTML.
type HTMLOptions struct {
	// Title heads the page; "callgrade report" when empty.
	Title string
	// PassK are the values of k of pass@k and pass^k for a results file
	// with samples (see PassK); the number of samples when empty.
	PassK []int
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
}

type htmlDiff struct {
	Kind     int             `json:"k"`
	Call     *int            `json:"c"`
	Path     string          `json:"p"`
	Expected json.RawMessage `json:"e,omitempty"`
	Actual   json.RawMessage `json:"v,omitempty"`
	Rule     string          `json:"r,omitempty"`
	Message  string          `json:"m"`
}

type htmlData struct {
	Tools      []string     `json:"tools"`
	Kinds      []string     `json:"kinds"`
	Suites     []string     `json:"suites"`
	ErrorKinds []string     `json:"errorKinds"`
	Cases      []htmlCase   `json:"cases"`
	Samples    *htmlSamples `json:"samples,omitempty"`
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
// figures, the pass rate by tool, the diffs by kind, a histogram of scores,
// and a table of cases (50 a page) that filters by result, tool, diff kind
// and id; clicking a case opens its expected calls, actual calls and diffs
// side by side, with the differing paths marked. Expected and actual calls
// show only when Annotate and AttachResponses have set them.
//
// The page computes its figures from the embedded cases; opened with the
// fragment #selftest it clicks its own "Failed" filter and writes what it
// then shows into a hidden #selftest-result element, which the tests read.
func WriteHTML(w io.Writer, cases []Case, opts HTMLOptions) error {
	title := opts.Title
	if title == "" {
		title = "callgrade report"
	}
	d := htmlData{Tools: []string{}, Kinds: []string{}, Suites: []string{""}, Cases: make([]htmlCase, len(cases))}
	tools, kinds, suites := map[string]int{}, map[engine.Kind]int{}, map[string]int{"": 0}
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
		case c.Unknown:
			tool = "(no case)" // left out of the tool chart and filter
		case c.Expected == nil:
			tool = UnknownTool
		}
		hc := htmlCase{ID: c.ID, Pass: c.Pass, Score: c.Score, Unknown: c.Unknown,
			Tool:  intern(tools, &d.Tools, tool),
			Suite: intern(suites, &d.Suites, c.Suite),
			Pairs: make([][2]*int, len(c.Calls)), Diffs: make([]htmlDiff, len(c.Diffs)),
			Expected: c.Expected, Actual: c.Actual}
		if c.Sampled {
			hc.Sample = &c.Sample
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
				if engine.IsError(df.Kind) {
					// The page tells errored cases by these; engine
					// decides which kinds they are.
					d.ErrorKinds = append(d.ErrorKinds, string(df.Kind))
				}
			}
			hc.Diffs[j] = htmlDiff{Kind: k, Call: indexRef(df.Call), Path: df.Path,
				Expected: sideJSON(df.HasExpected, df.Expected), Actual: sideJSON(df.HasActual, df.Actual),
				Rule: df.Rule, Message: df.Message}
		}
		d.Cases[i] = hc
	}
	if sc := Samples(cases); sc != nil {
		ks, err := PassK(sc, opts.PassK)
		if err != nil {
			return err
		}
		t := tallies(sc)
		hs := &htmlSamples{Cases: len(sc), Fewest: fewestSamples(t), K: ks}
		for _, c := range t {
			hs.Most = max(hs.Most, c.N)
		}
		for _, e := range engine.Estimates(t, ks) {
			hs.PassAt, hs.PassHat = append(hs.PassAt, e.PassAt), append(hs.PassHat, e.PassHat)
		}
		d.Samples = hs
	}
	// encoding/json escapes <, > and &, so the data cannot end the script
	// element it sits in.
	data, err := json.Marshal(&d)
	if err != nil {
		return err
	}
	before, after, _ := strings.Cut(page, "{{.Data}}")
	r := strings.NewReplacer("{{.Title}}", html.EscapeString(title))
	if _, err := r.WriteString(w, before); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	_, err = r.WriteString(w, after)
	return err
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
