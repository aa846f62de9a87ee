package report

import (
	_ "embed"
	"encoding/json"
	"io"
	"strings"
)

//go:embed compare.html
var comparePage string

// The verdict of a case across the two runs, as the page reads it.
const (
	cmpRegressed = iota
	cmpFixed
	cmpScore // same verdict, another score
	cmpSame
	cmpAdded   // only in the new run
	cmpRemoved // only in the old run
)

type htmlCompare struct {
	Old, New *htmlData
	// Rows are the cases of both runs: the old run's index (-1: none), the
	// new run's, and the verdict (cmp…); regressed first, then fixed,
	// then the rest in the new run's order, then those the new run lacks.
	Rows [][3]int `json:"rows"`
}

// WriteCompareHTML writes two runs of a suite as one self-contained HTML
// page, as callgrade diff --html does: both runs' metadata at the top, the
// cases regressed and fixed first, so labelled, each case's score in both
// runs and its delta, a filter to the changed cases only, and in each
// case's drill-down both runs' calls and diffs side by side (for an
// agent's runs, both timelines). Cases are matched by id; with samples,
// each case stands for its samples, as in Compare. Lines for responses
// that name no case are left out. oldMeta and newMeta are the runs'
// metadata, their Responses best set to the results files compared; the
// page is titled "callgrade diff: " and the new run's suite files.
func WriteCompareHTML(w io.Writer, old, new []Case, oldMeta, newMeta RunMeta) error {
	old, new = comparable(old, new)
	om, nm := oldMeta.fill(old), newMeta.fill(new)
	title := strings.Replace(pageTitle("", nm.Suites), "callgrade report", "callgrade diff", 1)
	od, err := newHTMLData(old, HTMLOptions{})
	if err != nil {
		return err
	}
	nd, err := newHTMLData(new, HTMLOptions{})
	if err != nil {
		return err
	}
	od.Meta, nd.Meta = om, nm
	od.Samples, nd.Samples = nil, nil
	d := htmlCompare{Old: od, New: nd, Rows: compareRows(old, new)}
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return writePage(w, comparePage, title, data)
}

// comparable is the two runs as Compare matches them: with samples in
// either, one case for each case's samples.
func comparable(old, new []Case) ([]Case, []Case) {
	drop := func(cs []Case) []Case {
		out := make([]Case, 0, len(cs))
		for _, c := range cs {
			if !c.unknown {
				out = append(out, c)
			}
		}
		return out
	}
	old, new = drop(old), drop(new)
	so, sn := samplesOf(old), samplesOf(new)
	if so == nil && sn == nil {
		return old, new
	}
	if so == nil {
		old = asSamples(old)
		so = samplesOf(old)
	}
	if sn == nil {
		new = asSamples(new)
		sn = samplesOf(new)
	}
	oc, nc := collapse(old, so), collapse(new, sn)
	for i := range oc {
		oc[i].Sampled = false
	}
	for i := range nc {
		nc[i].Sampled = false
	}
	return oc, nc
}

func compareRows(old, new []Case) [][3]int {
	before := make(map[string]int, len(old))
	for i := range old {
		if _, ok := before[old[i].ID]; !ok {
			before[old[i].ID] = i
		}
	}
	var reg, fix, rest, gone [][3]int
	seen := make([]bool, len(old))
	for j := range new {
		i, ok := before[new[j].ID]
		if !ok {
			rest = append(rest, [3]int{-1, j, cmpAdded})
			continue
		}
		seen[i] = true
		o, n := &old[i], &new[j]
		switch {
		case o.Pass && !n.Pass:
			reg = append(reg, [3]int{i, j, cmpRegressed})
		case !o.Pass && n.Pass:
			fix = append(fix, [3]int{i, j, cmpFixed})
		case o.Score != n.Score:
			rest = append(rest, [3]int{i, j, cmpScore})
		default:
			rest = append(rest, [3]int{i, j, cmpSame})
		}
	}
	for i := range old {
		if !seen[i] {
			gone = append(gone, [3]int{i, -1, cmpRemoved})
		}
	}
	rows := append(append(append(reg, fix...), rest...), gone...)
	if rows == nil {
		rows = [][3]int{}
	}
	return rows
}
