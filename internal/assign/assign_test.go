package assign

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func matrix(rows [][]float64) (int, int, func(i, j int) float64) {
	m := 0
	if len(rows) > 0 {
		m = len(rows[0])
	}
	return len(rows), m, func(i, j int) float64 { return rows[i][j] }
}

func TestMax(t *testing.T) {
	tests := []struct {
		name  string
		w     [][]float64
		m     int // columns when w has no rows
		pairs []int
		total float64
	}{
		{name: "empty", w: nil, pairs: []int{}, total: 0},
		{name: "no columns", w: [][]float64{{}, {}}, pairs: []int{-1, -1}, total: 0},
		{name: "no rows with columns", w: nil, m: 3, pairs: []int{}, total: 0},
		{name: "one", w: [][]float64{{0.5}}, pairs: []int{0}, total: 0.5},
		{name: "one of weight zero", w: [][]float64{{0}}, pairs: []int{0}, total: 0},
		{name: "one negative", w: [][]float64{{-3}}, pairs: []int{0}, total: 0},
		{name: "one NaN", w: [][]float64{{nan()}}, pairs: []int{0}, total: 0},
		{name: "identity", w: [][]float64{{1, 0}, {0, 1}}, pairs: []int{0, 1}, total: 2},
		{name: "swap", w: [][]float64{{0, 1}, {1, 0}}, pairs: []int{1, 0}, total: 2},
		{
			// Greedy row 0 takes its best column 0 (0.9) and leaves row 1
			// with 0.1; the optimum gives row 0 column 1.
			name:  "greedy is wrong",
			w:     [][]float64{{0.9, 0.8}, {0.85, 0.1}},
			pairs: []int{1, 0}, total: 1.65,
		},
		{
			name:  "greedy is wrong with zeros",
			w:     [][]float64{{1, 1}, {1, 0}},
			pairs: []int{1, 0}, total: 2,
		},
		{name: "all ties", w: [][]float64{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, pairs: []int{0, 1, 2}, total: 3},
		{name: "all zero", w: [][]float64{{0, 0}, {0, 0}}, pairs: []int{0, 1}, total: 0},
		{
			// Both {0->0,1->1} and {0->1,1->0} sum to 2: the smallest wins.
			name:  "tie prefers lexicographically smallest",
			w:     [][]float64{{1, 1, 0}, {1, 1, 0}, {0, 0, 1}},
			pairs: []int{0, 1, 2}, total: 3,
		},
		{
			name:  "tie later row",
			w:     [][]float64{{0, 0, 1}, {1, 1, 0}, {1, 1, 0}},
			pairs: []int{2, 0, 1}, total: 3,
		},
		{name: "wide", w: [][]float64{{0, 0, 1}, {0, 1, 0}}, pairs: []int{2, 1}, total: 2},
		{name: "wide ties", w: [][]float64{{1, 1, 1}}, pairs: []int{0}, total: 1},
		{name: "tall", w: [][]float64{{0}, {1}, {0}}, pairs: []int{-1, 0, -1}, total: 1},
		{name: "tall ties prefer early rows", w: [][]float64{{1}, {1}, {1}}, pairs: []int{0, -1, -1}, total: 1},
		{name: "tall zero weight still paired", w: [][]float64{{0}, {0}}, pairs: []int{0, -1}, total: 0},
		{
			name:  "tall greedy wrong",
			w:     [][]float64{{5, 4}, {4, 0}, {3, 0}},
			pairs: []int{1, 0, -1}, total: 8,
		},
		{name: "float sums tie", w: [][]float64{{0.1, 0.3}, {0.2, 0}, {0, 0}}, pairs: []int{1, 0, -1}, total: 0.5},
		{name: "negative and NaN count as zero", w: [][]float64{{-1, 2}, {nan(), -5}}, pairs: []int{1, 0}, total: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, m, f := matrix(tt.w)
			if n == 0 {
				m = tt.m
			}
			pairs, total := Max(n, m, f)
			if !slices.Equal(pairs, tt.pairs) {
				t.Errorf("pairs = %v, want %v", pairs, tt.pairs)
			}
			if d := total - tt.total; d > 1e-9 || d < -1e-9 {
				t.Errorf("total = %v, want %v", total, tt.total)
			}
		})
	}
}

func nan() float64 { z := 0.0; return z / z }

func TestMaxCallsWeightOncePerCell(t *testing.T) {
	calls := map[[2]int]int{}
	Max(3, 4, func(i, j int) float64 { calls[[2]int{i, j}]++; return float64(i * j) })
	if len(calls) != 12 {
		t.Fatalf("weight called for %d cells, want 12", len(calls))
	}
	for c, k := range calls {
		if k != 1 {
			t.Errorf("weight(%d, %d) called %d times", c[0], c[1], k)
		}
	}
}

// brute finds the best assignment by trying every one, in lexicographic
// order with -1 last, keeping the first of the best.
func brute(n, m int, w [][]float64) ([]int, float64) {
	best := -1.0
	var bestPairs []int
	cur := make([]int, n)
	used := make([]bool, m)
	var rec func(i int, sum float64)
	// Only full assignments (every column used when n >= m, every row
	// paired when n <= m) can be the lexicographically smallest best one,
	// since weights are >= 0 and -1 ranks last.
	rec = func(i int, sum float64) {
		if i == n {
			if sum > best {
				best = sum
				bestPairs = slices.Clone(cur)
			}
			return
		}
		for j := 0; j < m; j++ {
			if !used[j] {
				used[j] = true
				cur[i] = j
				rec(i+1, sum+w[i][j])
				used[j] = false
			}
		}
		// Row i may go without only if enough rows remain for the
		// columns still free.
		free := 0
		for _, u := range used {
			if !u {
				free++
			}
		}
		if n-i-1 >= free {
			cur[i] = -1
			rec(i+1, sum)
		}
	}
	rec(0, 0)
	if bestPairs == nil {
		bestPairs = []int{}
	}
	return bestPairs, best
}

func TestMaxAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		n, m := r.IntN(7), r.IntN(7)
		w := make([][]float64, n)
		levels := 1 + r.IntN(4) // few distinct values: many ties
		for i := range w {
			w[i] = make([]float64, m)
			for j := range w[i] {
				w[i][j] = float64(r.IntN(levels + 1))
			}
		}
		got, gotTotal := Max(n, m, func(i, j int) float64 { return w[i][j] })
		want, wantTotal := brute(n, m, w)
		if n == 0 || m == 0 {
			wantTotal = 0
			want = make([]int, n)
			for i := range want {
				want[i] = -1
			}
		}
		if !slices.Equal(got, want) || gotTotal != wantTotal {
			t.Fatalf("%d×%d %v:\ngot  %v %v\nwant %v %v", n, m, w, got, gotTotal, want, wantTotal)
		}
	}
}

func TestMaxFractionalAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 1000; iter++ {
		n, m := 1+r.IntN(6), 1+r.IntN(6)
		w := make([][]float64, n)
		for i := range w {
			w[i] = make([]float64, m)
			for j := range w[i] {
				w[i][j] = r.Float64()
			}
		}
		_, gotTotal := Max(n, m, func(i, j int) float64 { return w[i][j] })
		_, wantTotal := brute(n, m, w)
		if d := gotTotal - wantTotal; d > 1e-9 || d < -1e-9 {
			t.Fatalf("%v: total %v, want %v", w, gotTotal, wantTotal)
		}
	}
}

func BenchmarkMax8(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	var w [8][8]float64
	for i := range w {
		for j := range w[i] {
			w[i][j] = r.Float64()
		}
	}
	f := func(i, j int) float64 { return w[i][j] }
	b.ReportAllocs()
	for b.Loop() {
		Max(8, 8, f)
	}
}

// A Solver gives Max's answers, problem after problem of any size, and
// allocates nothing once it has held a problem as large.
func TestSolverReusesItsMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var s Solver
	for range 2000 {
		n, m := r.IntN(7), r.IntN(7)
		w := make([]float64, n*m)
		for i := range w {
			w[i] = float64(r.IntN(4)) / 2
		}
		weight := func(i, j int) float64 { return w[i*m+j] }
		want, wantTotal := Max(n, m, weight)
		got, total := s.Max(n, m, weight)
		if !slices.Equal(got, want) || total != wantTotal {
			t.Fatalf("%dx%d %v: Solver %v %v, Max %v %v", n, m, w, got, total, want, wantTotal)
		}
	}
	w := []float64{1, 0, 0.5, 0, 1, 0, 0.5, 0, 1}
	weight := func(i, j int) float64 { return w[i*3+j] }
	if n := testing.AllocsPerRun(100, func() { s.Max(3, 3, weight) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// A small square problem solved by trying every assignment gets the
// general method's pairs and total, bit for bit: on weights drawn from a
// few levels (ties), fractions, and near-ties a hair apart, with and
// without the engine's 1e-6 and 1e-7 preferences added.
func TestByPermutationAgreesWithHungarian(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var fast, general Solver
	solved := 0
	for iter := range 20000 {
		k := 2 + r.IntN(maxSmall-1)
		w := make([]float64, k*k)
		for i := range w {
			switch iter % 4 {
			case 0:
				w[i] = float64(r.IntN(3)) / 2
			case 1:
				w[i] = r.Float64()
			case 2:
				w[i] = 0.5 + float64(r.IntN(3))*1e-9*float64(r.IntN(20))
			default:
				w[i] = float64(r.IntN(4))/3 + float64(r.IntN(2))*1e-6 + float64(r.IntN(2))*1e-7
			}
		}
		weight := func(i, j int) float64 { return w[i*k+j] }
		want, wantTotal := general.max(k, k, weight, false)
		want = slices.Clone(want)
		got, total := fast.max(k, k, weight, true)
		if !slices.Equal(got, want) || total != wantTotal {
			t.Fatalf("%dx%d %v: by permutation %v %v, Hungarian %v %v", k, k, w, got, total, want, wantTotal)
		}
		clamped := slices.Clone(w)
		eps := 1e-9 * max(slices.Max(clamped), 1) * float64(k)
		if _, ok := byPermutation(k, clamped, eps, make([]int, k)); ok {
			solved++
		}
	}
	// Both routes are taken: the clear cases by permutation, the ties not.
	if solved < 5000 || solved > 15000 {
		t.Errorf("%d of 20000 solved by permutation", solved)
	}
}

// BenchmarkMaxSmall solves square problems of the sizes a case's calls
// make, with fractional weights: by trying every assignment, and by the
// general method.
func BenchmarkMaxSmall(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	for k := 2; k <= maxSmall; k++ {
		w := make([]float64, k*k)
		for i := range w {
			w[i] = r.Float64()
		}
		weight := func(i, j int) float64 { return w[i*k+j] }
		for _, small := range []bool{true, false} {
			name := "k=" + string(rune('0'+k)) + "/general"
			if small {
				name = "k=" + string(rune('0'+k)) + "/permutations"
			}
			b.Run(name, func(b *testing.B) {
				var s Solver
				for b.Loop() {
					s.max(k, k, weight, small)
				}
			})
		}
	}
}
