package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/runlines"
	"github.com/callgrade/callgrade/results"
)

// caseSamples is one case of a results file with samples (lines with
// "sample", written by a run with several samples per case): its lines and
// how many of them passed.
type caseSamples struct {
	id string
	// lines are the indices of the case's lines in the list given to
	// samplesOf, in the order of their sample.
	lines   []int
	n       int  // samples: the case's lines
	passed  int  // of them, the passing ones
	errored bool // a failing sample errored (Case.errored)
}

// pass reports whether every sample of the case passed: the verdict of a
// case with samples in JUnit XML and in a comparison of two runs, pass^n
// rather than pass@n, so that a case that fails one sample in n is not
// reported as passing.
func (s *caseSamples) pass() bool { return s.passed == s.n }

// samplesOf groups the lines of a results file with samples by case, in the
// order the cases first appear; each case's lines are in the order of
// their sample. Lines for responses that name no case are left out. It
// returns nil when no case's line carries a sample: a run without samples.
func samplesOf(cases []Case) []caseSamples {
	sampled := false
	for i := range cases {
		if cases[i].Sampled && !cases[i].unknown {
			sampled = true
			break
		}
	}
	if !sampled {
		return nil
	}
	var out []caseSamples
	index := map[string]int{}
	for i := range cases {
		c := &cases[i]
		if c.unknown {
			continue
		}
		k, ok := index[c.ID]
		if !ok {
			k = len(out)
			index[c.ID] = k
			out = append(out, caseSamples{id: c.ID})
		}
		s := &out[k]
		s.lines = append(s.lines, i)
		s.n++
		if c.Pass {
			s.passed++
		} else if c.errored() {
			s.errored = true
		}
	}
	for k := range out {
		slices.SortStableFunc(out[k].lines, func(a, b int) int { return cases[a].Sample - cases[b].Sample })
	}
	return out
}

// tallies returns the per-case counts of sampled cases, as a run's
// summary keeps them.
func tallies(sc []caseSamples) []results.SampleTally {
	out := make([]results.SampleTally, len(sc))
	for i, s := range sc {
		out[i] = results.SampleTally{ID: s.id, N: s.n, Passed: s.passed}
	}
	return out
}

// fewestSamples returns the smallest N of the cases: the largest k that
// pass@k can be estimated for.
func fewestSamples(t []results.SampleTally) int {
	n := 0
	for i, c := range t {
		if i == 0 || c.N < n {
			n = c.N
		}
	}
	return n
}

// passKs returns the values of k to estimate pass@k and pass^k for in a
// results file with samples: ks sorted without repeats, or, when ks is
// empty, the number of samples (the fewest any case has). A k beyond that
// is an error.
func passKs(sc []caseSamples, ks []int) ([]int, error) {
	return runlines.CheckPassK(ks, fewestSamples(tallies(sc)))
}

// SetPassK estimates pass@k and pass^k for each of ks into a summary of a
// results file with samples that Summarize made, replacing the default k:
// ks are sorted without repeats, and a k beyond the number of samples (the
// fewest any case has) is an error. It does nothing to a summary without
// samples.
func SetPassK(s *results.Summary, ks []int) error {
	if s.Samples == 0 {
		return nil
	}
	ks, err := runlines.CheckPassK(ks, fewestSamples(s.PerCase))
	if err != nil {
		return err
	}
	s.PassK = results.Estimates(s.PerCase, ks)
	return nil
}

// summarizeSamples sets what Summarize adds for a results file with
// samples: the per-case tallies and pass@k and pass^k for k the number of
// samples. Samples is the fewest samples any case has; for a run's
// results, the number of samples of every case.
func summarizeSamples(s *results.Summary, cases []Case) {
	sc := samplesOf(cases)
	if sc == nil {
		return
	}
	s.PerCase = tallies(sc)
	s.Samples = fewestSamples(s.PerCase)
	if s.Samples > 0 {
		s.PassK = results.Estimates(s.PerCase, []int{s.Samples})
	}
}

// writePassK writes the estimates of a summary with samples: a line that
// says over what, then k, pass@k and pass^k, one row per k.
func writePassK(w io.Writer, s *results.Summary, color bool) {
	lo, hi := 0, 0
	for i, c := range s.PerCase {
		if i == 0 || c.N < lo {
			lo = c.N
		}
		hi = max(hi, c.N)
	}
	each := strconv.Itoa(lo)
	if hi != lo {
		each = fmt.Sprintf("%d to %d", lo, hi)
	}
	samples := " samples each"
	if hi == 1 {
		samples = " sample each"
	}
	fmt.Fprintf(w, "\n%s, %s%s\n", countOf(len(s.PerCase), "case"), each, samples)
	t := table{color: color}
	t.header("k", "pass@k", "pass^k")
	for _, e := range s.PassK {
		t.row(cell{text: strconv.Itoa(e.K)}, shareCell(e.PassAt), shareCell(e.PassHat))
	}
	t.write(w)
}

