package otlp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// traceCase is the response of one case that splitTraces found: the
// spans of its traces, as one OTLP/JSON export object.
type traceCase struct {
	// ID is the case's id: the value of the case attribute on the root
	// span of its traces, or else the id of its trace as the file writes
	// it.
	ID string
	// Export is {"resourceSpans": […]}: the spans, each under the
	// resource and scope it came with, in the order of the file.
	Export value.Value
	// Traces are the ids of the traces it holds, in the order of the file.
	Traces []string
	// Line is the line of the file where its first span is.
	Line int
}

// splitTraces reads a trace export of OTLP/JSON lines, one export object
// a line as an OpenTelemetry collector's file exporter writes them, and
// returns its spans by case, in the order in which each case's first
// span comes. A line may hold the spans of several traces, and a trace's
// spans may come in several lines.
//
// The spans of a trace go together. A trace names its case by the
// attribute attr (CaseAttribute, say) of its root span, the span without
// a parent in the trace; a trace without it is a case of its own, whose
// id is its trace id. Traces that name the same case make one response,
// for an agent that traces each turn apart. An empty attr names every
// case by its trace id.
//
// The file may be gzip-compressed, as results.ResponseText reads it. A line that is
// not an export object, a span without a trace id and a trace whose root
// spans name two cases are errors that name the file (name) and the line.
// Blank lines are passed over.
func splitTraces(r io.Reader, name, attr string) ([]traceCase, error) {
	text, err := results.ResponseText(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	br := bufio.NewReaderSize(text, readerSize)
	sp := splitter{byTrace: map[string]*splitTrace{}}
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			if msg := sp.line(b, line); msg != "" {
				return nil, fmt.Errorf("%s:%d: %s", name, line, msg)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	return sp.cases(name, attr)
}

// readerSize is the buffer of the reader of the export; ResponseText's,
// of a few bytes, then passes its reads straight through.
const readerSize = 1 << 20

// splitter gathers the spans of each trace.
type splitter struct {
	traces  []*splitTrace
	byTrace map[string]*splitTrace
}

// splitTrace is one trace's spans, in chunks: the spans of one scope list
// of one line, under that list's resource and scope.
type splitTrace struct {
	id     string
	line   int
	chunks []splitChunk
	ids    map[string]bool // its span ids
}

type splitChunk struct {
	rs, ss value.Value // the resourceSpans and scopeSpans elements
	spans  []value.Value
	lines  []int // the line of each span
}

// line reads one line of the export; the result says what is wrong with
// it.
func (sp *splitter) line(b []byte, line int) string {
	doc, err := (*value.Parser)(nil).Parse(string(b), value.Limits{MaxBytes: len(b) + 1, MaxDepth: jsontext.DefaultMaxDepth + response.EnvelopeDepth})
	switch {
	case err != nil:
		return "not JSON: " + err.Error()
	case doc.Kind() != value.Object || !doc.Has("resourceSpans"):
		return "not an OTLP/JSON trace export: " + response.Describe(doc) + ", not an object with resourceSpans"
	}
	return response.EachSpan(doc, func(rs, ss, s value.Value, at string) string {
		if s.Kind() != value.Object {
			return at + " is " + jsonv.WithArticle(s.Kind()) + ", not an object"
		}
		tid, _ := s.Get("traceId")
		if tid.Kind() != value.String || tid.Str() == "" {
			return at + " has no traceId"
		}
		t := sp.byTrace[tid.Str()]
		if t == nil {
			t = &splitTrace{id: tid.Str(), line: line, ids: map[string]bool{}}
			sp.byTrace[t.id] = t
			sp.traces = append(sp.traces, t)
		}
		if sid, _ := s.Get("spanId"); sid.Kind() == value.String {
			t.ids[sid.Str()] = true
		}
		n := len(t.chunks)
		if n == 0 || t.chunks[n-1].lines[0] != line || !same(t.chunks[n-1].rs, rs) || !same(t.chunks[n-1].ss, ss) {
			t.chunks = append(t.chunks, splitChunk{rs: rs, ss: ss})
			n++
		}
		c := &t.chunks[n-1]
		c.spans = append(c.spans, s)
		c.lines = append(c.lines, line)
		return ""
	})
}

// same reports whether a and b are the same element of a parsed line:
// the same object, not an equal one.
func same(a, b value.Value) bool {
	am, bm := a.Members(), b.Members()
	return len(am) == len(bm) && (len(am) == 0 || &am[0] == &bm[0])
}

// cases groups the traces by case.
func (sp *splitter) cases(name, attr string) ([]traceCase, error) {
	var out []traceCase
	byCase := map[string]int{}
	for _, t := range sp.traces {
		id, err := t.caseID(attr)
		if err != "" {
			return nil, fmt.Errorf("%s:%s", name, err)
		}
		k, ok := byCase[id]
		if !ok {
			k = len(out)
			byCase[id] = k
			out = append(out, traceCase{ID: id, Line: t.line})
		}
		out[k].Traces = append(out[k].Traces, t.id)
	}
	for k := range out {
		var rss []value.Value
		for _, tid := range out[k].Traces {
			for _, c := range sp.byTrace[tid].chunks {
				ss := jsonv.With(c.ss, "spans", value.ArrayOf(c.spans...))
				rss = append(rss, jsonv.With(c.rs, "scopeSpans", value.ArrayOf(ss)))
			}
		}
		out[k].Export, _ = value.ObjectOf(value.Member{Key: "resourceSpans", Value: value.ArrayOf(rss...)})
	}
	return out, nil
}

// caseID is the case trace t names: the attribute attr of its root spans,
// or its id. The error begins with the line it is about.
func (t *splitTrace) caseID(attr string) (string, string) {
	if attr == "" {
		return t.id, ""
	}
	id, idLine := "", 0
	for _, c := range t.chunks {
		for j, s := range c.spans {
			if p, _ := s.Get("parentSpanId"); p.Str() != "" && t.ids[p.Str()] {
				continue // not a root
			}
			attrs, _ := s.Get("attributes")
			for _, a := range attrs.Elems() {
				if k, _ := a.Get("key"); k.Str() != attr {
					continue
				}
				av, _ := a.Get("value")
				v, why := response.AnyValue(av)
				switch {
				case why != "":
					return "", strconv.Itoa(c.lines[j]) + ": trace " + t.id + ": attribute " + attr + ": " + why
				case v.Kind() != value.String && v.Kind() != value.Number || v.Str() == "":
					return "", strconv.Itoa(c.lines[j]) + ": trace " + t.id + ": attribute " + attr + " is " + jsonv.WithArticle(v.Kind()) + ", not a case id"
				case id != "" && v.Str() != id:
					return "", strconv.Itoa(c.lines[j]) + ": trace " + t.id + " names two cases, " +
						strconv.Quote(id) + " (line " + strconv.Itoa(idLine) + ") and " + strconv.Quote(v.Str())
				}
				id, idLine = v.Str(), c.lines[j]
			}
		}
	}
	if id == "" {
		return t.id, ""
	}
	return id, ""
}
