package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"

	"github.com/callgrade/callgrade/results"
)

// Comparison is what changed between two runs of the same suite.
type Comparison struct {
	// Regressed are the cases that passed before and fail now; Fixed the
	// ones that failed before and pass now. Both in the new run's order.
	Regressed, Fixed []Change
	// Added are the ids only the new run has, Removed those only the old
	// one has.
	Added, Removed []string
	// All totals both runs; ByTool has the change per tool, the largest
	// drop in pass rate first.
	All    ToolChange
	ByTool []ToolChange
	// Samples says that a run has samples: its cases are then compared by
	// their samples (see Compare), and OldPassK and NewPassK are each
	// run's pass@k and pass^k over its cases, for k the fewest samples of
	// a case in either run.
	Samples            bool
	OldPassK, NewPassK []results.Estimate
}

// Change is one case whose verdict changed.
type Change struct {
	ID, Tool           string
	OldScore, NewScore float64
	// Diffs are the new run's diffs, for a regression; the old run's, for a
	// fix.
	Diffs []results.Diff
	// With samples, each run's samples of the case and the passing ones;
	// the scores are then the means of the samples'.
	OldSamples, OldPassed, NewSamples, NewPassed int
}

// ToolChange is the pass rate of one tool's cases in both runs.
type ToolChange struct {
	Tool                     string
	OldCases, OldPassed      int
	NewCases, NewPassed      int
	OldPassRate, NewPassRate float64
}

// Delta returns the change in pass rate, new minus old.
func (t ToolChange) Delta() float64 { return t.NewPassRate - t.OldPassRate }

// Compare compares an old run with a new one, case by case by id. Lines for
// responses that name no case are left out. A case's tool is the new run's
// when it has one, else the old run's.
//
// When either run has samples (a line carries "sample"), a case stands for
// all its lines: it passes when every sample passes, as in JUnit XML, so a
// case regressed when all its samples passed before and one fails now; its
// score is the mean of its samples'. A run without samples counts as one
// sample a case. The pass rates are then of cases, by that verdict, and
// OldPassK and NewPassK estimate pass@k and pass^k.
func Compare(old, new []Case) *Comparison {
	so, sn := Samples(old), Samples(new)
	if so == nil && sn == nil {
		return compare(old, new)
	}
	if so == nil {
		so = Samples(asSamples(old))
	}
	if sn == nil {
		sn = Samples(asSamples(new))
	}
	oc, nc := collapse(old, so), collapse(new, sn)
	cmp := compare(oc, nc)
	cmp.Samples = true
	byID := func(cs []SampledCase) map[string]*SampledCase {
		m := make(map[string]*SampledCase, len(cs))
		for i := range cs {
			m[cs[i].ID] = &cs[i]
		}
		return m
	}
	om, nm := byID(so), byID(sn)
	for _, list := range [][]Change{cmp.Regressed, cmp.Fixed} {
		for i := range list {
			o, n := om[list[i].ID], nm[list[i].ID]
			list[i].OldSamples, list[i].OldPassed, list[i].NewSamples, list[i].NewPassed = o.N, o.Passed, n.N, n.Passed
		}
	}
	ot, nt := tallies(so), tallies(sn)
	k := min(fewestSamples(ot), fewestSamples(nt))
	if k > 0 {
		cmp.OldPassK, cmp.NewPassK = results.Estimates(ot, []int{k}), results.Estimates(nt, []int{k})
	}
	return cmp
}

// asSamples returns the lines of a run without samples as a run of one
// sample a case.
func asSamples(cases []Case) []Case {
	out := make([]Case, len(cases))
	for i := range cases {
		out[i] = cases[i]
		out[i].Sampled = true
	}
	return out
}

