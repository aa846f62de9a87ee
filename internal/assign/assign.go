// Package assign solves the assignment problem: pairing rows with columns so
// that the summed weight of the pairs is as large as possible.
//
// The scorer uses it wherever "which expected thing goes with which actual
// thing" must not depend on the order things were written in: the elements
// of an unordered list, the calls of an unordered case. A greedy pairing
// (each row takes its best free column) can lose a perfect pairing that
// exists, so the exact Hungarian method is used.
package assign

import "math"

// Max returns the assignment of rows 0..n-1 to columns 0..m-1 that
// maximises the summed weight, and that sum. pairs[i] is the column of row
// i, or -1 when row i has none, which happens only when n > m. Every
// column is used when n >= m and every row is paired when n <= m: weights
// are >= 0, so pairing never costs anything. Callers that only want pairs
// of positive weight filter them themselves.
//
// weight is called exactly once for every (i, j), in row-major order. It
// must return a finite number >= 0; a negative or NaN weight counts as 0.
//
// Among the assignments with the largest sum, Max returns the
// lexicographically smallest: row 0 takes the lowest column it can, then
// row 1, and so on, with "no column" (-1) ranking after every column. The
// result therefore depends on the matrix alone. Sums that differ by less
// than about 1e-9 times the largest weight count as ties, so that the
// order floating-point sums are taken in cannot change the answer.
//
// It runs in O(k³) time for k = max(n, m) and allocates O(k²).
func Max(n, m int, weight func(i, j int) float64) (pairs []int, total float64) {
	var s Solver
	return s.Max(n, m, weight)
}

// Solver solves assignment problems one after another in the same memory,
// for a caller that solves millions of small ones: Max allocates nothing
// once the Solver has held a problem as large. The pairs it returns are
// valid until its next Max. The zero Solver is ready to use; a Solver must
// not be used by two goroutines at once.
type Solver struct {
	floats []float64
	ints   []int
	bools  []bool
}

// take returns the next n elements of *buf, from *used on; buf grows as
// needed (the caller takes everything it needs before writing).
func take[T any](buf *[]T, used *int, n int) []T {
	if cap(*buf) < *used+n {
		grown := make([]T, *used+n, 2*(*used+n))
		*buf = grown
	}
	*buf = (*buf)[:cap(*buf)]
	out := (*buf)[*used : *used+n : *used+n]
	clear(out)
	*used += n
	return out
}

// Max is the package's Max, in the Solver's memory.
func (s *Solver) Max(n, m int, weight func(i, j int) float64) (pairs []int, total float64) {
	return s.max(n, m, weight, true)
}

// max is Max; small says whether a small square problem may be solved by
// trying every assignment (see byPermutation).
func (s *Solver) max(n, m int, weight func(i, j int) float64, small bool) (pairs []int, total float64) {
	if n <= 0 {
		return []int{}, 0
	}
	k := max(n, m, 1)
	// Size every buffer first: take may move a buffer while it grows.
	nf, ni, nb := 2*k*k+3*(k+1), n+7*k+2*(k+1), 2*(k+1)
	if cap(s.floats) < nf {
		s.floats = make([]float64, nf)
	}
	if cap(s.ints) < ni {
		s.ints = make([]int, ni)
	}
	if cap(s.bools) < nb {
		s.bools = make([]bool, nb)
	}
	var f, i, b int
	pairs = take(&s.ints, &i, n)
	if m <= 0 {
		for r := range pairs {
			pairs[r] = -1
		}
		return pairs, 0
	}
	// Pad to a k×k square with zero weights: a padding column stands for
	// "no column", a padding row for "no row".
	w := take(&s.floats, &f, k*k)
	top := 0.0
	for r := 0; r < n; r++ {
		for c := 0; c < m; c++ {
			x := weight(r, c)
			if !(x > 0) { // negative or NaN
				x = 0
			}
			w[r*k+c] = x
			top = max(top, x)
		}
	}
	// Sums that differ by less than eps count as ties (see Max).
	eps := 1e-9 * max(top, 1) * float64(k)
	if small && n == m && k <= maxSmall {
		if total, ok := byPermutation(k, w, eps, pairs); ok {
			return pairs, total
		}
	}
	// Minimise cost = top - weight, which is >= 0.
	cost := take(&s.floats, &f, k*k)
	for r := range cost {
		cost[r] = top - w[r]
	}
	h := hungarianWork{
		u: take(&s.floats, &f, k+1), v: take(&s.floats, &f, k+1), minv: take(&s.floats, &f, k+1),
		p: take(&s.ints, &i, k+1), way: take(&s.ints, &i, k+1), used: take(&s.bools, &b, k+1),
		rowOf: take(&s.ints, &i, k),
	}
	rowOf, u, v := hungarian(k, cost, &h)
	col := take(&s.ints, &i, k)
	for j := 0; j < k; j++ {
		col[rowOf[j]] = j
	}
	// An assignment is optimal exactly when it uses only edges whose
	// reduced cost under the optimal duals is zero (complementary
	// slackness). Among the perfect matchings of those tight edges, pick
	// the lexicographically smallest.
	tight := func(r, c int) bool { return cost[r*k+c]-u[r]-v[c] <= eps }
	lex := lexWork{rowOf: take(&s.ints, &i, k), next: take(&s.ints, &i, k), queue: take(&s.ints, &i, k), reach: take(&s.bools, &b, k)}
	lexSmallest(k, n, col, tight, &lex)
	for r := 0; r < n; r++ {
		if c := col[r]; c < m {
			pairs[r] = c
			total += w[r*k+c]
		} else {
			pairs[r] = -1
		}
	}
	return pairs, total
}

