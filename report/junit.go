package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// JUnitOptions configure WriteJUnit.
type JUnitOptions struct {
	// Name is the name of the <testsuites> element; "callgrade" when empty.
	Name string
	// Suite names the <testsuite> of cases whose Suite is "" (no suite was
	// given to Annotate); "callgrade" when empty.
	Suite string
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
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes cases as JUnit XML: one <testsuite> per suite file (in
// the order the files first appear), one <testcase> per case, and a
// <failure> for each failing case whose message lists its diffs, one per
// line with its kind, path and message. The testcase's classname is the
// case's tool. Responses that name no case form a last testsuite of their
// own, each a failure. Scoring takes no measurable time per case, so every
// time is 0.
func WriteJUnit(w io.Writer, cases []Case, opts JUnitOptions) error {
	name := opts.Name
	if name == "" {
		name = "callgrade"
	}
	fallback := opts.Suite
	if fallback == "" {
		fallback = "callgrade"
	}
	out := junitSuites{Name: name, Time: "0"}
	index := map[string]int{}
	const unknownSuite = "responses that name no case"
	for i := range cases {
		c := &cases[i]
		sname := c.Suite
		switch {
		case c.Unknown:
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
		if class == "" {
			class = sname
		}
		tc := junitCase{Name: c.ID, Classname: class, Time: "0"}
		if !c.Pass {
			tc.Failure = failureOf(c)
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
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
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

func failureOf(c *Case) *junitFailure {
	f := &junitFailure{Type: "failure"}
	var lines []string
	for i, d := range c.Diffs {
		if i == 0 {
			f.Type = string(d.Kind)
		}
		line := string(d.Kind)
		if d.Path != "" {
			line += " " + d.Path
		}
		if d.Message != "" {
			line += ": " + d.Message
		}
		lines = append(lines, line)
	}
	f.Message = strings.Join(lines, "; ")
	f.Text = fmt.Sprintf("case %s: score %g\n%s", c.ID, c.Score, strings.Join(lines, "\n"))
	return f
}
