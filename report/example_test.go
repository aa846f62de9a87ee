package report_test

import (
	"os"
	"strings"

	"github.com/callgrade/callgrade/report"
)

// A results file read back prints the same table as the run that wrote it;
// without the suite, the cases' tools are not known.
func ExampleWriteTable() {
	results := `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}
{"id":"b","pass":false,"score":0.5,"calls":[],"diffs":[{"kind":"mismatch","call":0,"path":"city","expected":"Berlin","actual":"Paris","rule":"exact","message":"expected \"Berlin\", got \"Paris\" (exact)"}]}
`
	cases, err := report.ReadResults(strings.NewReader(results), "results.jsonl")
	if err != nil {
		panic(err)
	}
	report.WriteTable(os.Stdout, report.Summarize(cases), report.TableOptions{})
	// Output:
	//            cases  passed  failed  errored  pass rate  mean score
	// all cases      2       1       1        0      50.0%       0.750
	//
	// tool            cases  passed  failed  pass rate  mean score
	// (tool unknown)      2       1       1      50.0%       0.750
	//
	// diff kind  diffs
	// mismatch       1
}
