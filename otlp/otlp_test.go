package otlp_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/otlp"
)

// ConvertTraces writes one responses line per case, named by the case
// attribute or by the trace id, and writes nothing for an export it
// cannot read.
func TestConvertTraces(t *testing.T) {
	collector, err := os.ReadFile("../internal/response/testdata/traces/collector.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, in, attr     string
		responses, traces  int
		firstLine, wantErr string // a prefix of the first line written; what the error says
	}{
		{"by case attribute", string(collector), otlp.CaseAttribute, 3, 3, `{"id":"weather-paris","response":{"resourceSpans":[`, ""},
		{"by trace id", string(collector), "", 3, 3, `{"id":"4bf92f3577b34da6a3ce929d0e0e4736","response":{"resourceSpans":[`, ""},
		{"empty", "", otlp.CaseAttribute, 0, 0, "", ""},
		{"a span without a trace id", `{"resourceSpans": [{"scopeSpans": [{"spans": [{"spanId": "a"}]}]}]}` + "\n", otlp.CaseAttribute, 0, 0, "", "traces.jsonl:1: resourceSpans[0].scopeSpans[0].spans[0] has no traceId"},
		{"not an export", "[]\n", otlp.CaseAttribute, 0, 0, "", "traces.jsonl:1: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			responses, traces, err := otlp.ConvertTraces(strings.NewReader(tt.in), "traces.jsonl", &out, tt.attr)
			switch {
			case tt.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one starting %q", err, tt.wantErr)
			case tt.wantErr == "" && err != nil:
				t.Fatal(err)
			}
			if responses != tt.responses || traces != tt.traces {
				t.Errorf("%d responses from %d traces, want %d from %d", responses, traces, tt.responses, tt.traces)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if out.Len() == 0 {
				lines = nil
			}
			if len(lines) != tt.responses {
				t.Fatalf("%d lines written, want %d:\n%s", len(lines), tt.responses, out.String())
			}
			if tt.responses > 0 && !strings.HasPrefix(lines[0], tt.firstLine) {
				t.Errorf("first line %.120s…, want it to start %s", lines[0], tt.firstLine)
			}
		})
	}
}
