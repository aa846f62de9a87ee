package response

import "strings"

// An SSE transcript is a stream recorded as the text of its server-sent
// events (https://html.spec.whatwg.org/multipage/server-sent-events.html):
// lines "event: …", "data: …", "id: …", "retry: …" and ": comments", an
// event ending at a blank line. Only that shape is read as a stream, so
// that a text answer stays a text answer.

// isSSE reports whether s is an SSE transcript: every line is blank, a
// comment or a field of the four, and the first data holds a JSON object.
func isSSE(s string) bool {
	first := true
	for rest := s; rest != ""; {
		// A line is told by its start: a text that is no transcript is
		// refused at its first line, without a search for its end.
		switch c := rest[0]; {
		case c == '\r' || c == '\n' || c == ':':
		case strings.HasPrefix(rest, "data:"):
			if first && !strings.HasPrefix(strings.TrimLeft(rest[len("data:"):], " \t"), "{") {
				return false
			}
			first = false
		case strings.HasPrefix(rest, "event:"), strings.HasPrefix(rest, "id:"), strings.HasPrefix(rest, "retry:"):
		default:
			return false
		}
		_, rest = nextLine(rest)
	}
	return !first
}

// sseEvents returns the events of transcript s, the data of each parsed
// under x's limits. An event's data lines are joined by newlines, as the
// standard says. A last event that lacks its blank line still counts:
// a transcript kept in a JSON string often loses its trailing newlines.
func sseEvents(s string, x extraction) []event {
	var evs []event
	var data []string
	start, n := 0, 0
	dispatch := func() {
		if len(data) == 0 {
			return
		}
		d := strings.Join(data, "\n")
		data = data[:0]
		if strings.TrimSpace(d) == "[DONE]" {
			evs = append(evs, event{line: start, done: true})
			return
		}
		v, err := x.parse(d)
		if err != nil {
			evs = append(evs, event{line: start, err: err, data: d})
			return
		}
		evs = append(evs, event{v: v, line: start})
	}
	for rest := s; rest != ""; {
		var line string
		line, rest = nextLine(rest)
		n++
		if line == "" {
			dispatch()
			continue
		}
		if val, ok := strings.CutPrefix(line, "data:"); ok {
			if len(data) == 0 {
				start = n
			}
			data = append(data, strings.TrimPrefix(val, " "))
		}
	}
	dispatch()
	return evs
}

// nextLine splits s after its first line, which ends at CRLF, LF or CR.
func nextLine(s string) (line, rest string) {
	i := strings.IndexAny(s, "\r\n")
	if i < 0 {
		return s, ""
	}
	if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
		return s[:i], s[i+2:]
	}
	return s[:i], s[i+1:]
}
