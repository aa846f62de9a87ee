package results

import (
	"fmt"
)

// PassAtK returns the unbiased estimate of pass@k of a case of which c of n
// samples passed: the chance that at least one of k samples drawn without
// replacement from the n passes, 1 - C(n-c, k)/C(n, k) (Chen et al. 2021,
// "Evaluating Large Language Models Trained on Code"). The ratio of
// binomials is computed as the product of (1 - k/i) for i from n-c+1 to n,
// which neither overflows nor loses precision for any n. It requires
// 0 <= c <= n and 1 <= k <= n, and panics otherwise.
func PassAtK(n, c, k int) float64 {
	checkEstimate(n, c, k)
	if n-c < k {
		return 1 // every draw of k holds a passing sample
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// PassHatK returns pass^k of a case of which c of n samples passed: the
// chance that all of k samples drawn without replacement from the n pass,
// C(c, k)/C(n, k), the estimator tau-bench reports (Yao et al. 2024). It is
// computed as the product of (c-i)/(n-i) for i from 0 to k-1. It requires
// 0 <= c <= n and 1 <= k <= n, and panics otherwise.
func PassHatK(n, c, k int) float64 {
	checkEstimate(n, c, k)
	if c < k {
		return 0
	}
	p := 1.0
	for i := range k {
		p *= float64(c-i) / float64(n-i)
	}
	return p
}

func checkEstimate(n, c, k int) {
	if c < 0 || c > n || k < 1 || k > n {
		panic(fmt.Sprintf("results: pass@k of %d passing of %d samples with k = %d", c, n, k))
	}
}

// SampleTally counts one case's samples in a run with samples.
type SampleTally struct {
	ID     string
	N      int // samples: result lines of the case
	Passed int // of them, the passing ones
}

// Estimate is pass@k and pass^k for one k: of one case, or the mean over a
// run's cases.
type Estimate struct {
	K       int
	PassAt  float64 // pass@k, the unbiased estimator (PassAtK)
	PassHat float64 // pass^k (PassHatK)
}

// Estimates returns, for each k of ks in order, the means over cases of
// pass@k and pass^k; an empty run's are 0. Each k must be from 1 to every
// case's N.
func Estimates(cases []SampleTally, ks []int) []Estimate {
	out := make([]Estimate, len(ks))
	for j, k := range ks {
		out[j].K = k
		if len(cases) == 0 {
			continue
		}
		for _, c := range cases {
			out[j].PassAt += PassAtK(c.N, c.Passed, k)
			out[j].PassHat += PassHatK(c.N, c.Passed, k)
		}
		out[j].PassAt /= float64(len(cases))
		out[j].PassHat /= float64(len(cases))
	}
	return out
}
