package response

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// A byte order mark and a recorded HTTP response head before a
// transcript are skipped; any other text before or among a stream's
// events makes the response in no known shape, never a text answer, in
// which the stream's calls would vanish. Text that only mentions data:
// stays text.
func TestTranscriptAround(t *testing.T) {
	sse := sseText(anthropicEvents, false)
	cut := sseText(anthropicEvents[:10], false) // cut between two calls
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
	tests := []struct {
		name, in string
		f        format.Format
		calls    []wantCall // when err is ""
		err      string     // a part of the ShapeError
	}{
		{name: "byte order mark", in: "\ufeff" + sse, calls: []wantCall{ok("f", `{"x":1}`)}},
		{name: "http head", in: head + sse, calls: []wantCall{ok("f", `{"x":1}`)}},
		{name: "http head, lines counted", in: head + cut,
			calls: []wantCall{ok("f", `{"x":1}`), bad("", "the stream ends at the event at line 33 without its message_stop")}},
		{name: "http/2 head as curl -i writes it", in: "HTTP/2 200 \r\ncontent-type: text/event-stream; charset=utf-8\r\nrequest-id: req_1\r\n\r\n" + sse,
			calls: []wantCall{ok("f", `{"x":1}`)}},
		{name: "http head with LF", in: strings.ReplaceAll(head, "\r\n", "\n") + sse, calls: []wantCall{ok("f", `{"x":1}`)}},
		{name: "two http heads", in: "HTTP/1.1 100 Continue\r\n\r\n" + head + sse, calls: []wantCall{ok("f", `{"x":1}`)}},
		{name: "byte order mark and http head", in: "\ufeff" + head + sse, calls: []wantCall{ok("f", `{"x":1}`)}},
		{name: "http head forced", in: head + sse, f: format.AnthropicStream, calls: []wantCall{ok("f", `{"x":1}`)}},
		{name: "http head of an error", in: "HTTP/1.1 529 Overloaded\r\nContent-Type: text/event-stream\r\n\r\n" + sse,
			err: "a recorded HTTP response of status 529, not 2xx"},
		{name: "http head and a JSON body", in: head + `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			err: "a recorded HTTP response (status 200) whose body is no SSE transcript"},
		{name: "http head and no body", in: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n", err: "whose body is no SSE transcript"},
		{name: "a log line before the events", in: "2025-01-01 12:00:00 stream opened\n" + sse, err: "text that holds a recorded stream's events"},
		{name: "a log line before the events, forced", in: "stream:\n" + sse, f: format.AnthropicStream, err: "text that holds a recorded stream's events"},
		{name: "a log line before the events, forced to a text format", in: "stream:\n" + sse, f: format.Hermes, err: "text that holds a recorded stream's events"},
		{name: "indented events", in: strings.ReplaceAll(sse, "data:", "  data:"), err: "text that holds a recorded stream's events"},
		{name: "a line after the events", in: sse + "connection closed\n", err: "text that holds a recorded stream's events"},
		{name: "cut in a field's name", in: cut + "da", calls: []wantCall{ok("f", `{"x":1}`), bad("", "without its message_stop")}},
		{name: "cut in an event's name", in: cut + "event: content_bl", calls: []wantCall{ok("f", `{"x":1}`), bad("", "without its message_stop")}},
		{name: "text that mentions data:", in: "The data: {\"temperature\": 20} came from the sensor."},
		{name: "text with a line of data", in: "Here:\ndata: {\"x\": 1}\n"},
		{name: "text that starts with data:", in: "data: it is sunny\n\ndata: {\"type\":\"x\"}"},
		{name: "text that starts like a status line", in: "HTTP/1.1 200 OK means that it worked.\n\nYes."},
		{name: "text with a byte order mark", in: "\ufeffIt is sunny."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, _, err := readCalls(value.StringOf(tt.in), tt.f, value.Limits{})
			if tt.err != "" {
				var se *ShapeError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.err) || calls != nil {
					t.Fatalf("Extract = %v, %v; want a ShapeError with %q", calls, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) != len(tt.calls) {
				t.Fatalf("got %d calls %v, want %d", len(calls), calls, len(tt.calls))
			}
			for i, w := range tt.calls {
				checkCall(t, i, calls[i], w)
			}
		})
	}
}

// Text with many data: on one line was parsed again from each: a model's
// output of 270 kB took seconds to be found a text answer. The search is
// linear now (and past a budget linear in the text, text so built is
// taken to hold events).
func TestTranscriptSearchIsLinear(t *testing.T) {
	s := "x\n" + strings.Repeat(`data: {"k":"data: {\"k\":\"`, 10000)
	t0 := time.Now()
	calls, _, err := readCalls(value.StringOf(s), format.Auto, value.Limits{})
	if d := time.Since(t0); err != nil || calls != nil || d > time.Second {
		t.Errorf("Extract = %v, %v in %v; want a text answer, at once", calls, err, d)
	}
	if holdsEvents(strings.Repeat(`data: {"a":"`, 20000)) {
		t.Errorf("a text whose data: holds no event is taken to hold events")
	}
	if !holdsEvents("x data: {} data: " + anthropicEvents[5] + "\n") {
		t.Errorf("the second data: on a line is not looked at")
	}
}
