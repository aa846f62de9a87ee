package response

import (
	"errors"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// FuzzExtract feeds arbitrary JSON to every format: ReadCalls must not panic,
// must fail only with a *ShapeError, and must never hand back a call that
// looks usable without an arguments object.
func FuzzExtract(f *testing.F) {
	for _, tt := range extractTests {
		f.Add(tt.in)
	}
	for _, tt := range streamTests {
		f.Add(tt.in)
	}
	for _, line := range conformanceLines {
		f.Add(line)
	}
	for _, examples := range formatExamples {
		for _, ex := range examples {
			f.Add(ex)
		}
	}
	all := everyFormat()
	f.Fuzz(func(t *testing.T, s string) {
		r, err := value.Parse(s)
		if err != nil {
			return
		}
		for _, want := range all {
			checkExtract(t, r, want)
		}
	})
}

// FuzzStream feeds arbitrary text to the stream formats as an SSE
// transcript. Besides FuzzExtract's rules, a transcript whose events all
// read must give the calls that the JSON array of its events gives: the
// two routes put calls together alike.
func FuzzStream(f *testing.F) {
	for _, events := range [][]string{openaiChunks, responsesEvents, anthropicEvents, bedrockEvents} {
		for _, done := range []bool{false, true} {
			text := sseText(events, done)
			f.Add(text)
			f.Add(text[:len(text)*2/3])
		}
	}
	f.Add("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]}}]}\r\n\r\ndata: [DONE]\r")
	f.Add("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\n: comment\ndata: \"content_block\":{\"type\":\"tool_use\",\"name\":\"f\"}}\n\n")
	// What may come before a transcript, and what may not.
	f.Add("\ufeffHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + sseText(anthropicEvents[:10], false) + "da")
	f.Add("log\n  data: " + anthropicEvents[5] + "\n\n")
	streams := []format.Format{format.Auto}
	for _, ft := range formats {
		if ft.isStream() {
			streams = append(streams, ft.name)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := value.StringOf(s)
		for _, want := range streams {
			calls, got := checkExtract(t, r, want)
			if got == format.Auto || !isSSE(s) {
				continue
			}
			elems, readable := eventValues(s)
			if !readable {
				continue
			}
			want, _, err := readCalls(value.ArrayOf(elems...), got, fuzzLimits)
			if err != nil || !sameCalls(calls, want) {
				t.Fatalf("Extract(%q) of the transcript = %v, of its events = %v, %v", got, calls, want, err)
			}
		}
	})
}

// fuzzLimits keep a fuzzed input's arguments small.
var fuzzLimits = value.Limits{MaxDepth: 32, MaxBytes: 1 << 16}

// checkExtract checks the rules every ReadCalls keeps, and returns the calls
// and the format read.
func checkExtract(t *testing.T, r value.Value, want format.Format) ([]Call, format.Format) {
	t.Helper()
	calls, got, err := readCalls(r, want, fuzzLimits)
	if err != nil {
		var se *ShapeError
		if !errors.As(err, &se) || calls != nil || got != want {
			t.Fatalf("Extract(%q) = %d calls, %q, %v", want, len(calls), got, err)
		}
		return nil, format.Auto
	}
	if want != format.Auto && got != want {
		t.Fatalf("Extract(%q) read as %q", want, got)
	}
	if len(calls) == 0 && calls != nil {
		t.Fatalf("Extract(%q) returned an empty non-nil slice", want)
	}
	for i, c := range calls {
		if c.Err == nil {
			if c.Args.Kind() != value.Object {
				t.Fatalf("Extract(%q) call %d has no error and %s arguments", want, i, c.Args.Kind())
			}
			continue
		}
		var ae *ArgumentsError
		if !errors.As(c.Err, &ae) || ae.Index != i {
			t.Fatalf("Extract(%q) call %d error = %v", want, i, c.Err)
		}
		if c.Args.Kind() != value.Null {
			t.Fatalf("Extract(%q) call %d failed but has arguments", want, i)
		}
		_ = c.Err.Error()
	}
	return calls, got
}

// sameCalls reports whether a and b are the same calls, failing alike;
// their messages name places differently.
func sameCalls(a, b []Call) bool {
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

// eventValues are the data of the events of transcript s, and whether
// all of them read.
func eventValues(s string) ([]value.Value, bool) {
	var vs []value.Value
	for _, ev := range sseEvents(s, extraction{lim: fuzzLimits}) {
		if ev.err != nil {
			return nil, false
		}
		if !ev.done {
			vs = append(vs, ev.v)
		}
	}
	return vs, true
}
