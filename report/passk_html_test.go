package report

import (
	"fmt"
	"testing"
)

// The HTML page of a run with samples shows the run's pass@k and pass^k
// beside the figures, which count samples, and, for the case opened, the
// verdict of each of its samples with its own estimates.
func TestHTMLSamplesInChromium(t *testing.T) {
	cases := loadSamples(t, true)
	_, st := runSelftest(t, cases)
	wantFigures(t, Summarize(cases), st)
	if st.Samples == nil {
		t.Fatal("the page reports no samples")
	}
	// The first failing line is weather-paris' sample 1.
	if st.Samples.Cases != "4" || fmt.Sprint(st.Samples.At) != "[75.0%]" || fmt.Sprint(st.Samples.Hat) != "[25.0%]" ||
		st.Samples.Strip != "Samples: 012 2 of 3 passed · pass@3 100.0% · pass^3 0.0%" {
		t.Errorf("samples on the page: %+v", *st.Samples)
	}
	if _, plain := runSelftest(t, loadFixture(t, true)); plain.Samples != nil {
		t.Errorf("a run without samples shows samples: %+v", *plain.Samples)
	}
}
