package bfcl

// CategoryScore is the score of one BFCL category, named as BFCL's score
// files name it (simple_python, live_irrelevance, web_search_base,
// memory_kv, ...): its cases and the cases that passed.
type CategoryScore struct {
	Category string
	Cases    int
	Passed   int
}

// accuracy is the share of the category's cases that passed, 0 when it
// has none.
func (c CategoryScore) accuracy() float64 {
	if c.Cases == 0 {
		return 0
	}
	return float64(c.Passed) / float64(c.Cases)
}

// overall is BFCL v4's overall accuracy over the categories scored
// (DirScore.Overall says how it is taken).
type overall struct {
	accuracy float64
	// covered and missing list the categories of the formula that were
	// scored and that were not, in the formula's order.
	covered, missing []string
}

// mean says how a node of the formula averages its parts.
type mean int

const (
	unweighted mean = iota // each part counts once
	weighted               // each part counts by its cases
	fixed                  // each part counts by its weight in node.weights
)

// node is a part of BFCL v4's overall formula: a category, or a mean of
// parts.
type node struct {
	category string
	how      mean
	parts    []node
	weights  []float64 // fixed: one for each part
}

func leaf(c string) node               { return node{category: c} }
func avg(how mean, parts ...node) node { return node{how: how, parts: parts} }
func leaves(how mean, cs ...string) node {
	n := node{how: how}
	for _, c := range cs {
		n.parts = append(n.parts, leaf(c))
	}
	return n
}

// overallFormula is generate_leaderboard_csv of BFCL v4's
// eval_runner_helper.py (docs/bfcl.md, "The overall figure", cites the
// commit): the overall figure weighs non-live 10, live 10, irrelevance
// 10, multi-turn 30 and agentic 40 (calculate_percentage_weighted_accuracy).
// Non-live is the unweighted mean of simple (the unweighted mean of
// Python, Java and JavaScript), multiple, parallel and parallel_multiple;
// live the mean of its four AST categories weighted by their cases;
// irrelevance the unweighted mean of irrelevance and live_irrelevance;
// multi-turn the unweighted mean of its four; agentic the unweighted mean
// of web_search (the unweighted mean of its two variants) and memory (of
// its three back-ends). live_relevance is a column of the leaderboard,
// in no part of the overall figure.
var overallFormula = node{how: fixed, weights: []float64{10, 10, 10, 30, 40}, parts: []node{
	avg(unweighted,
		leaves(unweighted, "simple_python", "simple_java", "simple_javascript"),
		leaf("multiple"), leaf("parallel"), leaf("parallel_multiple")),
	leaves(weighted, "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple"),
	leaves(unweighted, "irrelevance", "live_irrelevance"),
	leaves(unweighted, "multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context"),
	avg(unweighted,
		leaves(unweighted, "web_search_base", "web_search_no_snippet"),
		leaves(unweighted, "memory_kv", "memory_vector", "memory_rec_sum")),
}}

// formulaCategories returns the categories of BFCL v4's overall figure, in the
// leaderboard's order. The slice is the caller's.
func formulaCategories() []string {
	var out []string
	var walk func(n node)
	walk = func(n node) {
		if n.category != "" {
			out = append(out, n.category)
		}
		for _, p := range n.parts {
			walk(p)
		}
	}
	walk(overallFormula)
	return out
}

// overallAccuracy computes BFCL v4's overall figure from the scores of
// the categories given, as the leaderboard averages them, over those the
// formula has; a category of the formula not among them is left out of
// every mean it belongs to and listed as missing. A score of a category
// the formula lacks counts for nothing.
func overallAccuracy(scores []CategoryScore) overall {
	by := make(map[string]CategoryScore, len(scores))
	for _, s := range scores {
		by[s.Category] = s
	}
	var o overall
	for _, c := range formulaCategories() {
		if _, ok := by[c]; ok {
			o.covered = append(o.covered, c)
		} else {
			o.missing = append(o.missing, c)
		}
	}
	o.accuracy, _, _ = overallFormula.eval(by)
	return o
}

// eval returns the node's accuracy, its cases, and whether any category
// below it was scored.
func (n node) eval(by map[string]CategoryScore) (acc float64, cases int, ok bool) {
	if n.category != "" {
		s, ok := by[n.category]
		return s.accuracy(), s.Cases, ok
	}
	var sum, weight float64
	for i, p := range n.parts {
		a, c, scored := p.eval(by)
		if !scored {
			continue
		}
		ok = true
		w := 1.0
		switch n.how {
		case weighted:
			w = float64(c)
		case fixed:
			w = n.weights[i]
		}
		sum += a * w
		weight += w
		cases += c
	}
	if weight == 0 {
		return 0, cases, ok // nothing scored, or only categories of no cases
	}
	return sum / weight, cases, true
}
