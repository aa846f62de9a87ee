// Package otlptest writes small OTLP/JSON trace exports for the tests of
// the trace reader (internal/response) and of the importer that splits an
// export by case (otlp), so that both read the same shapes.
package otlptest

import (
	"fmt"
	"strconv"
	"strings"
)

// Export is an OTLP/JSON export of spans, under one resource and scope.
func Export(spans ...string) string {
	return `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"test"},"spans":[` +
		strings.Join(spans, ",") + `]}]}]}`
}

// Span is a span of trace t1 named name that starts at start, with its
// attributes and any more members of its own (an argument that begins
// with a quote, such as `"status":{…}`).
func Span(name string, start int, attrs ...string) string {
	var more []string
	var as []string
	for _, a := range attrs {
		if strings.HasPrefix(a, `"`) {
			more = append(more, a)
		} else {
			as = append(as, a)
		}
	}
	s := fmt.Sprintf(`{"traceId":"t1","spanId":"s%d","name":%q,"kind":1,"startTimeUnixNano":"%d","attributes":[%s]`,
		start, name, start, strings.Join(as, ","))
	for _, m := range more {
		s += "," + m
	}
	return s + "}"
}

// Str is a string attribute.
func Str(key, v string) string { return Attr(key, `{"stringValue":`+strconv.Quote(v)+`}`) }

// Attr is an attribute whose value is any, an AnyValue as JSON.
func Attr(key, any string) string {
	return `{"key":` + strconv.Quote(key) + `,"value":` + any + `}`
}
