package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/callgrade/callgrade/engine"
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
}

// Change is one case whose verdict changed.
type Change struct {
	ID, Tool           string
	OldScore, NewScore float64
	// Diffs are the new run's diffs, for a regression; the old run's, for a
	// fix.
	Diffs []engine.Diff
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
func Compare(old, new []Case) *Comparison {
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
		t := tally(tool)
		t.NewCases++
		cmp.All.NewCases++
		if n.Pass {
			t.NewPassed++
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
		t := tally(tool)
		t.OldCases++
		cmp.All.OldCases++
		if o.Pass {
			t.OldPassed++
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
	fmt.Fprintf(bw, "\n%d regressed, %d fixed, %d added, %d removed\n", len(c.Regressed), len(c.Fixed), len(c.Added), len(c.Removed))
	list := func(title, style string, changes []Change) {
		if len(changes) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n%s:\n", paint(opts.Color, style, title))
		for _, ch := range changes {
			fmt.Fprintf(bw, "  %s  score %.3f -> %.3f", ch.ID, ch.OldScore, ch.NewScore)
			if len(ch.Diffs) > 0 {
				d := ch.Diffs[0]
				fmt.Fprintf(bw, "  %s", d.Kind)
				if d.Path != "" {
					fmt.Fprintf(bw, " %s", d.Path)
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

func paint(color bool, style, s string) string {
	if !color {
		return s
	}
	return style + s + ansiReset
}
