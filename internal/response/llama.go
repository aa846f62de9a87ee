package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var llamaFormat = textFormat(format.LlamaJSON, readLlama)

func readLlama(t *textReader) {
	s := t.src
	tags := seeker{s: s, m: llamaPythonTag}
	i := skipSpace(s, t.from)
	if tags.next(t.from) != i {
		i = t.llamaCalls(i, false, &tags)
	}
	// Each <|python_tag|> begins calls, however many the text has.
	for !t.full {
		k := tags.next(i)
		if k < 0 {
			return
		}
		if !t.room(k) {
			return
		}
		i = t.llamaCalls(skipSpace(s, k+len(llamaPythonTag)), true, &tags)
	}
}

// llamaCalls reads the calls at i, separated by ";" (or by nothing but
// white space and end-of-turn tokens), and returns where the text goes
// on. must says that a call must come, after a
// <|python_tag|>; without one, JSON that is no call (an object without
// "name", say) is a text answer, as in vLLM. tags finds the next tag,
// which ends what a call that does not read spans.
func (t *textReader) llamaCalls(i int, must bool, tags *seeker) int {
	s := t.src
	for first := !must; !t.full; first = false {
		if i == len(s) || s[i] != '{' {
			if must {
				to := len(s)
				if k := tags.next(i); k >= 0 {
					to = k
				}
				to = max(i, trimEnd(s, i, to))
				t.fail("", i, to, `not a JSON call {"name": …, "parameters": {…}}`, nil)
				return to
			}
			return i
		}
		end, stop := jsonEnd(s, i)
		if end < 0 {
			reason := "never closed: the text ends inside the JSON object"
			if stop < len(s) {
				reason = "never closed: the JSON object breaks off at a marker"
			}
			t.fail("", i, stop, reason, nil)
			return stop
		}
		if first {
			if v, err := t.x.parse(s[i:end]); err == nil && (v.Kind() != value.Object || !v.Has("name")) {
				return end // an answer in JSON, not a call
			}
		}
		t.callObject(i, end, "parameters", "arguments")
		i = skipSpace(s, end)
		switch j := skipEnd(s, i); {
		case i < len(s) && s[i] == ';':
			i = skipSpace(s, i+1)
		case j < len(s) && s[j] == '{':
			// Another object after a call without the ";" (a line
			// break, a space, an end-of-turn token): another call all
			// the same, read, where passed over as text it would vanish.
			i = j
		default:
			return i
		}
		must = true
	}
	return i
}
