package main

import (
	"github.com/spf13/pflag"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/runlines"
)

// passKFlag defines --pass-k on fs.
func passKFlag(fs *pflag.FlagSet, p *[]int) {
	fs.IntSliceVar(p, "pass-k", nil, "with samples, the values of k for pass@k and pass^k, comma-separated or repeated (default: the number of samples)")
}

// checkSamples checks the samples per case a run is to have and --pass-k:
// a usage error (exit 2) names what is wrong before anything is read.
func checkSamples(samples int, passK []int) error {
	switch {
	case samples < 0 || samples > callgrade.MaxSamples:
		return usageErr("--samples: want 1 to %d samples per case, or 0 for one line per case; got %d", callgrade.MaxSamples, samples)
	case samples == 0 && len(passK) > 0:
		return usageErr("--pass-k needs samples: give --samples N, or samples: N in the suite")
	case samples > 0:
		if _, err := runlines.CheckPassK(passK, samples); err != nil {
			return usageErr("--pass-k: %v", err)
		}
	}
	return nil
}
