package engine

import (
	"slices"
	"strconv"

	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// matcher pairs one list of expected calls with a response's calls, with
// one method per calls mode, and assembles the pairing into a Result: its
// calls, its diffs and its score. evaluate makes one for each list.
type matcher struct {
	e     *Engine
	c     *compiledCase
	calls []response.Call
	*lent

	pairs   []int     // pairs[a]: the actual call of expected call a, or -1
	pr      []pairing // pr[a]: what comparing expected call a with its call found
	matched []bool    // matched[b]: actual call b pairs with an expected call
	all     []verdict // the verdicts weighed, expected-major (n·m)
	used    []bool    // used[b]: actual call b is taken (takeFirst)
}

// lent is what a matcher hands on to the comparisons and the diffs, which
// keep it. It sits behind a pointer, apart from the matcher's other
// fields, because escape analysis does not tell a struct's fields apart:
// beside them, it would move the actual calls and the bookkeeping's
// arrays, which stay on evaluate's stack and its caller's, onto the heap.
type lent struct {
	mode suite.CallMatch // its string goes into the diffs
	exp  []compiledCall
	w    *work    // may be nil: what it would lend is then allocated
	rv   *runView // the run the calls are of, for a run case; else nil
}

// pair pairs the expected calls with the actual ones as the mode says.
func (mt *matcher) pair() {
	n, m := len(mt.exp), len(mt.calls)
	switch mode := mt.mode; {
	case mode == suite.CallsInOrder || mode == suite.CallsOrdered && mt.rv != nil && mt.rv.steps():
		mt.inOrder() // align.go
	case mode == suite.CallsOrdered || n == 0 || m == 0 || n == 1 && m == 1 && mode != suite.CallsSuperset && mode != suite.CallsSubset:
		// One call against one: every mode pairs them (greedy's leftover
		// assignment too), and the pair is compared once, as in order.
		mt.ordered()
	case mode == suite.CallsGreedy:
		mt.greedy()
	default:
		mt.unordered() // superset and subset too
	}
}

// ordered pairs in `calls: ordered` mode: expected call k with actual call k.
func (mt *matcher) ordered() {
	for k := range mt.pairs {
		mt.pairs[k] = -1
		if k < len(mt.calls) {
			mt.pairs[k] = k
			mt.pr[k] = mt.e.compare(&mt.exp[k], &mt.calls[k], mt.w, mt.rv, k)
		}
	}
}

// unordered pairs in `calls: unordered`, `superset` and `subset` modes:
// the assignment that maximises the summed weights of its pairs (see
// weight), or the one allPass finds when every expected call passes.
// Where calls may be left out or added (superset, subset), a pair whose
// tool names differ is split.
func (mt *matcher) unordered() {
	e, exp, calls, pairs, w, rv := mt.e, mt.exp, mt.calls, mt.pairs, mt.w, mt.rv
	n, m := len(exp), len(calls)
	all := w.verdicts(n * m)
	mt.all = all
	if n <= m && !e.exhaustive && mt.allPass() {
		return
	}
	// Every pair is weighed, quietly (those allPass weighed once); only
	// the pairs chosen are compared again to say what is wrong with them.
	for a := range n {
		for b := range m {
			if p := &all[a*m+b]; !p.weighed {
				*p = e.weigh(&exp[a], &calls[b], rv, b, w, false)
			}
		}
	}
	best, _ := w.assign(n, m, mt.weight)
	copy(pairs, best)
	for a, b := range pairs {
		switch {
		case b < 0:
		case mt.mode != suite.CallsUnordered && exp[a].name != calls[b].Name:
			// Where calls may be left out or added, a call to another
			// tool is that, not a wrong version of the expected one.
			pairs[a] = -1
		case all[a*m+b].pass:
			mt.pr[a] = pairing{pass: true, score: all[a*m+b].score}
		default:
			mt.pr[a] = e.compare(&exp[a], &calls[b], w, rv, b)
		}
	}
}

// weight is what pairing expected call a with actual call b weighs in
// unordered's assignment. The summed score decides; between equal sums,
// more passing pairs, then more pairs whose tool names agree, so that a
// wrong call pairs with the call it was meant to be.
func (mt *matcher) weight(a, b int) float64 {
	p := &mt.all[a*len(mt.calls)+b]
	w := p.score
	if p.pass {
		w += 1e-6
	}
	if mt.exp[a].name == mt.calls[b].Name {
		w += 1e-7
	}
	return w
}

// allPass tries the pairing that the optimal assignment gives when every
// expected call has a passing actual call: each expected call in order
// takes the first passing actual call not yet taken. If that pairs them
// all (n <= m), no assignment weighs more (each pair weighs its most), and
// among those that weigh as much it is the one assign picks, the
// lexicographically smallest: each row's column is the smallest that
// still leaves a passing pairing for the rows after it, and the one found
// here does. Then pairs and pr hold it and allPass reports true; n weighs
// when the calls come in the expected order, instead of n·m and an
// assignment.
func (mt *matcher) allPass() bool {
	mt.used, _ = mt.w.greedyBufs(len(mt.calls), 0)
	return mt.takeFirst(true, false) == 0
}

// takeFirst gives each expected call in order the first actual call not
// yet used that passes against it (with sameName, only the calls to its
// tool are tried), keeping each verdict it weighs in all, and returns how
// many expected calls it left without one (pairs -1). quick weighs each
// pair only as far as its verdict (see weigh).
func (mt *matcher) takeFirst(sameName, quick bool) int {
	e, exp, calls, pairs, pr, all, used, w, rv := mt.e, mt.exp, mt.calls, mt.pairs, mt.pr, mt.all, mt.used, mt.w, mt.rv
	m, left := len(calls), 0
	for a := range exp {
		pairs[a] = -1
		for b := range calls {
			if used[b] || sameName && exp[a].name != calls[b].Name {
				continue
			}
			v := e.weigh(&exp[a], &calls[b], rv, b, w, quick)
			all[a*m+b] = v
			if v.pass {
				pairs[a], pr[a], used[b] = b, pairing{pass: true, score: v.score}, true
				break
			}
		}
		if pairs[a] < 0 {
			left++
		}
	}
	return left
}

// greedy pairs in `calls: greedy` mode: each expected call in order takes
// the first actual call not yet taken that passes against it. The expected
// calls left without one are then paired with the actual calls left over
// as `unordered` pairs them, only to report what is wrong with them.
func (mt *matcher) greedy() {
	e, exp, calls, pairs, pr, w, rv := mt.e, mt.exp, mt.calls, mt.pairs, mt.pr, mt.w, mt.rv
	n, m := len(exp), len(calls)
	used, rest := w.greedyBufs(m, n+m)
	// all keeps what the first pass weighs: an expected call left without
	// a call has been found failing against every call left over, quickly,
	// so the pairing of the rest weighs those pairs in full only when it
	// has a choice to make.
	all := w.verdicts(n * m)
	mt.used, mt.all = used, all
	mt.takeFirst(false, true)
	restA := rest[:0:n]
	for a := range n {
		if pairs[a] < 0 {
			restA = append(restA, a)
		}
	}
	restB := rest[n:n]
	for b := range m {
		if !used[b] {
			restB = append(restB, b)
		}
	}
	switch {
	case len(restA) == 0 || len(restB) == 0:
		return
	case len(restA) == 1 && len(restB) == 1:
		// The only pairing there is, as assign would find it.
		a, b := restA[0], restB[0]
		pairs[a], pr[a] = b, e.compare(&exp[a], &calls[b], w, rv, b)
		return
	}
	best, _ := w.assign(len(restA), len(restB), func(i, j int) float64 {
		a, b := restA[i], restB[j]
		v := &all[a*m+b]
		if !v.weighed {
			*v = e.weigh(&exp[a], &calls[b], rv, b, w, false)
		}
		s := v.score
		if exp[a].name == calls[b].Name {
			s += 1e-7
		}
		return s
	})
	for i, j := range best {
		if j >= 0 {
			a, b := restA[i], restB[j]
			pairs[a], pr[a] = b, e.compare(&exp[a], &calls[b], w, rv, b)
		}
	}
}

// assemble writes the pairing into r: a results.CallResult for each pair and for
// each call left out that counts, with their diffs, and the case's score,
// its pass and the sums it comes from.
func (mt *matcher) assemble(r *results.Result) {
	sum, counted := mt.writePairs(r)
	extra := 0
	for b := range mt.calls {
		if !mt.matched[b] && mt.writeExtra(r, b) {
			extra++
		}
	}
	// The case's score: summed call scores over max(expected, actual), with
	// the calls the mode tolerates left out of both counts.
	den := max(counted, matchedCount(mt.matched)+extra)
	if den == 0 {
		r.Score = 1
	} else {
		r.Score = sum / float64(den)
	}
	if mt.rv != nil {
		mt.rv.sum, mt.rv.den = sum, den
	}
	r.Pass = len(r.Diffs) == 0
}

// writePairs writes each expected call into r, with its actual call or
// as missing, and returns the summed scores of the pairs and how many
// expected calls count in the score.
func (mt *matcher) writePairs(r *results.Result) (sum float64, counted int) {
	for a, b := range mt.pairs {
		if b < 0 {
			if mt.mode == suite.CallsSubset {
				continue // a subset may leave expected calls out
			}
			mt.writeMissing(r, a)
			counted++
			continue
		}
		mt.matched[b] = true
		idx := len(r.Calls)
		p := &mt.pr[a]
		r.Calls = append(r.Calls, results.CallResult{Expected: a, Actual: b, Pass: p.pass, Score: p.score})
		for k := range p.diffs {
			// Marked where it lands: a diff is some twenty words, which
			// a copy to mark before appending moved twice.
			r.Diffs = append(r.Diffs, p.diffs[k])
			d := &r.Diffs[len(r.Diffs)-1]
			d.Call = idx
			mt.rv.mark(d, b)
		}
		sum += p.score
		counted++
	}
	return sum, counted
}

// writeMissing writes expected call a, which pairs with no actual call,
// into r with its missing_call diff.
func (mt *matcher) writeMissing(r *results.Result, a int) {
	name := mt.exp[a].name
	idx := len(r.Calls)
	r.Calls = append(r.Calls, results.CallResult{Expected: a, Actual: -1})
	var msg string
	if t := mt.exp[a].tool; t != nil && t.missing != "" {
		msg = t.missing // the tool of the call's name
	} else {
		msg = missingCallMessage(name)
	}
	if mt.mode == suite.CallsInOrder {
		if b := unpairedCall(name, mt.calls, mt.pairs); b >= 0 {
			// The call was made, where the order does not let it count.
			msg = "expected a call to " + name + " in its order, got none there (call " + strconv.Itoa(b) + " is to " + name + ", out of that order)"
		}
	}
	r.Diffs = append(r.Diffs, results.Diff{Kind: results.MissingCall,
		Expected: value.StringOf(name), HasExpected: true, Rule: string(mt.mode),
		Message: msg, Call: idx})
}

// missingCallMessage words the missing_call diff of an expected call to
// name.
func missingCallMessage(name string) string { return "expected a call to " + name + ", got none" }

// writeExtra writes actual call b, which pairs with no expected call,
// into r when it counts against the case: when the mode does not tolerate
// it, or when something is wrong with it besides being there. It reports
// whether it did.
func (mt *matcher) writeExtra(r *results.Result, b int) bool {
	// superset tolerates calls beyond the expected ones, but a list
	// that expects no call passes only with none (spec 3); any,
	// callgrade's own, tolerates every call (anycalls.go). A call it
	// tolerates must still be usable and valid for its tool: spec 2
	// makes unusable arguments a failure of the call whatever the
	// mode, never a silent pass, and 1.2 reports every actual
	// argument the schema rejects.
	tolerated := (mt.mode == suite.CallsSuperset || mt.mode == suite.CallsInOrder) && len(mt.exp) > 0 || mt.mode == suite.CallsAny
	ac := &mt.calls[b]
	t := mt.c.input.tool(ac.Name)
	start := len(r.Diffs)
	if !tolerated {
		r.Diffs = append(r.Diffs, results.Diff{Kind: results.UnexpectedCall,
			Actual: value.StringOf(ac.Name), HasActual: true, Rule: string(mt.mode),
			Message: unexpectedCallMessage(ac, t, len(mt.exp), mt.w.arena())})
	}
	r.Diffs = mt.c.unpaired(ac, t, mt.w, r.Diffs)
	if len(r.Diffs) == start {
		return false
	}
	var left leftOut
	r.Diffs = left.trim(r.Diffs, start, mt.e.maxDiffs())
	r.Diffs = left.summary(r.Diffs, mt.e.maxDiffs())
	idx := len(r.Calls)
	r.Calls = append(r.Calls, results.CallResult{Expected: -1, Actual: b})
	for k := start; k < len(r.Diffs); k++ {
		r.Diffs[k].Call = idx
		mt.rv.mark(&r.Diffs[k], b)
	}
	return true
}

// unpairedCall returns the first of calls to name that pairs holds no
// expected call with, or -1.
func unpairedCall(name string, calls []response.Call, pairs []int) int {
	for b := range calls {
		if calls[b].Name == name && !slices.Contains(pairs, b) {
			return b
		}
	}
	return -1
}

func matchedCount(m []bool) int {
	k := 0
	for _, b := range m {
		if b {
			k++
		}
	}
	return k
}
