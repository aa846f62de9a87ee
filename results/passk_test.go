package results

import (
	"math"
	"math/big"
	"testing"
)

// bruteForce enumerates every k-subset of n samples of which the first c
// pass, and returns the share of subsets with at least one passing sample
// (pass@k) and the share with only passing ones (pass^k).
func bruteForce(n, c, k int) (at, hat float64) {
	var subsets, any, all int
	var walk func(start, left, passing int)
	walk = func(start, left, passing int) {
		if left == 0 {
			subsets++
			if passing > 0 {
				any++
			}
			if passing == k {
				all++
			}
			return
		}
		for i := start; i <= n-left; i++ {
			p := passing
			if i < c {
				p++
			}
			walk(i+1, left-1, p)
		}
	}
	walk(0, k, 0)
	return float64(any) / float64(subsets), float64(all) / float64(subsets)
}

func TestEstimatorsAgainstBruteForce(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for c := 0; c <= n; c++ {
			for k := 1; k <= n; k++ {
				at, hat := bruteForce(n, c, k)
				if got := PassAtK(n, c, k); math.Abs(got-at) > 1e-12 {
					t.Errorf("PassAtK(%d, %d, %d) = %v, enumeration gives %v", n, c, k, got, at)
				}
				if got := PassHatK(n, c, k); math.Abs(got-hat) > 1e-12 {
					t.Errorf("PassHatK(%d, %d, %d) = %v, enumeration gives %v", n, c, k, got, hat)
				}
			}
		}
	}
}

// binom is C(n, k) exactly.
func binom(n, k int) *big.Int { return new(big.Int).Binomial(int64(n), int64(k)) }

func TestEstimatorsKnownValues(t *testing.T) {
	tests := []struct {
		n, c, k     int
		at, hat     float64
		description string
	}{
		{10, 1, 5, 0.5, 0, "1 - C(9,5)/C(10,5) = 1 - 126/252"},
		{10, 5, 2, 1 - 10.0/45, 10.0 / 45, "C(5,2)/C(10,2) = 10/45"},
		{5, 3, 1, 0.6, 0.6, "k = 1: both are c/n"},
		{5, 5, 5, 1, 1, "all pass"},
		{5, 0, 5, 0, 0, "none pass"},
		{5, 4, 5, 1, 0, "one failure: some draw of 5 passes, not all"},
		{200, 1, 1, 0.005, 0.005, "c/n"},
		{4, 2, 3, 1, 0, "n-c < k: every draw has a pass; c < k: none is all passes"},
	}
	for _, tt := range tests {
		if got := PassAtK(tt.n, tt.c, tt.k); math.Abs(got-tt.at) > 1e-12 {
			t.Errorf("PassAtK(%d, %d, %d) = %v, want %v (%s)", tt.n, tt.c, tt.k, got, tt.at, tt.description)
		}
		if got := PassHatK(tt.n, tt.c, tt.k); math.Abs(got-tt.hat) > 1e-12 {
			t.Errorf("PassHatK(%d, %d, %d) = %v, want %v (%s)", tt.n, tt.c, tt.k, got, tt.hat, tt.description)
		}
	}
}

// The product forms stay accurate where the binomials themselves are far
// beyond float64: compared with exact rationals.
func TestEstimatorsLargeN(t *testing.T) {
	const maxSamples = 10000 // suite.MaxSamples, the most a run has
	for _, tt := range []struct{ n, c, k int }{
		{maxSamples, 1, 1}, {maxSamples, 17, 100}, {maxSamples, 9000, 500}, {maxSamples, 5000, 5000},
		{2000, 1999, 1000}, {1000, 3, 997}, {1000, 998, 2},
	} {
		total := binom(tt.n, tt.k)
		q := new(big.Rat).SetFrac(binom(tt.n-tt.c, tt.k), total)
		at, _ := new(big.Rat).Sub(big.NewRat(1, 1), q).Float64()
		hat, _ := new(big.Rat).SetFrac(binom(tt.c, tt.k), total).Float64()
		if got := PassAtK(tt.n, tt.c, tt.k); !nearly(got, at) {
			t.Errorf("PassAtK(%d, %d, %d) = %v, exactly %v", tt.n, tt.c, tt.k, got, at)
		}
		if got := PassHatK(tt.n, tt.c, tt.k); !nearly(got, hat) {
			t.Errorf("PassHatK(%d, %d, %d) = %v, exactly %v", tt.n, tt.c, tt.k, got, hat)
		}
	}
}

// nearly reports agreement to 1e-9 relative, or 1e-300 absolute for values
// that underflow.
func nearly(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) || math.Abs(a-b) < 1e-300
}

func TestEstimatesMeanOverCases(t *testing.T) {
	cases := []SampleTally{{ID: "a", N: 4, Passed: 4}, {ID: "b", N: 4, Passed: 2}, {ID: "c", N: 4, Passed: 0}}
	got := Estimates(cases, []int{1, 2})
	want := []Estimate{
		{K: 1, PassAt: 0.5, PassHat: 0.5},
		{K: 2, PassAt: (1 + (1 - 1.0/6) + 0) / 3, PassHat: (1 + 1.0/6 + 0) / 3},
	}
	for i := range want {
		if got[i].K != want[i].K || math.Abs(got[i].PassAt-want[i].PassAt) > 1e-12 || math.Abs(got[i].PassHat-want[i].PassHat) > 1e-12 {
			t.Errorf("Estimates k=%d: got %+v, want %+v", want[i].K, got[i], want[i])
		}
	}
	if e := Estimates(nil, []int{3}); e[0] != (Estimate{K: 3}) {
		t.Errorf("empty run: %+v", e)
	}
}

func TestEstimatorsPanicOutsideTheirDomain(t *testing.T) {
	for _, f := range []func(){func() { PassAtK(3, 4, 1) }, func() { PassHatK(3, 1, 0) }, func() { PassAtK(3, 1, 4) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}
