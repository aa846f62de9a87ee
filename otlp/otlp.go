// Package otlp imports OpenTelemetry traces: it turns a trace export of
// OTLP/JSON lines, as a collector's file exporter writes them, into a
// responses file for callgrade score, one response per case, which the
// otlp response format reads (docs/formats.md, Traces).
//
// It is an importer, beside bfcl and acebench: each turns what another
// tool writes into callgrade's files, and a program that only scores
// needs none of them. It splits an export by case (split.go); the spans
// of a case are read by package response, as any response of the otlp
// format is.
package otlp

import (
	"bufio"
	"io"

	"github.com/callgrade/callgrade/value"
)

// CaseAttribute is the attribute of a trace's root span that names its
// case unless ConvertTraces is given another: an agent under test sets it
// on the span around its run.
const CaseAttribute = "callgrade.case.id"

// ConvertTraces reads a trace export from r (name is its name in
// messages; it may be gzip-compressed) and writes to w one {"id",
// "response"} line per case, in the order in which each case's first span
// comes, whose response is the spans of its traces as one export object.
// It returns the number of responses written and of traces read.
//
// The spans of a trace go together, whichever lines they come in. A trace
// names its case by the attribute attr (CaseAttribute, say) of its root
// span; a trace without it is a case named by its trace id, and an empty
// attr names every case by its trace id. Traces that name the same case
// make one response. A line that is not an export object, a span without
// a trace id and a trace whose root spans name two cases are errors
// naming the line; nothing is written then.
func ConvertTraces(r io.Reader, name string, w io.Writer, attr string) (responses, traces int, err error) {
	cases, err := splitTraces(r, name, attr)
	if err != nil {
		return 0, 0, err
	}
	bw := bufio.NewWriter(w)
	var line []byte
	for _, c := range cases {
		v, err := value.ObjectOf(value.Member{Key: "id", Value: value.StringOf(c.ID)}, value.Member{Key: "response", Value: c.Export})
		if err != nil {
			return 0, 0, err // two keys, never the same: not reached
		}
		line = append(v.AppendJSON(line[:0]), '\n')
		if _, err := bw.Write(line); err != nil {
			return 0, 0, err
		}
		traces += len(c.Traces)
	}
	if err := bw.Flush(); err != nil {
		return 0, 0, err
	}
	return len(cases), traces, nil
}
