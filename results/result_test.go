package results_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/dsl"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// exampleRuns are the suites and responses whose results the round trip
// is held to: every kind of line the examples give, alternatives, unknown
// and missing responses among them.
var exampleRuns = []struct{ suite, responses string }{
	{"../examples/weather/suite.yaml", "../examples/weather/responses.jsonl"},
	{"../examples/weather/suite.yaml", "../examples/reports/responses-old.jsonl"},
	{"../examples/dsl/suite.yaml", "../examples/dsl/responses.jsonl"},
	{"../report/testdata/suite.yaml", "../report/testdata/responses.jsonl"},
	{"../examples/agent/suite.yaml", "../examples/agent/responses.jsonl"},
}

// exampleResults scores the example runs line by line, as Run does, and
// returns every result: one per response line, then one per case without a
// response.
func exampleResults(t testing.TB) []*results.Result {
	t.Helper()
	var out []*results.Result
	for _, ex := range exampleRuns {
		s, err := suite.Load(ex.suite)
		if err != nil {
			t.Fatal(err)
		}
		// As callgrade.Open compiles it: with the expression language.
		e, err := engine.New(suite.ViewOf(s), engine.Options{Extensions: dsl.NewCompiler(dsl.Options{}).Extensions()})
		if err != nil {
			t.Fatal(err)
		}
		text, err := os.ReadFile(ex.responses)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, len(s.Cases))
		sc := bufio.NewScanner(bytes.NewReader(text))
		for n := 1; sc.Scan(); n++ {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			// A Scorer of its own: each result is kept.
			r, i, _, err := e.NewScorer(context.Background()).ScoreLine(sc.Text(), n, 0)
			if err != nil {
				t.Fatalf("%s: %v", ex.responses, err)
			}
			if i >= 0 {
				seen[i] = true
			}
			out = append(out, r)
		}
		// A run over no responses writes every case's missing_response
		// line, in the order of the cases: those of the cases no line named.
		var none bytes.Buffer
		if _, err := e.Run(context.Background(), strings.NewReader(""), &none, engine.RunOptions{Samples: -1}); err != nil {
			t.Fatal(err)
		}
		missing := strings.Split(strings.TrimSuffix(none.String(), "\n"), "\n")
		for i, ok := range seen {
			if !ok {
				r := new(results.Result)
				if err := r.UnmarshalJSON([]byte(missing[i])); err != nil {
					t.Fatalf("%s: %v", missing[i], err)
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// TestResultRoundTrip: every results line of the examples, read back,
// is the Result that wrote it (less Tool, which the line does not carry),
// and writes the same line again; the agent's runs give diffs with a step
// and a turn.
func TestResultRoundTrip(t *testing.T) {
	all := exampleResults(t)
	alternatives, absent, stepped := 0, 0, 0
	for _, want := range all {
		line := want.AppendJSON(nil)
		var got results.Result
		if err := got.UnmarshalJSON(line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		w := *want
		w.Tool, w.StepTools = "", nil
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
			if d.HasStep {
				stepped++
			}
		}
	}
	if len(all) < 30 || alternatives == 0 || absent == 0 || stepped < 2 {
		t.Errorf("%d lines, %d with an alternative, %d diffs with a side absent, %d with a step: the examples no longer cover the round trip",
			len(all), alternatives, absent, stepped)
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
		{"a partial line", `{"partial":1,"line":1,"result":{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}}`, `no "id": a partial result line of score --partial; merge the parts`},
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
			r := results.Result{ID: "before"}
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
	var r results.Result
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
// makes it panic. The same bytes also generate a Result (genResult), run
// cases' steps and turns among its diffs, which written and read back is
// itself.
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
		// Runs: diffs with a step and a turn, beside diffs without; a
		// sample; a turn without a step, which is not read.
		`{"id":"r","pass":false,"score":0.75,"calls":[{"expected":0,"actual":1,"pass":true,"score":1},{"expected":null,"actual":0,"pass":false,"score":0}],` +
			`"diffs":[{"kind":"unexpected_call","call":1,"step":0,"turn":0,"path":"","actual":"lookup","rule":"ordered","message":"unexpected call to lookup"},` +
			`{"kind":"forbidden_call","call":null,"step":2,"turn":7,"path":"","actual":"delete_account","rule":"never","message":"delete_account must not be called (never[0])"},` +
			`{"kind":"missing_final","call":null,"path":"final","rule":"regex","message":"the run ends without a final answer"}]}`,
		`{"id":"r","sample":3,"pass":false,"score":0.5,"calls":[],"diffs":[{"kind":"too_many_calls","call":null,"step":12,"turn":4,"path":"","expected":2,"actual":3,"rule":"max_calls","message":"m"}]}`,
		`{"id":"r","pass":false,"score":0,"calls":[],"diffs":[{"kind":"mismatch","call":0,"turn":3,"path":"result.error","expected":false,"actual":true,"rule":"error","message":"m"}]}`,
		`{"id":"r","pass":false,"score":0,"calls":[],"diffs":[{"turn":0,"step":0,"kind":"missing_result","call":0,"path":"result","rule":"result","message":"m"}]}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		// The bytes also build a Result, with steps and turns as run
		// cases give them, that must read back as itself.
		gen := genResult([]byte(line))
		genLine := gen.AppendJSON(nil)
		var back results.Result
		if err := back.UnmarshalJSON(genLine); err != nil {
			t.Fatalf("generated %s does not read back: %v", genLine, err)
		}
		if d := resultDiff(gen, &back); d != "" {
			t.Fatalf("generated %s reads back otherwise: %s", genLine, d)
		}
		var first results.Result
		if err := first.UnmarshalJSON([]byte(line)); err != nil {
			return
		}
		out := first.AppendJSON(nil)
		var second results.Result
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

// fuzzResultSides are the values a generated diff's sides take.
var fuzzResultSides = func() []value.Value {
	var out []value.Value
	for _, src := range []string{`null`, `"A-1001"`, `0`, `-0.0e+00`, `1e400`, `3`, `true`, `[1.50,"\u00e9"]`, `{"id":{"x":[]}}`, `"\u2028"`} {
		v, err := value.Parse(src)
		if err != nil {
			panic(err)
		}
		out = append(out, v)
	}
	return out
}()

var fuzzResultKinds = []results.Kind{results.Mismatch, results.MissingArgument, results.UnexpectedCall, results.MissingCall, results.WrongTool,
	results.ForbiddenCall, results.TooManyCalls, results.MissingResult, results.MissingFinal, "a later kind"}

// genResult builds a Result from bytes as a run's scoring could give it:
// calls with either side absent, diffs with or without a step and a turn
// (as run cases' diffs have them), sides absent, null or nested, a sample,
// text that is not ASCII. Each byte read past the end is 0.
func genResult(data []byte) *results.Result {
	pos := 0
	next := func() int {
		if pos >= len(data) {
			pos++
			return 0
		}
		pos++
		return int(data[pos-1])
	}
	text := func() string {
		n := next() % 6
		var b strings.Builder
		for range n {
			b.WriteRune([]rune{'a', '.', '0', '"', '\\', '\n', 'é', '\u2028', '\x00', '😀'}[next()%10])
		}
		return b.String()
	}
	score := func() float64 {
		switch k := next(); k % 4 {
		case 0:
			return 0
		case 1:
			return 1
		default:
			return float64(k<<8|next()) / 65535
		}
	}
	r := &results.Result{ID: text(), Pass: next()%2 == 0, Score: score()}
	if k := next(); k%3 == 0 {
		r.Sample, r.Sampled = k/3, true
	}
	r.Calls = make([]results.CallResult, next()%4)
	for i := range r.Calls {
		r.Calls[i] = results.CallResult{Expected: next()%5 - 1, Actual: next()%5 - 1, Pass: next()%2 == 0, Score: score()}
	}
	r.Diffs = make([]results.Diff, next()%5)
	for i := range r.Diffs {
		d := &r.Diffs[i]
		d.Kind = fuzzResultKinds[next()%len(fuzzResultKinds)]
		d.Call = next()%(len(r.Calls)+1) - 1
		if k := next(); k%4 != 0 {
			d.HasStep, d.Step, d.Turn = true, k%4-1+next()*(k/4), next()
		}
		d.Path = text()
		if k := next() % (len(fuzzResultSides) + 1); k > 0 {
			d.Expected, d.HasExpected = fuzzResultSides[k-1], true
		}
		if k := next() % (len(fuzzResultSides) + 1); k > 0 {
			d.Actual, d.HasActual = fuzzResultSides[k-1], true
		}
		d.Rule, d.Message = text(), text()
	}
	return r
}

// resultDiff says how b differs from a, "" when it does not. Values are
// compared by their JSON text, numbers as written: a Value holds pointers,
// so neither == nor reflect.DeepEqual would do.
func resultDiff(a, b *results.Result) string {
	if a.ID != b.ID || a.Pass != b.Pass || a.Score != b.Score || a.Alternative != b.Alternative || a.Tool != b.Tool {
		return fmt.Sprintf("id, pass, score, alternative, tool %q %v %v %d %q, want %q %v %v %d %q",
			b.ID, b.Pass, b.Score, b.Alternative, b.Tool, a.ID, a.Pass, a.Score, a.Alternative, a.Tool)
	}
	if a.Sample != b.Sample || a.Sampled != b.Sampled {
		return fmt.Sprintf("sample %d (%v), want %d (%v)", b.Sample, b.Sampled, a.Sample, a.Sampled)
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

func diffText(d *results.Diff) string {
	side := func(has bool, v fmt.Stringer) string {
		if !has {
			return "absent"
		}
		return v.String()
	}
	step := "none"
	if d.HasStep {
		step = fmt.Sprintf("%d turn=%d", d.Step, d.Turn)
	} else if d.Step != 0 || d.Turn != 0 {
		step = fmt.Sprintf("none, yet %d turn=%d", d.Step, d.Turn)
	}
	return fmt.Sprintf("%q call=%d step=%s path=%q expected=%s actual=%s rule=%q message=%q",
		d.Kind, d.Call, step, d.Path, side(d.HasExpected, d.Expected), side(d.HasActual, d.Actual), d.Rule, d.Message)
}
