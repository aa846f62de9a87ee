// Package runlines holds what the engine, the merge of partial runs, the
// server, the report and the CLI share about the lines of a run (responses
// in, results out) that is no contract of its own: the values of k a run
// with samples estimates, what a second response for a case says, and how
// deep a results line read back may nest. Package results is the contract
// of those lines; this is their plumbing, kept off the public surface.
package runlines

import (
	"fmt"
	"slices"

	"github.com/tidwall/gjson"
)

// CheckPassK returns the values of k to estimate for cases of n samples
// each: ks sorted, without repeats, or n alone when ks is empty. A k below
// 1 or above n is an error: pass@k needs k samples of every case.
func CheckPassK(ks []int, n int) ([]int, error) {
	if len(ks) == 0 {
		return []int{n}, nil
	}
	out := slices.Clone(ks)
	slices.Sort(out)
	out = slices.Compact(out)
	for _, k := range out {
		if k < 1 || k > n {
			return nil, fmt.Errorf("pass@k needs k from 1 to the number of samples, %d; got %d", n, k)
		}
	}
	return out, nil
}

// SecondResponse is the message for a second response for one case, in
// a stream with samples samples per case for one case and sample: where
// says where the two are ("lines 1 and 6"). carriesSample says that a
// stream without samples has lines with "sample", which the message then
// explains.
func SecondResponse(id string, sample, samples int, where string, carriesSample bool) string {
	switch {
	case samples > 0:
		return fmt.Sprintf("a second response for case %q sample %d (%s)", id, sample, where)
	case carriesSample:
		return fmt.Sprintf("a second response for case %q (%s)", id, where) +
			`; the lines carry "sample": for several samples per case, say how many with samples: in the suite or --samples`
	}
	return fmt.Sprintf("a second response for case %q (%s)", id, where)
}

// CarriesSample reports whether a response line has a "sample", read
// from its text (see SecondResponse).
func CarriesSample(text string) bool { return gjson.Get(text, "sample").Exists() }

// MaxResultDepth bounds the nesting of a results line read back. Its
// deepest values are arguments, which the engine reads 256 deep unless
// its limits say otherwise; far more is allowed so that lines written
// under raised limits read back too, and still a bound, so that a hostile
// file cannot take the reader's stack.
const MaxResultDepth = 1 << 14

// SecondLine is the line in error and the message for two response lines
// of a stream for one case and sample, lines first and line (in either
// order), text the later's: the later line is the one in error, and the
// message is SecondResponse's. The engine's run and the server's batch
// both report a second response through it.
func SecondLine(id string, sample, samples, first, line int, text string) (int, string) {
	lo, hi := min(first, line), max(first, line)
	where := fmt.Sprintf("lines %d and %d", lo, hi)
	return hi, SecondResponse(id, sample, samples, where, samples == 0 && CarriesSample(text))
}
