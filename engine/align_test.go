package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteAlign enumerates the monotone alignments in the order alignWeights
// prefers them (match, then skip the actual item, then leave the expected
// one out) and returns the first whose sum is the largest.
func bruteAlign(n, m int, weight func(a, b int) float64) ([]int, float64) {
	var all [][]int
	var sums []float64
	cur := make([]int, n)
	var rec func(a, b int, sum float64)
	rec = func(a, b int, sum float64) {
		if a == n {
			all = append(all, slices.Clone(cur))
			sums = append(sums, sum)
			return
		}
		if b < m {
			if w := weight(a, b); w >= 0 {
				cur[a] = b
				rec(a+1, b+1, sum+w)
			}
			rec(a, b+1, sum)
		}
		cur[a] = -1
		rec(a+1, b, sum)
	}
	rec(0, 0, 0)
	best := math.Inf(-1)
	for _, s := range sums {
		best = max(best, s)
	}
	for i, s := range sums {
		if s >= best-alignEps {
			return all[i], best
		}
	}
	return nil, best
}

// TestAlignAgainstBruteForce holds alignWeights to every monotone
// alignment of small random runs: the same largest sum, and the same
// alignment among the ties. Weights come from few values, so that ties
// are common.
func TestAlignAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	levels := []float64{-1, 0, 1.0 / 3, 0.5, 2.0 / 3, 1}
	for iter := range 5000 {
		n, m := rng.IntN(7), rng.IntN(7)
		w := make([]float64, n*m)
		for k := range w {
			w[k] = levels[rng.IntN(len(levels))]
			if w[k] >= 0 {
				w[k] += 1e-7
				if w[k] > 1 && rng.IntN(2) == 0 {
					w[k] += 1e-6
				}
			}
		}
		weight := func(a, b int) float64 { return w[a*m+b] }
		pairs := make([]int, n)
		got := alignWeights(n, m, weight, make([]float64, (n+1)*(m+1)), pairs)
		want, wantSum := bruteAlign(n, m, weight)
		if math.Abs(got-wantSum) > alignEps || !slices.Equal(pairs, want) {
			t.Fatalf("iteration %d, n=%d m=%d weights %v: got %v (%v), want %v (%v)", iter, n, m, w, pairs, got, want, wantSum)
		}
		// The pairs are monotone, and each sums to got.
		sum, last := 0.0, -1
		for a, b := range pairs {
			if b < 0 {
				continue
			}
			if b <= last || w[a*m+b] < 0 {
				t.Fatalf("not a monotone alignment of allowed pairs: %v", pairs)
			}
			last = b
			sum += w[a*m+b]
		}
		if math.Abs(sum-got) > alignEps {
			t.Fatalf("pairs sum to %v, alignWeights says %v", sum, got)
		}
	}
}

// TestAlignTies checks the documented choice among equal alignments: the
// earliest expected item takes the earliest actual item.
func TestAlignTies(t *testing.T) {
	one := func(a, b int) float64 { return 1 }
	pairs := make([]int, 2)
	alignWeights(2, 4, one, make([]float64, 3*5), pairs)
	if !slices.Equal(pairs, []int{0, 1}) {
		t.Errorf("pairs = %v, want [0 1]", pairs)
	}
	pairs = make([]int, 3)
	alignWeights(3, 1, one, make([]float64, 4*2), pairs)
	if !slices.Equal(pairs, []int{0, -1, -1}) {
		t.Errorf("pairs = %v, want [0 -1 -1]", pairs)
	}
}