// collapse makes one Case of each case's samples: it passes when every
// sample passes, its score is their mean, its diffs are those of its first
// failing sample, and the rest is its first sample's.
func collapse(cases []Case, sc []SampledCase) []Case {
	out := make([]Case, len(sc))
	for i := range sc {
		s := &sc[i]
		c := cases[s.Lines[0]]
		c.Pass, c.Score, c.Diffs = s.Pass(), 0, nil
		for _, j := range s.Lines {
			c.Score += cases[j].Score
			if c.Diffs == nil && !cases[j].Pass {
				c.Diffs = cases[j].Diffs
			}
		}
		c.Score /= float64(s.N)
		if len(c.StepTools) > 0 {
			c.tools = sampledVerdicts(cases, s.Lines)
		}
		out[i] = c
	}
	return out
}

func compare(old, new []Case) *Comparison {
	cmp := &Comparison{All: ToolChange{Tool: "all cases"}}
	before := make(map[string]*Case, len(old))
	for i := range old {
		if !old[i].Unknown {
			before[old[i].ID] = &old[i]
		}
	}
	tools := map[string]*ToolChange{}
	tally := func(tool string) *ToolChange {
		t := tools[tool]
		if t == nil {
			t = &ToolChange{Tool: tool}
			tools[tool] = t
		}
		return t
	}
	after := make(map[string]*Case, len(new))
	for i := range new {
		n := &new[i]
		if n.Unknown {
			continue
		}
		after[n.ID] = n
		tool := toolOf(n)
		o := before[n.ID]
		if o != nil && tool == UnknownTool {
			tool = toolOf(o)
		}
		verdicts := n.ToolVerdicts()
		if len(n.StepTools) == 0 {
			verdicts = []results.ToolVerdict{{Tool: tool, Pass: n.Pass}}
		}
		for _, v := range verdicts {
			t := tally(v.Tool)
			t.NewCases++
			if v.Pass {
				t.NewPassed++
			}
		}
		cmp.All.NewCases++
		if n.Pass {
			cmp.All.NewPassed++
		}
		if o == nil {
			cmp.Added = append(cmp.Added, n.ID)
			continue
		}
		switch {
		case o.Pass && !n.Pass:
			cmp.Regressed = append(cmp.Regressed, Change{ID: n.ID, Tool: tool, OldScore: o.Score, NewScore: n.Score, Diffs: n.Diffs})
		case !o.Pass && n.Pass:
			cmp.Fixed = append(cmp.Fixed, Change{ID: n.ID, Tool: tool, OldScore: o.Score, NewScore: n.Score, Diffs: o.Diffs})
		}
	}
	for i := range old {
		o := &old[i]
		if o.Unknown {
			continue
		}
		tool := toolOf(o)
		if n := after[o.ID]; n == nil {
			cmp.Removed = append(cmp.Removed, o.ID)
		} else if toolOf(n) != UnknownTool {
			tool = toolOf(n) // counted under the tool the new run counted it
		}
		verdicts := o.ToolVerdicts()
		if len(o.StepTools) == 0 {
			verdicts = []results.ToolVerdict{{Tool: tool, Pass: o.Pass}}
		}
		for _, v := range verdicts {
			t := tally(v.Tool)
			t.OldCases++
			if v.Pass {
				t.OldPassed++
			}
		}
		cmp.All.OldCases++
		if o.Pass {
			cmp.All.OldPassed++
		}
	}
	for _, t := range tools {
		t.OldPassRate, t.NewPassRate = rate(t.OldPassed, t.OldCases), rate(t.NewPassed, t.NewCases)
		cmp.ByTool = append(cmp.ByTool, *t)
	}
	sort.Slice(cmp.ByTool, func(a, b int) bool {
		da, db := cmp.ByTool[a].Delta(), cmp.ByTool[b].Delta()
		if da != db {
			return da < db
		}
		return cmp.ByTool[a].Tool < cmp.ByTool[b].Tool
	})
	cmp.All.OldPassRate, cmp.All.NewPassRate = rate(cmp.All.OldPassed, cmp.All.OldCases), rate(cmp.All.NewPassed, cmp.All.NewCases)
	return cmp
}

func toolOf(c *Case) string {
	if c.Expected == nil {
		return UnknownTool
	}
	return c.Tool
}

