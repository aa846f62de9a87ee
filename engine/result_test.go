package engine_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/engine"
)

// exampleRuns are the suites and responses whose results the round trip
// is held to: every kind of line the examples give, alternatives, unknown
// and missing responses among them.
var exampleRuns = []struct{ suite, responses string }{
	{"../examples/weather/suite.yaml", "../examples/weather/responses.jsonl"},
	{"../examples/weather/suite.yaml", "../examples/reports/responses-old.jsonl"},
	{"../examples/dsl/suite.yaml", "../examples/dsl/responses.jsonl"},
	{"../report/testdata/suite.yaml", "../report/testdata/responses.jsonl"},
}

// exampleResults scores the example runs line by line, as Run does, and
// returns every result: one per response line, then one per case without a
// response.
func exampleResults(t testing.TB) []*engine.Result {
	t.Helper()
	var out []*engine.Result
	for _, ex := range exampleRuns {
		g, err := callgrade.Open([]string{ex.suite}, callgrade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e := g.Engine()
		text, err := os.ReadFile(ex.responses)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, e.Len())
		sc := bufio.NewScanner(bytes.NewReader(text))
		for n := 1; sc.Scan(); n++ {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			// A Scorer of its own: each result is kept.
			r, i, err := e.NewScorer().ScoreLine(sc.Text(), n)
			if err != nil {
				t.Fatalf("%s: %v", ex.responses, err)
			}
			if i >= 0 {
				seen[i] = true
			}
			out = append(out, r)
		}
		for i, ok := range seen {
			if !ok {
				out = append(out, e.MissingResponse(i))
			}
		}
		g.Close()
	}
	return out
}

