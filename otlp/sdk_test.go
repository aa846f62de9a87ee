package otlp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// An agent instrumented with the OpenTelemetry Go SDK, as the GenAI
// semantic conventions have it, records its runs; the in-memory
// exporter's spans, encoded as OTLP/JSON by protojson, are split into
// responses and scored by the engine: a run recorded with its content is
// scored, one without is not evaluable.
func TestSDKTraceScoredEndToEnd(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "weather-agent"))))
	tracer := tp.Tracer("weather-agent/genai", trace.WithInstrumentationVersion("0.1.0"))
	start := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	runAgent(tracer, "weather-paris", "Paris", true, nil, start)
	runAgent(tracer, "weather-rome", "Rome", false, nil, start.Add(time.Minute))
	runAgent(tracer, "weather-oslo", "Oslo", true, errUnavailable, start.Add(2*time.Minute))
	stubs := exp.GetSpans() // before Shutdown, which empties the exporter
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	// The export, as one line of a collector's file: all three traces.
	line, err := protojson.Marshal(toOTLP(stubs))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := splitTraces(bytes.NewReader(line), "sdk.jsonl", CaseAttribute)
	if err != nil {
		t.Fatal(err)
	}
	var responses bytes.Buffer
	for _, c := range cases {
		l, _ := value.ObjectOf(value.Member{Key: "id", Value: value.StringOf(c.ID)}, value.Member{Key: "response", Value: c.Export})
		responses.WriteString(l.String() + "\n")
	}

	s := &suite.Suite{}
	for _, city := range []string{"Paris", "Rome", "Oslo"} {
		args, _ := value.ObjectOf(value.Member{Key: "location", Value: value.StringOf(city)})
		s.Cases = append(s.Cases, suite.Case{ID: "weather-" + strings.ToLower(city), Expected: []suite.Call{{Name: "get_weather", Arguments: args}}})
	}
	eng, err := engine.New(suite.ViewOf(s), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sum, err := eng.Run(context.Background(), &responses, &out, engine.RunOptions{Name: "sdk.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		ID    string
		Pass  bool
		Diffs []struct{ Kind, Message string }
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			ID    string
			Pass  bool
			Diffs []struct{ Kind, Message string }
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != 3 || sum.Cases != 3 || sum.Passed != 2 || sum.ByKind[results.NotEvaluable] != 1 {
		t.Fatalf("summary %+v, results\n%s", sum, out.String())
	}
	if !got[0].Pass || !got[2].Pass {
		t.Errorf("the runs with content fail:\n%s", out.String())
	}
	if r := got[1]; r.ID != "weather-rome" || r.Pass || len(r.Diffs) != 1 || r.Diffs[0].Kind != "not_evaluable" ||
		!strings.Contains(r.Diffs[0].Message, "recorded without the opt-in content") {
		t.Errorf("the run without content: %+v", r)
	}

	// The run's details: the tool's result, its error, the answer.
	for _, c := range cases {
		run, f, err := response.Options{}.Read(c.Export, format.Auto)
		if err != nil || f != format.OTLP {
			t.Fatalf("%s: %v, %v", c.ID, f, err)
		}
		switch c.ID {
		case "weather-paris":
			if len(run.Steps) != 1 || run.Steps[0].ID != "call_paris" || run.Steps[0].Error || run.Steps[0].Result.String() != `"rainy, 57°F"` ||
				run.Final != "It is rainy in Paris." {
				t.Errorf("%s: %+v", c.ID, run)
			}
		case "weather-oslo":
			if len(run.Steps) != 1 || !run.Steps[0].Error || run.Steps[0].Result.String() != `"the weather service is unavailable"` ||
				run.Final != "It is rainy in Oslo." {
				t.Errorf("%s: %+v", c.ID, run)
			}
		case "weather-rome":
			if len(run.Steps) != 1 || run.Steps[0].Name != "get_weather" || run.Steps[0].Err == nil || run.NotEvaluable == "" {
				t.Errorf("%s: %+v", c.ID, run)
			}
		}
	}
}

var errUnavailable = &struct{ msg string }{"the weather service is unavailable"}

// runAgent records one run of a weather agent, as its GenAI
// instrumentation would: a chat span whose output is a call of
// get_weather, the execute_tool span that runs it, and a chat span with
// the answer, under an agent span that names the case. With content,
// the chat spans record their output messages and the tool span its
// arguments and result; toolErr fails the tool.
func runAgent(tracer trace.Tracer, caseID, city string, content bool, toolErr *struct{ msg string }, start time.Time) {
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	id := "call_" + strings.ToLower(city)
	ctx, agent := tracer.Start(context.Background(), "invoke_agent weather", trace.WithTimestamp(at(0)),
		trace.WithAttributes(attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String(CaseAttribute, caseID)))

	chat := func(ms int, output string, finish string) {
		attrs := []attribute.KeyValue{attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.provider.name", "openai"),
			attribute.String("gen_ai.request.model", "gpt-4o"), attribute.Int("gen_ai.request.max_tokens", 200)}
		if content {
			attrs = append(attrs, attribute.String("gen_ai.output.messages", output))
		}
		_, s := tracer.Start(ctx, "chat gpt-4o", trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(at(ms)), trace.WithAttributes(attrs...))
		s.SetAttributes(attribute.StringSlice("gen_ai.response.finish_reasons", []string{finish}))
		s.End(trace.WithTimestamp(at(ms + 5)))
	}
	chat(1, `[{"role":"assistant","parts":[{"type":"tool_call","id":"`+id+`","name":"get_weather","arguments":{"location":"`+city+`"}}],"finish_reason":"tool_call"}]`, "tool_calls")

	attrs := []attribute.KeyValue{attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", "get_weather"),
		attribute.String("gen_ai.tool.call.id", id), attribute.String("gen_ai.tool.type", "function")}
	if content {
		attrs = append(attrs, attribute.String("gen_ai.tool.call.arguments", `{"location":"`+city+`"}`))
	}
	_, tool := tracer.Start(ctx, "execute_tool get_weather", trace.WithTimestamp(at(10)), trace.WithAttributes(attrs...))
	if toolErr != nil {
		tool.SetStatus(codes.Error, toolErr.msg)
		tool.SetAttributes(attribute.String("error.type", "WeatherServiceError"))
	} else if content {
		tool.SetAttributes(attribute.String("gen_ai.tool.call.result", "rainy, 57°F"))
	}
	tool.End(trace.WithTimestamp(at(12)))

	chat(20, `[{"role":"assistant","parts":[{"type":"text","content":"It is rainy in `+city+`."}],"finish_reason":"stop"}]`, "stop")
	agent.End(trace.WithTimestamp(at(30)))
}

// toOTLP converts the SDK's spans into the OTLP protocol's messages, as
// its OTLP exporters do: spans grouped by resource and instrumentation
// scope, in the order they were exported.
func toOTLP(spans tracetest.SpanStubs) *tracepb.TracesData {
	td := &tracepb.TracesData{}
	type key struct {
		res   *resource.Resource
		scope string
	}
	scopes := map[key]*tracepb.ScopeSpans{}
	resources := map[*resource.Resource]*tracepb.ResourceSpans{}
	for _, s := range spans {
		rs := resources[s.Resource]
		if rs == nil {
			rs = &tracepb.ResourceSpans{Resource: &resourcepb.Resource{Attributes: keyValues(s.Resource.Attributes())}, SchemaUrl: s.Resource.SchemaURL()}
			resources[s.Resource] = rs
			td.ResourceSpans = append(td.ResourceSpans, rs)
		}
		k := key{s.Resource, s.InstrumentationScope.Name + "@" + s.InstrumentationScope.Version}
		ss := scopes[k]
		if ss == nil {
			ss = &tracepb.ScopeSpans{Scope: &commonpb.InstrumentationScope{Name: s.InstrumentationScope.Name, Version: s.InstrumentationScope.Version}}
			scopes[k] = ss
			rs.ScopeSpans = append(rs.ScopeSpans, ss)
		}
		tid, sid := s.SpanContext.TraceID(), s.SpanContext.SpanID()
		p := &tracepb.Span{
			TraceId: tid[:], SpanId: sid[:], Name: s.Name,
			Kind:              tracepb.Span_SpanKind(s.SpanKind),
			StartTimeUnixNano: uint64(s.StartTime.UnixNano()), EndTimeUnixNano: uint64(s.EndTime.UnixNano()),
			Attributes: keyValues(s.Attributes),
			Status:     &tracepb.Status{Message: s.Status.Description},
		}
		if s.Parent.IsValid() {
			psid := s.Parent.SpanID()
			p.ParentSpanId = psid[:]
		}
		switch s.Status.Code {
		case codes.Error:
			p.Status.Code = tracepb.Status_STATUS_CODE_ERROR
		case codes.Ok:
			p.Status.Code = tracepb.Status_STATUS_CODE_OK
		}
		ss.Spans = append(ss.Spans, p)
	}
	return td
}

func keyValues(attrs []attribute.KeyValue) []*commonpb.KeyValue {
	out := make([]*commonpb.KeyValue, len(attrs))
	for i, a := range attrs {
		out[i] = &commonpb.KeyValue{Key: string(a.Key), Value: anyValue(a.Value)}
	}
	return out
}

func anyValue(v attribute.Value) *commonpb.AnyValue {
	array := func(n int, elem func(i int) *commonpb.AnyValue) *commonpb.AnyValue {
		vs := make([]*commonpb.AnyValue, n)
		for i := range vs {
			vs[i] = elem(i)
		}
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{Values: vs}}}
	}
	str := func(s string) *commonpb.AnyValue {
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: s}}
	}
	switch v.Type() {
	case attribute.BOOL:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: v.AsBool()}}
	case attribute.INT64:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: v.AsInt64()}}
	case attribute.FLOAT64:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: v.AsFloat64()}}
	case attribute.STRINGSLICE:
		ss := v.AsStringSlice()
		return array(len(ss), func(i int) *commonpb.AnyValue { return str(ss[i]) })
	}
	return str(v.Emit())
}
