package results

// Summary totals a run. In a run with samples, the counts are of result
// lines, one per case and sample, and so is the pass rate that
// --fail-under reads; Samples, PerCase and PassK are per case.
type Summary struct {
	Cases    int // results written for the suite's cases
	Passed   int
	Failed   int
	Missing  int // cases with no response (counted in Failed)
	Errored  int // failed cases with a diff of a kind IsError names (counted in Failed)
	Unknown  int // responses whose id names no case (extra result lines)
	ScoreSum float64
	ByTool   map[string]*Tally // by the case's first expected tool, a steps case's by each tool of its steps (StepVerdicts); "" for cases expecting no call
	ByKind   map[Kind]int      // diffs of each kind

	// Samples is the number of samples of each case in a run with
	// samples, 0 otherwise; then PerCase counts each case's samples and
	// passing ones, in the order of the cases, and PassK has, for each k
	// asked, the means over the cases of pass@k and pass^k. Both are nil
	// without samples.
	Samples int
	PerCase []SampleTally
	PassK   []Estimate
}

// Tally counts the cases of one tool.
type Tally struct {
	Cases, Passed int
	ScoreSum      float64
}

// PassRate returns passed over cases, 0 for an empty run.
func (s *Summary) PassRate() float64 {
	if s.Cases == 0 {
		return 0
	}
	return float64(s.Passed) / float64(s.Cases)
}

// MeanScore returns the mean case score, 0 for an empty run.
func (s *Summary) MeanScore() float64 {
	if s.Cases == 0 {
		return 0
	}
	return s.ScoreSum / float64(s.Cases)
}

// Add counts r, the result of one of the suite's cases (not an
// unknown_case line, which Unknown counts), in s. Its by-tool rows count
// it under tools when some are given, else under its own verdicts: once
// under each tool of its StepTools (StepVerdicts) for a case written with
// steps, once under its Tool otherwise. The engine's run and a results
// file read back are tallied by this one method, so that both print the
// same table.
func (s *Summary) Add(r *Result, tools ...ToolVerdict) {
	s.Cases++
	s.ScoreSum += r.Score
	if r.Pass {
		s.Passed++
	} else {
		s.Failed++
	}
	if s.ByTool == nil {
		s.ByTool, s.ByKind = map[string]*Tally{}, map[Kind]int{}
	}
	switch {
	case len(tools) > 0:
		for _, v := range tools {
			countTool(s.ByTool, v)
		}
	case len(r.StepTools) > 0:
		stepVerdicts(len(r.StepTools), func(j int) string { return r.StepTools[j] }, r.Calls, func(v ToolVerdict) {
			countTool(s.ByTool, v)
		})
	default:
		countTool(s.ByTool, ToolVerdict{Tool: r.Tool, Pass: r.Pass, Score: r.Score})
	}
	errored, missing := false, false
	for i := range r.Diffs {
		s.ByKind[r.Diffs[i].Kind]++
		errored = errored || IsError(r.Diffs[i].Kind)
		missing = missing || r.Diffs[i].Kind == MissingResponse
	}
	if missing {
		// A case with no line, and one whose line has no response.
		s.Missing++
	}
	if errored {
		s.Errored++
	}
}

// countTool counts v in its tool's tally of by.
func countTool(by map[string]*Tally, v ToolVerdict) {
	t := by[v.Tool]
	if t == nil {
		t = &Tally{}
		by[v.Tool] = t
	}
	t.Cases++
	t.ScoreSum += v.Score
	if v.Pass {
		t.Passed++
	}
}
