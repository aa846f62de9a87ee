package main

import (
	"strings"
	"testing"
)

// --max-batch-lines and --max-body reach the server: a batch past the one
// ends with a line of status 413, a line over the other is an error line.
func TestServeBatchLimits(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "suite.yaml", "version: 1\ncases:\n  - {id: a, expected: []}\n")
	s := startServe(t, nil, "--suite", file, "--addr", "127.0.0.1:0", "--max-batch-lines", "2", "--max-body", "100")
	line := `{"id": "a", "response": []}` + "\n"
	long := `{"id": "a", "response": [` + strings.Repeat(" ", 100) + `]}` + "\n"
	code, body := get(t, "POST", s.base+"/v1/score/batch", "", long+line+line)
	want := `{"line":1,"error":"line 1: the line is longer than the limit of 100 bytes (--max-body); it was not read"}` + "\n" +
		`{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}` + "\n" +
		`{"line":3,"status":413,"error":"line 3: the batch has more lines than the limit of 2 (--max-batch-lines); lines from 3 on were not read"}` + "\n"
	if code != 200 || body != want {
		t.Errorf("%d\n%s\nwant\n%s", code, body, want)
	}
}
