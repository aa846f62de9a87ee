package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
)

// traceOf is an OTLP/JSON export of spans under one resource and scope.
func traceOf(spans ...string) string {
	return `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"test"},"spans":[` + strings.Join(spans, ",") + `]}]}]}`
}

// spanOf is a span that starts at start, with string attributes given as
// key, value pairs.
func spanOf(name string, start int, kv ...string) string {
	var attrs []string
	for i := 0; i+1 < len(kv); i += 2 {
		attrs = append(attrs, `{"key":`+strconv.Quote(kv[i])+`,"value":{"stringValue":`+strconv.Quote(kv[i+1])+`}}`)
	}
	return fmt.Sprintf(`{"traceId":"t1","spanId":"s%d","name":%q,"startTimeUnixNano":"%d","attributes":[%s]}`, start, name, start, strings.Join(attrs, ","))
}

// TestScoreTraceRulings scores traces whose model spans record their
// output in part, or end on a call with text beside it: neither passes.
func TestScoreTraceRulings(t *testing.T) {
	e := load(t, `version: 1
cases:
  - id: t
    steps:
      - name: get_weather
        arguments: {location: Paris}
        result: {error: false}
    never: [delete_account]
    final: {regex: Paris}
`)
	call := func(start int, text string) string {
		parts := `{"type":"tool_call","id":"c1","name":"get_weather","arguments":{"location":"Paris"}}`
		if text != "" {
			parts += `,{"type":"text","content":` + strconv.Quote(text) + `}`
		}
		return spanOf("chat m", start, "gen_ai.operation.name", "chat", "gen_ai.output.messages", `[{"role":"assistant","parts":[`+parts+`]}]`)
	}
	tool := spanOf("execute_tool get_weather", 2, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "get_weather",
		"gen_ai.tool.call.id", "c1", "gen_ai.tool.call.result", "rainy")
	answer := spanOf("chat m", 4, "gen_ai.operation.name", "chat", "gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"Paris is rainy."}]}]`)
	for _, tc := range []struct {
		name  string
		trace string
		pass  bool
		kinds []results.Kind
		json  string
	}{
		{name: "recorded whole", trace: traceOf(call(1, ""), tool, answer), pass: true},
		{name: "a chat span without its output", kinds: []results.Kind{results.NotEvaluable},
			trace: traceOf(call(1, ""), tool, spanOf("chat m", 3, "gen_ai.operation.name", "chat"), answer),
			json:  `records no output (no gen_ai.output.messages), while 2 other model spans of the trace record theirs: a trace recorded in part may hide calls`},
		{name: "an OpenInference LLM span without its output", kinds: []results.Kind{results.NotEvaluable},
			trace: traceOf(call(1, ""), tool, spanOf("llm", 3, "openinference.span.kind", "LLM", "llm.input_messages.0.message.content", "hi"), answer),
			json:  `(\"llm\") records no output (no llm.output_messages.0.message attributes)`},
		{name: "a chat span that failed", pass: true,
			trace: traceOf(call(1, ""), tool, spanOf("chat m", 3, "gen_ai.operation.name", "chat", "error.type", "RateLimitError"), answer)},
		{name: "text beside the last call", trace: traceOf(call(1, "Paris is rainy."), tool), kinds: []results.Kind{results.MissingFinal}},
	} {
		resp := mustParse(t, tc.trace)
		for _, r := range []*results.Result{scoreNoWork(e, 0, resp), e.newScorer().Score(0, resp)} {
			line := string(r.AppendJSON(nil))
			if r.Pass != tc.pass || !slices.Equal(kinds(r), tc.kinds) || !strings.Contains(line, tc.json) {
				t.Errorf("%s: pass=%v kinds=%v, want pass=%v kinds=%v ...%s...\n%s", tc.name, r.Pass, kinds(r), tc.pass, tc.kinds, tc.json, line)
			}
		}
	}
}