// shareCell is a share as a percentage, coloured as a pass rate.
func shareCell(r float64) cell {
	c := cell{text: fmt.Sprintf("%.1f%%", 100*r)}
	switch {
	case r >= 0.9:
		c.style = ansiGreen
	case r >= 0.5:
		c.style = ansiYellow
	default:
		c.style = ansiRed
	}
	return c
}

// WriteSamples writes a results file's cases with samples for a person,
// one row per case in the order of the results: its samples, how many
// passed, pass@k and pass^k for each of ks (as SetPassK reads them; an
// error when a k is too large), and the samples that failed ("-" for
// none). It writes nothing for a results file without samples.
func WriteSamples(w io.Writer, cases []Case, ks []int, opts TableOptions) error {
	sc := samplesOf(cases)
	if sc == nil {
		return nil
	}
	ks, err := passKs(sc, ks)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	t := table{color: opts.Color}
	head := []string{"case", "samples", "passed"}
	for _, k := range ks {
		head = append(head, fmt.Sprintf("pass@%d", k), fmt.Sprintf("pass^%d", k))
	}
	t.header(append(head, "failed samples")...)
	for i := range sc {
		s := &sc[i]
		row := []cell{{text: s.id}, {text: strconv.Itoa(s.n)}, {text: strconv.Itoa(s.passed)}}
		for _, k := range ks {
			row = append(row, shareCell(results.PassAtK(s.n, s.passed, k)), shareCell(results.PassHatK(s.n, s.passed, k)))
		}
		failed := ""
		if s.pass() {
			failed = "-"
		}
		for _, j := range s.lines {
			if !cases[j].Pass {
				if failed != "" {
					failed += " "
				}
				failed += strconv.Itoa(cases[j].Sample)
			}
		}
		t.row(append(row, cell{text: failed})...)
	}
	t.write(bw)
	return bw.Flush()
}

// junitProperties are the <properties> of a <testsuite> or a <testcase>.
type junitProperties struct {
	List []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

func estimateProperties(es []results.Estimate) *junitProperties {
	p := &junitProperties{}
	for _, e := range es {
		p.List = append(p.List,
			junitProperty{fmt.Sprintf("pass@%d", e.K), strconv.FormatFloat(e.PassAt, 'g', -1, 64)},
			junitProperty{fmt.Sprintf("pass^%d", e.K), strconv.FormatFloat(e.PassHat, 'g', -1, 64)})
	}
	return p
}

// sampledCase fills the testcase of a case with samples, in suite s: its
// properties (samples, passed, and pass@k and pass^k for each of ks), and,
// unless every sample passed, an <error> when a failing sample errored or
// else a <failure>, listing each failing sample's diffs.
func sampledCase(tc *junitCase, s *junitSuite, sc *caseSamples, cases []Case, ks []int) {
	s.tallies = append(s.tallies, results.SampleTally{ID: sc.id, N: sc.n, Passed: sc.passed})
	es := results.Estimates([]results.SampleTally{{N: sc.n, Passed: sc.passed}}, ks)
	tc.Properties = estimateProperties(es)
	tc.Properties.List = append([]junitProperty{{"samples", strconv.Itoa(sc.n)}, {"passed", strconv.Itoa(sc.passed)}}, tc.Properties.List...)
	if sc.pass() {
		return
	}
	p := &junitProblem{Type: "failure"}
	if sc.errored {
		p.Type = "error"
	}
	var lines []string
	typed := false
	for _, j := range sc.lines {
		c := &cases[j]
		if c.Pass {
			continue
		}
		for _, d := range c.Diffs {
			if !typed && (!sc.errored || results.IsError(d.Kind)) {
				p.Type, typed = string(d.Kind), true
			}
			lines = append(lines, fmt.Sprintf("sample %d: %s", c.Sample, diffLine(d)))
		}
	}
	p.Message = strings.Join(lines, "; ")
	summary := fmt.Sprintf("case %s: %d of %d samples passed", sc.id, sc.passed, sc.n)
	for _, e := range es {
		summary += fmt.Sprintf("; pass@%d %.4g, pass^%d %.4g", e.K, e.PassAt, e.K, e.PassHat)
	}
	p.Text = summary + "\n" + strings.Join(lines, "\n")
	if sc.errored {
		tc.Error = p
		s.Errors++
	} else {
		tc.Failure = p
		s.Failures++
	}
}