// WriteText writes the comparison for a person: the pass rates, the change
// per tool (largest drop first), then every regressed and fixed case.
func (c *Comparison) WriteText(w io.Writer, opts TableOptions) error {
	bw := bufio.NewWriter(w)
	t := table{color: opts.Color}
	t.header("tool", "old cases", "old pass rate", "new cases", "new pass rate", "change")
	row := func(tc ToolChange) {
		name := tc.Tool
		if name == "" {
			name = "(no call)"
		}
		t.row(cell{text: name}, cell{text: strconv.Itoa(tc.OldCases)}, cell{text: fmt.Sprintf("%.1f%%", 100*tc.OldPassRate)},
			cell{text: strconv.Itoa(tc.NewCases)}, cell{text: fmt.Sprintf("%.1f%%", 100*tc.NewPassRate)}, deltaCell(tc.Delta()))
	}
	row(c.All)
	for _, tc := range c.ByTool {
		row(tc)
	}
	t.write(bw)
	if c.Samples {
		fmt.Fprintln(bw, "\na case with samples passes when all its samples pass")
		for i := range c.OldPassK {
			o, n := c.OldPassK[i], c.NewPassK[i]
			fmt.Fprintf(bw, "pass@%d %.1f%% -> %.1f%% (%s), pass^%d %.1f%% -> %.1f%% (%s)\n",
				o.K, 100*o.PassAt, 100*n.PassAt, paintDelta(opts.Color, n.PassAt-o.PassAt),
				o.K, 100*o.PassHat, 100*n.PassHat, paintDelta(opts.Color, n.PassHat-o.PassHat))
		}
	}
	fmt.Fprintf(bw, "\n%d regressed, %d fixed, %d added, %d removed\n", len(c.Regressed), len(c.Fixed), len(c.Added), len(c.Removed))
	list := func(title, style string, changes []Change) {
		if len(changes) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n%s:\n", paint(opts.Color, style, title))
		for _, ch := range changes {
			fmt.Fprintf(bw, "  %s  score %.3f -> %.3f", printable(ch.ID), ch.OldScore, ch.NewScore)
			if c.Samples {
				fmt.Fprintf(bw, "  passed %d/%d -> %d/%d", ch.OldPassed, ch.OldSamples, ch.NewPassed, ch.NewSamples)
			}
			if len(ch.Diffs) > 0 {
				d := ch.Diffs[0]
				fmt.Fprintf(bw, "  %s", printable(string(d.Kind)))
				if d.Path != "" {
					fmt.Fprintf(bw, " %s", printable(d.Path))
				}
				if len(ch.Diffs) > 1 {
					fmt.Fprintf(bw, " (+%d more)", len(ch.Diffs)-1)
				}
			}
			fmt.Fprintln(bw)
		}
	}
	list("regressed (passed before, fail now)", ansiRed, c.Regressed)
	list("fixed (failed before, pass now)", ansiGreen, c.Fixed)
	return bw.Flush()
}

func deltaCell(d float64) cell {
	c := cell{text: fmt.Sprintf("%+.1f pts", 100*d)}
	switch {
	case d < 0:
		c.style = ansiRed
	case d > 0:
		c.style = ansiGreen
	}
	return c
}

// paintDelta is a change of a share in points, coloured as deltaCell's.
func paintDelta(color bool, d float64) string {
	c := deltaCell(d)
	return paint(color && c.style != "", c.style, c.text)
}

func paint(color bool, style, s string) string {
	if !color {
		return s
	}
	return style + s + ansiReset
}

// sampledVerdicts is how each tool of a steps case fared over the samples
// at lines: it passes when it passes in every sample, and its score is
// the mean of the samples'.
func sampledVerdicts(cases []Case, lines []int) []results.ToolVerdict {
	var out []results.ToolVerdict
	for _, j := range lines {
		for _, v := range cases[j].ToolVerdicts() {
			k := slices.IndexFunc(out, func(o results.ToolVerdict) bool { return o.Tool == v.Tool })
			if k < 0 {
				out = append(out, results.ToolVerdict{Tool: v.Tool, Pass: true})
				k = len(out) - 1
			}
			out[k].Pass = out[k].Pass && v.Pass
			out[k].Score += v.Score / float64(len(lines))
		}
	}
	return out
}
