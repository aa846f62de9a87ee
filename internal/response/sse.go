package response

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/value"
)

// An SSE transcript is a stream recorded as the text of its server-sent
// events (https://html.spec.whatwg.org/multipage/server-sent-events.html):
// lines "event: …", "data: …", "id: …", "retry: …" and ": comments", an
// event ending at a blank line. Only that shape is read as a stream, so
// that a text answer stays a text answer.
//
// Before it, a byte order mark and a recorded HTTP response head (as
// curl -i writes it) are skipped. A head says the text is an HTTP
// response, not a model's words: its body must be a transcript, and its
// status 2xx. Any other text before a stream's events (a line of a log,
// spaces before "data:") makes the response in no known shape: read as a
// text answer, the calls in the stream would vanish. What counts as a
// stream's events there is a "data:" whose line holds, after it, one JSON
// object of a stream format (a type "content_block_start", …); a text
// that only mentions "data:", or quotes data of no stream, is a text.

// recording is what a string is to the stream formats.
type recording struct {
	body string // the SSE transcript, after what is skipped before it
	line int    // the lines skipped before body
	ok   bool   // body is a transcript
	// bad, when set, says the string holds a recorded stream that cannot
	// be read: a ShapeError, never a text answer.
	bad string
}

// readTranscript finds the SSE transcript in s.
func readTranscript(s string) recording {
	body := strings.TrimPrefix(s, "\ufeff")
	head, status := 0, ""
	for strings.HasPrefix(body, "HTTP/") {
		// curl -i writes a head for each response it gets: a 100
		// Continue, a proxy's 200 Connection established, then the
		// server's.
		n, st, rest, ok := httpHead(body)
		if !ok || n == 2 && !strings.HasPrefix(rest, "HTTP/") {
			// A head without a header line (a proxy's Connection
			// established) only comes before another; else the line is
			// a model's words.
			break
		}
		head, status, body = head+n, st, rest
	}
	switch {
	case status != "" && !isSSE(body):
		return recording{bad: "a recorded HTTP response (status " + status + ") whose body is no SSE transcript"}
	case status != "" && status[0] != '2':
		return recording{bad: "a recorded HTTP response of status " + status + ", not 2xx, whose stream holds no answer"}
	case isSSE(body):
		return recording{body: body, line: head, ok: true}
	case holdsEvents(s):
		return recording{bad: "text that holds a recorded stream's events among other lines (only a byte order mark or an HTTP response head may come before an SSE transcript, whose lines are all SSE lines)"}
	}
	return recording{}
}

// httpHead reads the HTTP response head at the start of s: a status line
// "HTTP/1.1 200 OK" and header lines "Name: value" up to a blank line. It
// returns how many lines the head has, its status code and what follows
// it; ok is false when s does not start with one.
func httpHead(s string) (lines int, status, rest string, ok bool) {
	line, rest := nextLine(s)
	v, after, found := strings.Cut(strings.TrimPrefix(line, "HTTP/"), " ")
	if !found || v == "" || strings.Trim(v, "0123456789.") != "" {
		return 0, "", "", false
	}
	status, _, _ = strings.Cut(after, " ")
	if _, err := strconv.Atoi(status); err != nil || len(status) != 3 {
		return 0, "", "", false
	}
	lines = 1
	for rest != "" {
		line, rest = nextLine(rest)
		lines++
		if line == "" {
			return lines, status, rest, true
		}
		name, _, found := strings.Cut(line, ":")
		if !found || name == "" || strings.ContainsAny(name, " \t") {
			return 0, "", "", false
		}
	}
	return 0, "", "", false // no blank line: no body follows
}

// holdsEvents reports whether s has a "data:" whose line holds, after it,
// a JSON object that is an event of a stream format. What it parses of
// the lines may overlap (several data: on one line): past a budget linear
// in s, a text so built is taken to hold events, so that a model's output
// cannot make the search quadratic.
func holdsEvents(s string) bool {
	budget := 2*len(s) + 1<<12
	i := strings.Index(s, "data:")
	if i < 0 {
		return false
	}
	s = s[strings.LastIndexAny(s[:i], "\r\n")+1:] // from the line of the first data:
	for rest := s; rest != ""; {
		var line string
		line, rest = nextLine(rest)
		line = strings.TrimRight(line, " \t")
		for {
			i := strings.Index(line, "data:")
			if i < 0 {
				break
			}
			line = line[i+len("data:"):]
			obj := strings.TrimLeft(line, " \t")
			if !strings.HasPrefix(obj, "{") {
				continue
			}
			v, err := value.Parse(obj)
			if err != nil {
				off, _ := errOffset(err)
				if budget -= off; budget < 0 {
					return true
				}
				continue
			}
			if budget -= len(obj); budget < 0 {
				return true
			}
			if f, _ := itemFormat(v); f != nil && f.isStream() {
				return true
			}
		}
	}
	return false
}

// isSSE reports whether s is an SSE transcript: every line is blank, a
// comment or a field of the four, and the first data holds a JSON object.
// A last line without its end that is the start of a field's name ("da")
// is a transcript cut there.
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
		case cutField(rest) && !strings.ContainsAny(rest, "\r\n"): // cutField first: it refuses all but six bytes or fewer
		default:
			return false
		}
		_, rest = nextLine(rest)
	}
	return !first
}

// cutField reports whether s is the start of a field's name, up to its
// colon.
func cutField(s string) bool {
	for _, f := range [...]string{"data:", "event:", "id:", "retry:"} {
		if strings.HasPrefix(f, s) {
			return true
		}
	}
	return false
}

// sseEvents returns the events of transcript s, the data of each parsed
// under x's limits. An event's data lines are joined by newlines, as the
// standard says. A last event that lacks its blank line still counts:
// a transcript kept in a JSON string often loses its trailing newlines.
func sseEvents(s string, x extraction) []event { return sseEventsFrom(s, 0, x) }

// sseEventsFrom is sseEvents of s, which follows the first skip lines of
// the response: the events' lines count those.
func sseEventsFrom(s string, skip int, x extraction) []event {
	var evs []event
	var data []string
	start, n := 0, skip
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
