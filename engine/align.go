package engine

import (
	"sync"
)

// alignEps is how close two summed weights must be to count as a tie. The
// weights are pair scores (shares of arguments) plus the 1e-6 and 1e-7
// bonuses of matcher.weight, so that real differences are far larger.
const alignEps = 1e-9

// alignBuf is the memory one alignment uses.
type alignBuf struct {
	weight []float64 // n*m; < 0: the pair may not be aligned
	best   []float64 // (n+1)*(m+1)
	verd   []verdict // n*m
}

var alignPool = sync.Pool{New: func() any { return new(alignBuf) }}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// alignWeights computes the monotone alignment of n expected with m actual
// items that maximises the summed weights of its pairs: pairs[a] is the
// actual item of expected a, or -1, and the actual items of the pairs
// increase with a. A pair whose weight is < 0 is never aligned. Among
// alignments of equal sums (within alignEps), the one chosen is the first
// in this order, decided from the first expected and actual items on: an
// expected item takes the earliest actual item that still leaves an
// optimal alignment; failing that the actual item is skipped, so that the
// expected item may take a later one; an expected item is left out only
// when neither leaves an optimal alignment. It returns the sum.
//
// It runs in O(n·m) time, in best, which must hold (n+1)·(m+1).
func alignWeights(n, m int, weight func(a, b int) float64, best []float64, pairs []int) float64 {
	stride := m + 1
	// best[a*stride+b] is the largest sum of an alignment of exp[a:] with
	// act[b:].
	for b := 0; b <= m; b++ {
		best[n*stride+b] = 0
	}
	for a := n - 1; a >= 0; a-- {
		best[a*stride+m] = 0
		for b := m - 1; b >= 0; b-- {
			v := max(best[(a+1)*stride+b], best[a*stride+b+1])
			if w := weight(a, b); w >= 0 {
				v = max(v, w+best[(a+1)*stride+b+1])
			}
			best[a*stride+b] = v
		}
	}
	a, b := 0, 0
	for a < n {
		if b == m {
			pairs[a] = -1
			a++
			continue
		}
		here := best[a*stride+b]
		if w := weight(a, b); w >= 0 && w+best[(a+1)*stride+b+1] >= here-alignEps {
			pairs[a] = b
			a, b = a+1, b+1
			continue
		}
		if best[a*stride+b+1] >= here-alignEps {
			b++
			continue
		}
		pairs[a] = -1
		a++
	}
	return best[0]
}

// inOrder pairs in `calls: in_order` mode (and `ordered` for a case of
// steps): the monotone alignment that maximises the summed pair weights
// of unordered (the score, then a pass, then agreeing names), where only
// calls to the same tool are aligned. Calls the alignment leaves out are
// missing or unexpected ones, as the mode says.
func (mt *matcher) inOrder() {
	if !mt.allInOrder() {
		mt.align()
	}
}

// allInOrder gives each expected call in order the first passing call to
// its tool after the previous one's, and reports whether every expected
// call found one. Then it is the alignment alignWeights would choose: no
// alignment weighs more (each pair weighs its most and every expected
// call is paired), and at each expected call the earliest passing call
// leaves the rest alignable if any does.
func (mt *matcher) allInOrder() bool {
	e, exp, calls, pairs, pr, w, rv := mt.e, mt.exp, mt.calls, mt.pairs, mt.pr, mt.w, mt.rv
	n, m := len(exp), len(calls)
	b := 0
	all := true
	for a := 0; a < n && all; a++ {
		pairs[a] = -1
		for ; b < m; b++ {
			if calls[b].Name != exp[a].name {
				continue
			}
			if v := e.weigh(&exp[a], &calls[b], rv, b, w, true); v.pass {
				pairs[a], pr[a] = b, pairing{pass: true, score: v.score}
				b++
				break
			}
		}
		all = pairs[a] >= 0
	}
	return all
}

// align pairs as alignWeights aligns, with every pair of calls to the
// same tool weighed.
func (mt *matcher) align() {
	e, exp, calls, pairs, pr, w, rv := mt.e, mt.exp, mt.calls, mt.pairs, mt.pr, mt.w, mt.rv
	n, m := len(exp), len(calls)
	buf := alignPool.Get().(*alignBuf)
	defer alignPool.Put(buf)
	buf.weight = grow(buf.weight, n*m)
	buf.verd = grow(buf.verd, n*m)
	buf.best = grow(buf.best, (n+1)*(m+1))
	for a := range n {
		for b := range m {
			k := a*m + b
			if exp[a].name != calls[b].Name {
				buf.weight[k] = -1
				continue
			}
			v := e.weigh(&exp[a], &calls[b], rv, b, w, false)
			buf.verd[k] = v
			buf.weight[k] = v.score + 1e-7
			if v.pass {
				buf.weight[k] += 1e-6
			}
		}
	}
	alignWeights(n, m, func(a, b int) float64 { return buf.weight[a*m+b] }, buf.best, pairs)
	for a, b := range pairs {
		switch {
		case b < 0:
		case buf.verd[a*m+b].pass:
			pr[a] = pairing{pass: true, score: buf.verd[a*m+b].score}
		default:
			pr[a] = e.compare(&exp[a], &calls[b], w, rv, b)
		}
	}
}
