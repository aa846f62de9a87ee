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

// Comparison is what changed between two runs of the same suite, for
// WriteText to tell a person; Regressed lists the cases a CI gate fails on.
type Comparison struct {
	// regressed are the cases that passed before and fail now; fixed the
	// ones that failed before and pass now. Both in the new run's order.
	regressed, fixed []change
	// added are the ids only the new run has, removed those only the old
	// one has.
	added, removed []string
	// all totals both runs; byTool has the change per tool, the largest
	// drop in pass rate first.
	all    toolChange
	byTool []toolChange
	// samples says that a run has samples: its cases are then compared by
	// their samples (see Compare), and oldPassK and newPassK are each
	// run's pass@k and pass^k over its cases, for k the fewest samples of
	// a case in either run.
	samples            bool
	oldPassK, newPassK []results.Estimate
}

// Regressed returns the ids of the cases that passed in the old run and
// fail in the new one, in the new run's order.
func (c *Comparison) Regressed() []string {
	ids := make([]string, len(c.regressed))
	for i := range c.regressed {
		ids[i] = c.regressed[i].id
	}
	return ids
}

// change is one case whose verdict changed.
type change struct {
	id, tool           string
	oldScore, newScore float64
	// diffs are the new run's diffs, for a regression; the old run's, for a
	// fix.
	diffs []results.Diff
	// With samples, each run's samples of the case and the passing ones;
	// the scores are then the means of the samples'.
	oldSamples, oldPassed, newSamples, newPassed int
}

// toolChange is the pass rate of one tool's cases in both runs.
type toolChange struct {
	tool                     string
	oldCases, oldPassed      int
	newCases, newPassed      int
	oldPassRate, newPassRate float64
}

// delta returns the change in pass rate, new minus old.
func (t toolChange) delta() float64 { return t.newPassRate - t.oldPassRate }