// maxSmall is the largest side of a square problem byPermutation solves:
// 24 assignments of four rows, against the general method's set-up, which
// costs more than trying them all for the few calls of a case.
const maxSmall = 4

// permutations lists the assignments of a square problem of side k, for
// each k up to maxSmall.
var permutations = [maxSmall + 1][][maxSmall]uint8{1: permute(1), 2: permute(2), 3: permute(3), 4: permute(4)}

// permute returns every ordering of 0..k-1.
func permute(k int) [][maxSmall]uint8 {
	var out [][maxSmall]uint8
	var p [maxSmall]uint8
	var used [maxSmall]bool
	var rec func(r int)
	rec = func(r int) {
		if r == k {
			out = append(out, p)
			return
		}
		for c := range k {
			if !used[c] {
				used[c], p[r] = true, uint8(c)
				rec(r + 1)
				used[c] = false
			}
		}
	}
	rec(0)
	return out
}

// byPermutation solves a square problem of side k <= maxSmall, its
// weights w (clamped, row-major), by summing every assignment, when one
// sums more than every other by a clear margin: then it is the general
// method's answer too, since every other assignment holds an edge that is
// not tight under optimal duals (its reduced costs sum to the margin, more
// than k times eps, the general method's tolerance of an edge). Otherwise
// ok is false, and the ties are left to the general method's
// tie-breaking. One row and one column, which callers meet most (the one
// call left without a match and the one call left over), take no more.
func byPermutation(k int, w []float64, eps float64, pairs []int) (total float64, ok bool) {
	best, second, at := math.Inf(-1), math.Inf(-1), 0
	for i, p := range permutations[k] {
		sum := 0.0
		for r := range k {
			sum += w[r*k+int(p[r])]
		}
		switch {
		case sum > best:
			best, second, at = sum, best, i
		case sum > second:
			second = sum
		}
	}
	// Four times the general method's tolerance, for the sums' rounding.
	if best-second <= 4*float64(k)*eps {
		return 0, false
	}
	p := permutations[k][at]
	for r := range k {
		pairs[r] = int(p[r])
		total += w[r*k+pairs[r]]
	}
	return total, true
}

// hungarianWork is hungarian's memory: five slices of k+1 and one of k.
type hungarianWork struct {
	u, v, minv []float64
	p, way     []int
	used       []bool
	rowOf      []int
}

// lexWork is lexSmallest's memory: slices of k.
type lexWork struct {
	rowOf, next, queue []int
	reach              []bool
}

// hungarian minimises the cost of a perfect matching of a k×k matrix
// (Kuhn–Munkres with potentials, O(k³)). It returns the row matched to each
// column and the dual potentials u (rows) and v (columns), for which
// cost[i][j]-u[i]-v[j] >= 0 everywhere, with equality on the matching.
func hungarian(k int, cost []float64, h *hungarianWork) (rowOf []int, u, v []float64) {
	// 1-based internally: index 0 is the virtual start column.
	uu, vv, minv := h.u, h.v, h.minv
	p, way, used := h.p, h.way, h.used // p[j]: row matched to column j, 0 for none
	for i := 1; i <= k; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := math.Inf(1)
			j1 := 0
			for j := 1; j <= k; j++ {
				if used[j] {
					continue
				}
				cur := cost[(i0-1)*k+j-1] - uu[i0] - vv[j]
				if cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= k; j++ {
				if used[j] {
					uu[p[j]] += delta
					vv[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	rowOf = h.rowOf
	for j := 1; j <= k; j++ {
		rowOf[j-1] = p[j] - 1
	}
	return rowOf, uu[1:], vv[1:]
}

// lexSmallest turns the perfect matching col (row -> column) of the graph of
// tight edges into the lexicographically smallest perfect matching of that
// graph, fixing rows 0..n-1 in turn; rows n.. are padding and never
// fixed. Row i can take column c, held by row r, exactly when r can reach
// i through unfixed rows, each taking the column of the next: that
// rotation frees col[i] for the last one. One search per row keeps the
// whole pass O(k³).
func lexSmallest(k, n int, col []int, tight func(i, j int) bool, lw *lexWork) {
	rowOf := lw.rowOf
	for i, c := range col {
		rowOf[c] = i
	}
	next := lw.next // next[r]: the row whose column r takes
	reach := lw.reach
	queue := lw.queue[:0]
	for i := 0; i < n; i++ {
		// Rows that can reach i: search backwards from i.
		for r := range reach {
			reach[r] = false
		}
		reach[i] = true
		next[i] = -1
		queue = append(queue[:0], i)
		for q := 0; q < len(queue); q++ {
			t := queue[q]
			for r := i + 1; r < k; r++ {
				if !reach[r] && tight(r, col[t]) {
					reach[r] = true
					next[r] = t
					queue = append(queue, r)
				}
			}
		}
		best := col[i]
		for c := 0; c < best; c++ {
			if r := rowOf[c]; r >= i && reach[r] && tight(i, c) {
				best = c
				break
			}
		}
		if best == col[i] {
			continue
		}
		// Rotate: i takes best; along r -> next[r] -> ... -> i each row
		// takes the old column of the next one.
		r := rowOf[best]
		for r != i {
			t := next[r]
			col[r] = col[t]
			rowOf[col[r]] = r
			r = t
		}
		col[i] = best
		rowOf[best] = i
	}
}
