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
	if n <= 0 {
		return []int{}, 0
	}
	pairs = make([]int, n)
	if m <= 0 {
		for i := range pairs {
			pairs[i] = -1
		}
		return pairs, 0
	}
	k := max(n, m)
	// Pad to a k×k square with zero weights: a padding column stands for
	// "no column", a padding row for "no row".
	w := make([]float64, k*k)
	top := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			x := weight(i, j)
			if !(x > 0) { // negative or NaN
				x = 0
			}
			w[i*k+j] = x
			top = max(top, x)
		}
	}
	// Minimise cost = top - weight, which is >= 0.
	cost := make([]float64, k*k)
	for i := range cost {
		cost[i] = top - w[i]
	}
	rowOf, u, v := hungarian(k, cost)
	col := make([]int, k)
	for j := 0; j < k; j++ {
		col[rowOf[j]] = j
	}
	// An assignment is optimal exactly when it uses only edges whose
	// reduced cost under the optimal duals is zero (complementary
	// slackness). Among the perfect matchings of those tight edges, pick
	// the lexicographically smallest.
	eps := 1e-9 * max(top, 1) * float64(k)
	tight := func(i, j int) bool { return cost[i*k+j]-u[i]-v[j] <= eps }
	lexSmallest(k, n, col, tight)
	for i := 0; i < n; i++ {
		if c := col[i]; c < m {
			pairs[i] = c
			total += w[i*k+c]
		} else {
			pairs[i] = -1
		}
	}
	return pairs, total
}

// hungarian minimises the cost of a perfect matching of a k×k matrix
// (Kuhn–Munkres with potentials, O(k³)). It returns the row matched to each
// column and the dual potentials u (rows) and v (columns), for which
// cost[i][j]-u[i]-v[j] >= 0 everywhere, with equality on the matching.
func hungarian(k int, cost []float64) (rowOf []int, u, v []float64) {
	// 1-based internally: index 0 is the virtual start column.
	uu := make([]float64, k+1)
	vv := make([]float64, k+1)
	p := make([]int, k+1) // p[j]: row matched to column j, 0 for none
	way := make([]int, k+1)
	minv := make([]float64, k+1)
	used := make([]bool, k+1)
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
	rowOf = make([]int, k)
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
func lexSmallest(k, n int, col []int, tight func(i, j int) bool) {
	rowOf := make([]int, k)
	for i, c := range col {
		rowOf[c] = i
	}
	next := make([]int, k) // next[r]: the row whose column r takes
	reach := make([]bool, k)
	queue := make([]int, 0, k)
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
