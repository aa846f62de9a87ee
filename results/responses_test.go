package results

import (
	"fmt"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// sampleSeeds are response lines whose "sample" is right and wrong in the
// ways a harness gets it wrong.
var sampleSeeds = []string{
	`{"id":"a","sample":0,"response":[{"name":"f","arguments":{"x":1}}]}`,
	`{"id":"a","sample":2,"response":[]}`,
	`{"id":"b","sample":1}`,
	`{"id":"a","response":[]}`,
	`{"id":"a","sample":"1","response":[]}`,
	`{"id":"a","sample":1.0,"response":[]}`,
	`{"id":"a","sample":-0,"response":[]}`,
	`{"id":"a","sample":01,"response":[]}`,
	`{"id":"a","sample":1,"sample":0,"response":[]}`,
	`{"id":"a","sample":1,"response":[{"name":"f","arguments":{"x":NaN}}]}`,
	`{"sample":1,"id":7,"response":null}`,
}

// FuzzSampleReaders: the two readers of "sample", of a parsed line and of
// a broken one by its text, agree wherever the line parses.
func FuzzSampleReaders(f *testing.F) {
	for _, seed := range sampleSeeds {
		f.Add(seed, 3)
	}
	f.Fuzz(func(t *testing.T, line string, samples int) {
		samples = 1 + (samples%8+8)%8
		doc, perr := value.Parse(line)
		if perr != nil || doc.Kind() != value.Object {
			return
		}
		k1, e1 := sampleOf(doc, samples)
		k2, e2 := rawSampleOf(line, samples)
		if (e1 == nil) != (e2 == nil) || e1 == nil && k1 != k2 {
			t.Fatalf("the readers disagree: %d, %v and %d, %v", k1, e1, k2, e2)
		}
	})
}

// TestReadResponseLine: what a line says, and what is wrong with one
// that cannot be read, as score, the service and the report read it.
func TestReadResponseLine(t *testing.T) {
	lim := value.Limits{MaxBytes: 1 << 20, MaxDepth: 64}
	tests := []struct {
		name    string
		text    string
		samples int
		want    string // the line read, or its error
	}{
		{"a line", `{"id":"a","response":[]}`, 0, `id "a" sample 0 response true broken false utf8 false`},
		{"a number id", `{"id":7,"response":[]}`, 0, `id "7" sample 0 response true broken false utf8 false`},
		{"no response", `{"id":"a"}`, 0, `id "a" sample 0 response false broken false utf8 false`},
		{"a sample", `{"id":"a","sample":2,"response":[]}`, 3, `id "a" sample 2 response true broken false utf8 false`},
		{"a sample ignored", `{"id":"a","sample":9,"response":[]}`, 0, `id "a" sample 0 response true broken false utf8 false`},
		{"broken", `{"id":"a","sample":1,"response":[{"arguments":{"x":NaN}}]}`, 2, `id "a" sample 1 response false broken true utf8 false`},
		{"not UTF-8", "{\"id\":\"a\",\"response\":\"\xff\"}", 0, `id "a" sample 0 response true broken false utf8 true`},
		{"not an object", `[1]`, 0, `line 3: a response line must be a JSON object with an id, not array`},
		{"no id", `{"response":[]}`, 0, `line 3: a response line needs "id", a string (or a number, read as written)`},
		{"a bool id", `{"id":true,"response":[]}`, 0, `line 3: a response line needs "id", a string (or a number, read as written)`},
		{"broken without an id", `{"response":NaN}`, 0, `line 3: not a JSON response line: `},
		{"pretty-printed", `{`, 0, `line 3: not a JSON response line (a responses file is JSON Lines: each response object on a line of its own, not pretty-printed over several): `},
		{"no sample", `{"id":"a","response":[]}`, 2, `line 3: the line has no "sample"; with 2 samples per case, each line needs one, from 0 to 1`},
		{"a sample out of range", `{"id":"a","sample":2,"response":[]}`, 2, `line 3: "sample" must be an integer from 0 to 1 (2 samples per case), not 2`},
		{"a broken line's sample", `{"id":"a","sample":"x","response":NaN}`, 2, `line 3: "sample" must be an integer from 0 to 1 (2 samples per case), not "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rl, err := ReadResponseLine(nil, tt.text, 3, lim, tt.samples)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = fmtLine(&rl)
			}
			if !strings.HasPrefix(got, tt.want) || err == nil && got != tt.want {
				t.Errorf("got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func fmtLine(rl *ResponseLine) string {
	return fmt.Sprintf("id %q sample %d response %v broken %v utf8 %v", rl.ID, rl.Sample, rl.HasResponse, rl.Broken != nil, rl.InvalidUTF8)
}
