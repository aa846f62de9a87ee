package results

import "slices"

// ToolVerdict is how one tool fared in a case: the verdict and score a
// summary's by-tool row counts for it.
type ToolVerdict struct {
	Tool  string
	Pass  bool
	Score float64
}

// StepVerdicts returns how each tool fared in a case written with steps
// (an agent's run), whose step j calls tools[j], from the case's pairs
// (Result.Calls): one verdict per tool, in the order of its first step.
// A tool passes when each of its steps was paired with a call that
// passes; its score is the mean of its steps' pair scores, 0 for a step
// paired with no call. What the run fails as a whole (a forbidden call,
// too many calls, its final answer, a call no step expects) is no tool's
// and counts in none. A case of no steps has no verdicts.
//
// Summaries count a steps case so, once under each tool its steps call,
// where an `expected` case counts once under its first expected tool with
// its own verdict: a run that finds an order and then refunds the wrong
// one passes for find_order and fails for refund.
func StepVerdicts(tools []string, calls []CallResult) []ToolVerdict {
	var out []ToolVerdict
	stepVerdicts(len(tools), func(j int) string { return tools[j] }, calls, func(v ToolVerdict) { out = append(out, v) })
	return out
}

// stepVerdicts is StepVerdicts for n steps whose tools name gives, each
// verdict handed to yield.
func stepVerdicts(n int, name func(int) string, calls []CallResult, yield func(ToolVerdict)) {
	if n == 0 {
		return
	}
	type acc struct {
		first int // the tool's first step
		pass  bool
		sum   float64
		steps int // paired or not
	}
	var small [8]acc
	accs := small[:0]
	var names []string // of accs
	var index map[string]int
	find := func(j int) *acc {
		tool := name(j)
		if index != nil {
			if k, ok := index[tool]; ok {
				return &accs[k]
			}
		} else if k := slices.Index(names, tool); k >= 0 {
			return &accs[k]
		}
		accs = append(accs, acc{first: j, pass: true})
		names = append(names, tool)
		if index != nil || len(names) > 16 {
			if index == nil {
				index = make(map[string]int, len(names))
				for k, t := range names {
					index[t] = k
				}
			}
			index[tool] = len(names) - 1
		}
		return &accs[len(accs)-1]
	}
	var paired []bool // by step, made only when a step has no pair
	seen := 0
	for _, c := range calls {
		if c.Expected < 0 || c.Expected >= n {
			continue
		}
		a := find(c.Expected)
		a.first = min(a.first, c.Expected)
		a.pass = a.pass && c.Pass
		a.sum += c.Score
		a.steps++
		seen++
	}
	if seen < n {
		paired = make([]bool, n)
		for _, c := range calls {
			if c.Expected >= 0 && c.Expected < n {
				paired[c.Expected] = true
			}
		}
		for j, ok := range paired {
			if !ok {
				a := find(j)
				a.first = min(a.first, j)
				a.pass = false
				a.steps++
			}
		}
	}
	order := make([]int, len(accs))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return accs[a].first - accs[b].first })
	for _, k := range order {
		a := &accs[k]
		yield(ToolVerdict{Tool: names[k], Pass: a.pass, Score: a.sum / float64(a.steps)})
	}
}