// Compare compares an old run with a new one, case by case by id. Lines for
// responses that name no case are left out. A case's tool is the new run's
// when it has one, else the old run's.
//
// When either run has samples (a line carries "sample"), a case stands for
// all its lines: it passes when every sample passes, as in JUnit XML, so a
// case regressed when all its samples passed before and one fails now; its
// score is the mean of its samples'. A run without samples counts as one
// sample a case. The pass rates are then of cases, by that verdict, and
// WriteText adds each run's pass@k and pass^k.
func Compare(old, new []Case) *Comparison {
	so, sn := samplesOf(old), samplesOf(new)
	if so == nil && sn == nil {
		return compare(old, new)
	}
	if so == nil {
		so = samplesOf(asSamples(old))
	}
	if sn == nil {
		sn = samplesOf(asSamples(new))
	}
	oc, nc := collapse(old, so), collapse(new, sn)
	cmp := compare(oc, nc)
	cmp.samples = true
	byID := func(cs []caseSamples) map[string]*caseSamples {
		m := make(map[string]*caseSamples, len(cs))
		for i := range cs {
			m[cs[i].id] = &cs[i]
		}
		return m
	}
	om, nm := byID(so), byID(sn)
	for _, list := range [][]change{cmp.regressed, cmp.fixed} {
		for i := range list {
			o, n := om[list[i].id], nm[list[i].id]
			list[i].oldSamples, list[i].oldPassed, list[i].newSamples, list[i].newPassed = o.n, o.passed, n.n, n.passed
		}
	}
	ot, nt := tallies(so), tallies(sn)
	k := min(fewestSamples(ot), fewestSamples(nt))
	if k > 0 {
		cmp.oldPassK, cmp.newPassK = results.Estimates(ot, []int{k}), results.Estimates(nt, []int{k})
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
func collapse(cases []Case, sc []caseSamples) []Case {
	out := make([]Case, len(sc))
	for i := range sc {
		s := &sc[i]
		c := cases[s.lines[0]]
		c.Pass, c.Score, c.Diffs = s.pass(), 0, nil
		for _, j := range s.lines {
			c.Score += cases[j].Score
			if c.Diffs == nil && !cases[j].Pass {
				c.Diffs = cases[j].Diffs
			}
		}
		c.Score /= float64(s.n)
		if len(c.StepTools) > 0 {
			c.tools = sampledVerdicts(cases, s.lines)
		}
		out[i] = c
	}
	return out
}

func compare(old, new []Case) *Comparison {
	cmp := &Comparison{all: toolChange{tool: "all cases"}}
	before := make(map[string]*Case, len(old))
	for i := range old {
		if !old[i].unknown {
			before[old[i].ID] = &old[i]
		}
	}
	tools := map[string]*toolChange{}
	tally := func(tool string) *toolChange {
		t := tools[tool]
		if t == nil {
			t = &toolChange{tool: tool}
			tools[tool] = t
		}
		return t
	}
	after := make(map[string]*Case, len(new))
	for i := range new {
		n := &new[i]
		if n.unknown {
			continue
		}
		after[n.ID] = n
		tool := toolOf(n)
		o := before[n.ID]
		if o != nil && tool == unknownTool {
			tool = toolOf(o)
		}
		verdicts := n.toolVerdicts()
		if len(n.StepTools) == 0 {
			verdicts = []results.ToolVerdict{{Tool: tool, Pass: n.Pass}}
		}
		for _, v := range verdicts {
			t := tally(v.Tool)
			t.newCases++
			if v.Pass {
				t.newPassed++
			}
		}
		cmp.all.newCases++
		if n.Pass {
			cmp.all.newPassed++
		}
		if o == nil {
			cmp.added = append(cmp.added, n.ID)
			continue
		}
		switch {
		case o.Pass && !n.Pass:
			cmp.regressed = append(cmp.regressed, change{id: n.ID, tool: tool, oldScore: o.Score, newScore: n.Score, diffs: n.Diffs})
		case !o.Pass && n.Pass:
			cmp.fixed = append(cmp.fixed, change{id: n.ID, tool: tool, oldScore: o.Score, newScore: n.Score, diffs: o.Diffs})
		}
	}
	for i := range old {
		o := &old[i]
		if o.unknown {
			continue
		}
		tool := toolOf(o)
		if n := after[o.ID]; n == nil {
			cmp.removed = append(cmp.removed, o.ID)
		} else if toolOf(n) != unknownTool {
			tool = toolOf(n) // counted under the tool the new run counted it
		}
		verdicts := o.toolVerdicts()
		if len(o.StepTools) == 0 {
			verdicts = []results.ToolVerdict{{Tool: tool, Pass: o.Pass}}
		}
		for _, v := range verdicts {
			t := tally(v.Tool)
			t.oldCases++
			if v.Pass {
				t.oldPassed++
			}
		}
		cmp.all.oldCases++
		if o.Pass {
			cmp.all.oldPassed++
		}
	}
	for _, t := range tools {
		t.oldPassRate, t.newPassRate = rate(t.oldPassed, t.oldCases), rate(t.newPassed, t.newCases)
		cmp.byTool = append(cmp.byTool, *t)
	}
	sort.Slice(cmp.byTool, func(a, b int) bool {
		da, db := cmp.byTool[a].delta(), cmp.byTool[b].delta()
		if da != db {
			return da < db
		}
		return cmp.byTool[a].tool < cmp.byTool[b].tool
	})
	cmp.all.oldPassRate, cmp.all.newPassRate = rate(cmp.all.oldPassed, cmp.all.oldCases), rate(cmp.all.newPassed, cmp.all.newCases)
	return cmp
}

func toolOf(c *Case) string {
	if c.expected == nil {
		return unknownTool
	}
	return c.Tool
}

// WriteText writes the comparison for a person: the pass rates, the change
// per tool (largest drop first), then every regressed and fixed case.
func (c *Comparison) WriteText(w io.Writer, opts TableOptions) error {
	bw := bufio.NewWriter(w)
	t := table{color: opts.Color}
	t.header("tool", "old cases", "old pass rate", "new cases", "new pass rate", "change")
	row := func(tc toolChange) {
		name := tc.tool
		if name == "" {
			name = "(no call)"
		}
		t.row(cell{text: name}, cell{text: strconv.Itoa(tc.oldCases)}, cell{text: fmt.Sprintf("%.1f%%", 100*tc.oldPassRate)},
			cell{text: strconv.Itoa(tc.newCases)}, cell{text: fmt.Sprintf("%.1f%%", 100*tc.newPassRate)}, deltaCell(tc.delta()))
	}
	row(c.all)
	for _, tc := range c.byTool {
		row(tc)
	}
	t.write(bw)
	if c.samples {
		fmt.Fprintln(bw, "\na case with samples passes when all its samples pass")
		for i := range c.oldPassK {
			o, n := c.oldPassK[i], c.newPassK[i]
			fmt.Fprintf(bw, "pass@%d %.1f%% -> %.1f%% (%s), pass^%d %.1f%% -> %.1f%% (%s)\n",
				o.K, 100*o.PassAt, 100*n.PassAt, paintDelta(opts.Color, n.PassAt-o.PassAt),
				o.K, 100*o.PassHat, 100*n.PassHat, paintDelta(opts.Color, n.PassHat-o.PassHat))
		}
	}
	fmt.Fprintf(bw, "\n%d regressed, %d fixed, %d added, %d removed\n", len(c.regressed), len(c.fixed), len(c.added), len(c.removed))
	list := func(title, style string, changes []change) {
		if len(changes) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n%s:\n", paint(opts.Color, style, title))
		for _, ch := range changes {
			fmt.Fprintf(bw, "  %s  score %.3f -> %.3f", printable(ch.id), ch.oldScore, ch.newScore)
			if c.samples {
				fmt.Fprintf(bw, "  passed %d/%d -> %d/%d", ch.oldPassed, ch.oldSamples, ch.newPassed, ch.newSamples)
			}
			if len(ch.diffs) > 0 {
				d := ch.diffs[0]
				fmt.Fprintf(bw, "  %s", printable(string(d.Kind)))
				if d.Path != "" {
					fmt.Fprintf(bw, " %s", printable(d.Path))
				}
				if len(ch.diffs) > 1 {
					fmt.Fprintf(bw, " (+%d more)", len(ch.diffs)-1)
				}
			}
			fmt.Fprintln(bw)
		}
	}
	list("regressed (passed before, fail now)", ansiRed, c.regressed)
	list("fixed (failed before, pass now)", ansiGreen, c.fixed)
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
		for _, v := range cases[j].toolVerdicts() {
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
