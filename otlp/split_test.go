package otlp

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/otlptest"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/value"
)

// A collector's export: the spans of each case go together, whichever
// lines they come in, and each reads as the trace it came from.
func TestSplitTraces(t *testing.T) {
	text := readFixture(t, "collector.jsonl")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	for _, in := range []struct {
		name string
		data []byte
	}{{"collector.jsonl", []byte(text)}, {"collector.jsonl.gz", gz.Bytes()}} {
		cases, err := splitTraces(bytes.NewReader(in.data), in.name, CaseAttribute)
		if err != nil {
			t.Fatal(err)
		}
		want := []struct {
			id, fixture string
			line        int
			traces      string
		}{
			{"weather-paris", "genai_weather.json", 1, "4bf92f3577b34da6a3ce929d0e0e4736"},
			{"weather-rome", "genai_no_content.json", 2, "5b8efff798038103d269b633813fc60c"},
			{"weather-boston", "openinference_boston.json", 3, "0af7651916cd43dd8448eb211c80319c"},
		}
		if len(cases) != len(want) {
			t.Fatalf("%d cases, want %d: %v", len(cases), len(want), cases)
		}
		for i, w := range want {
			c := cases[i]
			if c.ID != w.id || c.Line != w.line || strings.Join(c.Traces, " ") != w.traces {
				t.Errorf("case %d = %q line %d traces %v, want %q line %d %s", i, c.ID, c.Line, c.Traces, w.id, w.line, w.traces)
			}
			fr, _ := value.Parse(readFixture(t, w.fixture))
			wantRun, _, _ := response.Options{}.Read(fr, format.Auto)
			gotRun, got, err := response.Options{}.Read(c.Export, format.Auto)
			if err != nil || got != format.OTLP || gotRun.Final != wantRun.Final || gotRun.NotEvaluable != wantRun.NotEvaluable ||
				!sameCalls(gotRun.Calls(), wantRun.Calls()) || len(gotRun.Steps) != len(wantRun.Steps) {
				t.Errorf("case %s reads as %+v, %v; its trace alone as %+v", c.ID, gotRun, err, wantRun)
			}
		}
	}
	// Without the attribute, a case is a trace, named by its id.
	cases, err := splitTraces(strings.NewReader(text), "collector.jsonl", "")
	if err != nil || len(cases) != 3 || cases[0].ID != "4bf92f3577b34da6a3ce929d0e0e4736" || cases[2].ID != "0af7651916cd43dd8448eb211c80319c" {
		t.Errorf("by trace id: %v, %v", cases, err)
	}
	// Traces that name one case make one response.
	two := otlptest.Export(otlptest.Span("invoke_agent", 1, otlptest.Str(CaseAttribute, "a"))) + "\n" +
		strings.ReplaceAll(otlptest.Export(otlptest.Span("invoke_agent", 2, otlptest.Attr(CaseAttribute, `{"intValue":"7"}`))), `"t1"`, `"t2"`) + "\n\n" +
		strings.ReplaceAll(otlptest.Export(otlptest.Span("invoke_agent", 3, otlptest.Str(CaseAttribute, "a"))), `"t1"`, `"t3"`) + "\n"
	cases, err = splitTraces(strings.NewReader(two), "two.jsonl", CaseAttribute)
	if err != nil || len(cases) != 2 || cases[0].ID != "a" || strings.Join(cases[0].Traces, " ") != "t1 t3" || cases[1].ID != "7" {
		t.Errorf("traces of one case: %+v, %v", cases, err)
	}
	if rss, _ := cases[0].Export.Get("resourceSpans"); rss.Len() != 2 {
		t.Errorf("case a holds %s", cases[0].Export)
	}
}

func TestSplitTracesErrors(t *testing.T) {
	child := `{"traceId":"t1","spanId":"c","parentSpanId":"r","name":"x","attributes":[` + otlptest.Str(CaseAttribute, "b") + `]}`
	for _, tt := range []struct{ in, want string }{
		{otlptest.Export(otlptest.Span("x", 1)) + "\n{\"resourceSpans\":\n", "f.jsonl:2: not JSON: "},
		{"\n" + `{"spans":[]}`, "f.jsonl:2: not an OTLP/JSON trace export: an object with keys [spans], not an object with resourceSpans"},
		{`[1]`, "f.jsonl:1: not an OTLP/JSON trace export: an array of 1 elements"},
		{`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"x"}]}]}]}`, "f.jsonl:1: resourceSpans[0].scopeSpans[0].spans[0] has no traceId"},
		{`{"resourceSpans":[{"scopeSpans":{}}]}`, "f.jsonl:1: resourceSpans[0].scopeSpans is an object, not an array"},
		{otlptest.Export(otlptest.Span("x", 1, otlptest.Str(CaseAttribute, "a"))) + "\n" + otlptest.Export(strings.Replace(otlptest.Span("y", 2, otlptest.Str(CaseAttribute, "b")), `"s2"`, `"s2","parentSpanId":"elsewhere"`, 1)),
			`f.jsonl:2: trace t1 names two cases, "a" (line 1) and "b"`},
		{otlptest.Export(otlptest.Span("x", 1, otlptest.Attr(CaseAttribute, `{"boolValue":true}`))), "f.jsonl:1: trace t1: attribute callgrade.case.id is a boolean, not a case id"},
	} {
		_, err := splitTraces(strings.NewReader(tt.in), "f.jsonl", CaseAttribute)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("splitTraces(%.60q) = %v, want %q", tt.in, err, tt.want)
		}
	}
	// A child span's attribute names no case: only a root's does.
	root := strings.Replace(otlptest.Span("r", 1, otlptest.Str(CaseAttribute, "a")), `"s1"`, `"r"`, 1)
	cases, err := splitTraces(strings.NewReader(otlptest.Export(root, child)), "f.jsonl", CaseAttribute)
	if err != nil || len(cases) != 1 || cases[0].ID != "a" {
		t.Errorf("a child's attribute: %v, %v", cases, err)
	}
}

// FuzzSplitTraces feeds arbitrary JSON to the splitting of an export: it
// must not panic, and each case of an export that splits reads as a
// trace.
func FuzzSplitTraces(f *testing.F) {
	for _, name := range []string{"genai_weather.json", "genai_no_content.json", "openinference_boston.json"} {
		f.Add(readFixture(f, name))
	}
	f.Add(otlptest.Export(otlptest.Span("invoke_agent", 1, otlptest.Str(CaseAttribute, "a"))))
	f.Fuzz(func(t *testing.T, s string) {
		r, err := value.Parse(s)
		if err != nil || r.Kind() != value.Object || !r.Has("resourceSpans") {
			return
		}
		cases, err := splitTraces(strings.NewReader(r.String()), "fuzz", CaseAttribute)
		if err != nil {
			return
		}
		for _, c := range cases {
			if _, got, err := (response.Options{}).Read(c.Export, format.Auto); err != nil || got != format.OTLP {
				t.Fatalf("case %q of the split reads as %q, %v", c.ID, got, err)
			}
		}
	})
}

// readFixture reads a trace of package response's test data.
func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "internal", "response", "testdata", "traces", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameCalls reports whether a and b are the same calls: names, arguments
// and whether each failed.
func sameCalls(a, b []response.Call) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || (a[i].Err == nil) != (b[i].Err == nil) || !value.Equal(a[i].Args, b[i].Args) {
			return false
		}
	}
	return true
}
