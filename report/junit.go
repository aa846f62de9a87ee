package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/callgrade/callgrade/results"
)

// JUnitOptions configure WriteJUnit.
type JUnitOptions struct {
	// PassK are the values of k of the pass@k and pass^k properties of a
	// results file with samples (as SetPassK reads them); the number of
	// samples when empty.
	PassK []int
}

// JUnit XML in the shape GitLab, Jenkins and the GitHub test reporters read
// (the common "JUnit XML" schema, as surefire writes it).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`

	tallies []results.SampleTally // of its cases with samples
}

type junitCase struct {
	Name       string           `xml:"name,attr"`
	Classname  string           `xml:"classname,attr"`
	Time       string           `xml:"time,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Failure    *junitProblem    `xml:"failure,omitempty"`
	Error      *junitProblem    `xml:"error,omitempty"`
}

// junitProblem is a <failure> (the case was scored and is wrong) or an
// <error> (it could not be scored as it stands).
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes cases as JUnit XML: <testsuites> named "callgrade",
// one <testsuite> per suite file (in the order the files first appear;
// "callgrade" for the cases no suite was given to Annotate for), one
// <testcase> per case, and for each failing case an <error> when it
// errored (Case.errored) or else a <failure>, whose message lists its
// diffs, one per line with its kind, path and message. Errored cases count in the errors attributes, not in
// failures: a CI system then tells a broken run (a missing response, a
// crashed plugin) from a wrong answer. The testcase's classname is the
// case's tool; for a case written with steps, the tools its steps call,
// each once, in step order, joined by " > " ("find_order > refund"), and
// for a case that expects no call the suite's name. Responses that name
// no case form a last testsuite of their own, each a failure. Scoring
// takes no measurable time per case, so every time is 0.
func WriteJUnit(w io.Writer, cases []Case, opts JUnitOptions) error {
	// The name of the whole, and of the suite of cases no suite file
	// names.
	const name, fallback = "callgrade", "callgrade"
	out := junitSuites{Name: name, Time: "0"}
	index := map[string]int{}
	const unknownSuite = "responses that name no case"
	sampled := samplesOf(cases)
	var ks []int
	var first map[int]*caseSamples // a case's first line -> its samples
	if sampled != nil {
		var err error
		if ks, err = passKs(sampled, opts.PassK); err != nil {
			return err
		}
		first = make(map[int]*caseSamples, len(sampled))
		for k := range sampled {
			first[sampled[k].lines[0]] = &sampled[k]
		}
	}
	for i := range cases {
		c := &cases[i]
		var sc *caseSamples
		if sampled != nil && !c.unknown {
			// One testcase per case, at its first sample's line.
			if sc = first[i]; sc == nil {
				continue
			}
			c = &cases[sc.lines[0]]
		}
		sname := c.suiteFile
		switch {
		case c.unknown:
			sname = unknownSuite
		case sname == "":
			sname = fallback
		}
		k, ok := index[sname]
		if !ok {
			k = len(out.Suites)
			index[sname] = k
			out.Suites = append(out.Suites, junitSuite{Name: sname, Time: "0"})
		}
		s := &out.Suites[k]
		class := c.Tool
		if len(c.StepTools) > 0 {
			class = stepClass(c.StepTools)
		}
		if class == "" {
			class = sname
		}
		tc := junitCase{Name: c.ID, Classname: class, Time: "0"}
		switch {
		case sc != nil:
			sampledCase(&tc, s, sc, cases, ks)
		case c.Pass:
		case c.errored():
			tc.Error = problemOf(c, true)
			s.Errors++
		default:
			tc.Failure = problemOf(c, false)
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	// The suite of unknown responses goes last, whatever came first.
	if k, ok := index[unknownSuite]; ok && k != len(out.Suites)-1 {
		u := out.Suites[k]
		out.Suites = append(append(out.Suites[:k:k], out.Suites[k+1:]...), u)
	}
	for k := range out.Suites {
		if s := &out.Suites[k]; s.tallies != nil {
			s.Properties = estimateProperties(results.Estimates(s.tallies, ks))
		}
	}
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// problemOf makes a case's <failure> or <error>. Its type is the first
// diff's kind, or for an error the first kind that made the case errored.
func problemOf(c *Case, errored bool) *junitProblem {
	f := &junitProblem{Type: "failure"}
	if errored {
		f.Type = "error"
	}
	var lines []string
	typed := false
	for _, d := range c.Diffs {
		if !typed && (!errored || results.IsError(d.Kind)) {
			f.Type, typed = string(d.Kind), true
		}
		lines = append(lines, diffLine(d))
	}
	f.Message = strings.Join(lines, "; ")
	f.Text = fmt.Sprintf("case %s: score %g\n%s", c.ID, c.Score, strings.Join(lines, "\n"))
	return f
}

// diffLine is one diff as a <failure> lists it: "kind path: message".
func diffLine(d results.Diff) string {
	line := string(d.Kind)
	if d.Path != "" {
		line += " " + d.Path
	}
	if d.Message != "" {
		line += ": " + d.Message
	}
	return line
}