// TestResultRoundTrip: every results line of the examples, read back,
// is the Result that wrote it (less Tool, which the line does not carry),
// and writes the same line again.
func TestResultRoundTrip(t *testing.T) {
	results := exampleResults(t)
	alternatives, absent := 0, 0
	for _, want := range results {
		line := want.AppendJSON(nil)
		var got engine.Result
		if err := got.UnmarshalJSON(line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		w := *want
		w.Tool = ""
		if d := resultDiff(&w, &got); d != "" {
			t.Errorf("%s read back: %s", line, d)
		}
		if again := got.AppendJSON(nil); !bytes.Equal(again, line) {
			t.Errorf("written again:\n%s\nwant\n%s", again, line)
		}
		if bytes.Contains(line, []byte(`"alternative":`)) {
			alternatives++
		}
		for _, d := range got.Diffs {
			if !d.HasExpected || !d.HasActual {
				absent++
			}
		}
	}
	if len(results) < 30 || alternatives == 0 || absent == 0 {
		t.Errorf("%d lines, %d with an alternative, %d diffs with a side absent: the examples no longer cover the round trip", len(results), alternatives, absent)
	}
}

func TestResultUnmarshalJSONErrors(t *testing.T) {
	const calls = `"calls":[{"expected":0,"actual":null,"pass":false,"score":0}]`
	const diff = `"kind":"missing_call","call":0,"path":"","rule":"ordered","message":"m"`
	tests := []struct{ name, line, want string }{
		{"not json", `{"id":`, "invalid JSON"},
		{"trailing text", `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]} x`, "invalid JSON"},
		{"duplicate key", `{"id":"a","id":"b","pass":true,"score":1,"calls":[],"diffs":[]}`, "duplicate key"},
		{"a list", `[1]`, "a list, not an object"},
		{"null", `null`, "null, not an object"},
		{"a responses line", `{"id":"a","response":[]}`, `no "pass" (is this a responses file?)`},
		{"no id", `{"pass":true,"score":1,"calls":[],"diffs":[]}`, `no "id"`},
		{"number id", `{"id":7,"pass":true,"score":1,"calls":[],"diffs":[]}`, `"id" is a number, not a string`},
		{"pass a string", `{"id":"a","pass":"yes","score":1,"calls":[],"diffs":[]}`, `"pass" is a string, not a bool`},
		{"score null", `{"id":"a","pass":true,"score":null,"calls":[],"diffs":[]}`, `"score" is null, not a number`},
		{"score too large", `{"id":"a","pass":true,"score":1e999,"calls":[],"diffs":[]}`, `"score" is out of range: 1e999`},
		{"calls null", `{"id":"a","pass":true,"score":1,"calls":null,"diffs":[]}`, `"calls" is null, not a list`},
		{"diffs an object", `{"id":"a","pass":true,"score":1,"calls":[],"diffs":{}}`, `"diffs" is an object, not a list`},
		{"alternative a string", `{"id":"a","pass":true,"score":1,"alternative":"x","calls":[],"diffs":[]}`, `"alternative" is a string, not a number`},
		{"alternative negative", `{"id":"a","pass":true,"score":1,"alternative":-1,"calls":[],"diffs":[]}`, `"alternative" is out of range: -1`},
		{"a call not an object", `{"id":"a","pass":true,"score":1,"calls":[1],"diffs":[]}`, `"calls" is a number, not an object`},
		{"a call without pass", `{"id":"a","pass":true,"score":1,"calls":[{"expected":0,"actual":0,"score":1}],"diffs":[]}`, `no "calls.pass"`},
		{"an index a string", `{"id":"a","pass":true,"score":1,"calls":[{"expected":"0","actual":0,"pass":true,"score":1}],"diffs":[]}`, `"calls.expected" is a string, not a number`},
		{"an index not whole", `{"id":"a","pass":true,"score":1,"calls":[{"expected":1.5,"actual":0,"pass":true,"score":1}],"diffs":[]}`, `"calls.expected" is out of range: 1.5`},
		{"an index negative", `{"id":"a","pass":true,"score":1,"calls":[{"expected":0,"actual":-1,"pass":true,"score":1}],"diffs":[]}`, `"calls.actual" is out of range: -1`},
		{"a diff not an object", `{"id":"a","pass":false,"score":0,` + calls + `,"diffs":[1]}`, `"diffs" is a number, not an object`},
		{"a kind not a string", `{"id":"a","pass":false,"score":0,` + calls + `,"diffs":[{"kind":3}]}`, `"diffs.kind" is a number, not a string`},
		{"a diff without call", `{"id":"a","pass":false,"score":0,` + calls + `,"diffs":[{"kind":"x","path":"","rule":"","message":""}]}`, `no "diffs.call"`},
		{"a second bad diff", `{"id":"a","pass":false,"score":0,` + calls + `,"diffs":[{` + diff + `},{` + strings.Replace(diff, `"m"`, `null`, 1) + `}]}`, `"diffs.message" is null, not a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := engine.Result{ID: "before"}
			err := r.UnmarshalJSON([]byte(tt.line))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if r.ID != "before" {
				t.Errorf("a line that does not read changed the Result: %+v", r)
			}
		})
	}
}

// A side of a diff that the line leaves out stays absent; one that is null
// is there, and null. Members the line has besides are passed over.
func TestResultUnmarshalJSONSides(t *testing.T) {
	line := `{"id":"a","pass":false,"score":0.5,"later":{"x":1},"calls":[{"expected":0,"actual":0,"pass":false,"score":0.5}],` +
		`"diffs":[{"kind":"missing_argument","call":0,"path":"unit","expected":null,"rule":"exact","message":"m"},` +
		`{"kind":"unexpected_call","call":null,"path":"","actual":{"b":[1.50,"\u00e9"],"a":1e400},"rule":"superset","message":"m"}]}`
	var r engine.Result
	if err := r.UnmarshalJSON([]byte(line)); err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(r.Diffs))
	for i, d := range r.Diffs {
		got[i] = fmt.Sprintf("call=%d expected=%v:%v actual=%v:%v", d.Call, d.HasExpected, d.Expected, d.HasActual, d.Actual)
	}
	want := []string{
		`call=0 expected=true:null actual=false:null`,
		`call=-1 expected=false:null actual=true:{"a":1e400,"b":[1.50,"é"]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diffs read as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzResultRoundTrip: whatever UnmarshalJSON accepts writes a line that
// reads back as the same Result and writes the same line again; nothing
// makes it panic.
func FuzzResultRoundTrip(f *testing.F) {
	for _, r := range exampleResults(f) {
		f.Add(string(r.AppendJSON(nil)))
	}
	for _, seed := range []string{
		`{"id":"a","pass":true,"score":1,"alternative":0,"calls":[{"expected":0,"actual":0,"pass":true,"score":1}],"diffs":[]}`,
		`{"id":"","pass":false,"score":0,"calls":[],"diffs":[{"kind":"unknown_case","call":null,"path":"","rule":"","message":"\u2028\"\\"}]}`,
		`{"id":"a","pass":false,"score":0.30000000000000004,"calls":[],"diffs":[{"kind":"x","call":0,"path":"a.0","expected":-0.0e+00,"actual":[{}],"rule":"tolerance=0.01","message":""}]}`,
		`{"diffs":[],"calls":[],"score":1E-7,"pass":true,"id":"a","extra":null}`,
		`{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var first engine.Result
		if err := first.UnmarshalJSON([]byte(line)); err != nil {
			return
		}
		out := first.AppendJSON(nil)
		var second engine.Result
		if err := second.UnmarshalJSON(out); err != nil {
			t.Fatalf("%s\nwritten as\n%s\ndoes not read back: %v", line, out, err)
		}
		if d := resultDiff(&first, &second); d != "" {
			t.Fatalf("%s\nwritten as\n%s\nreads back otherwise: %s", line, out, d)
		}
		if again := second.AppendJSON(nil); !bytes.Equal(again, out) {
			t.Fatalf("%s\nwritten as\n%s\nthen as\n%s", line, out, again)
		}
	})
}

// resultDiff says how b differs from a, "" when it does not. Values are
// compared by their JSON text, numbers as written: a Value holds pointers,
// so neither == nor reflect.DeepEqual would do.
func resultDiff(a, b *engine.Result) string {
	if a.ID != b.ID || a.Pass != b.Pass || a.Score != b.Score || a.Alternative != b.Alternative || a.Tool != b.Tool {
		return fmt.Sprintf("id, pass, score, alternative, tool %q %v %v %d %q, want %q %v %v %d %q",
			b.ID, b.Pass, b.Score, b.Alternative, b.Tool, a.ID, a.Pass, a.Score, a.Alternative, a.Tool)
	}
	if len(a.Calls) != len(b.Calls) || len(a.Diffs) != len(b.Diffs) {
		return fmt.Sprintf("%d calls and %d diffs, want %d and %d", len(b.Calls), len(b.Diffs), len(a.Calls), len(a.Diffs))
	}
	for i := range a.Calls {
		if a.Calls[i] != b.Calls[i] {
			return fmt.Sprintf("call %d is %+v, want %+v", i, b.Calls[i], a.Calls[i])
		}
	}
	for i := range a.Diffs {
		if x, y := diffText(&a.Diffs[i]), diffText(&b.Diffs[i]); x != y {
			return fmt.Sprintf("diff %d is %s, want %s", i, y, x)
		}
	}
	return ""
}

func diffText(d *engine.Diff) string {
	side := func(has bool, v fmt.Stringer) string {
		if !has {
			return "absent"
		}
		return v.String()
	}
	return fmt.Sprintf("%q call=%d path=%q expected=%s actual=%s rule=%q message=%q",
		d.Kind, d.Call, d.Path, side(d.HasExpected, d.Expected), side(d.HasActual, d.Actual), d.Rule, d.Message)
}
