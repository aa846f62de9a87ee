package response

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var mistralFormat = textFormat(format.Mistral, readMistral)

func readMistral(t *textReader) {
	marks := seeker{s: t.src, m: mistralCalls}
	for i := t.from; !t.full; {
		start := marks.next(i)
		if start < 0 {
			return
		}
		if !t.room(start) {
			return
		}
		i = t.mistralCalls(start, &marks)
	}
}

// mistralUnclosed says that a call's JSON ends before it closes: with
// the text, or where another [TOOL_CALLS] or a marker begins.
const mistralUnclosed = "never closed: the JSON ends with the text of the call"

// mistralCalls reads the calls that the [TOOL_CALLS] at start begins,
// and returns where the text goes on. Their JSON is read as JSON, so
// that a [TOOL_CALLS] in one of its strings does not end it; a call that
// does not read spans the text up to the next [TOOL_CALLS] (marks finds
// it).
func (t *textReader) mistralCalls(start int, marks *seeker) int {
	s := t.src
	from := start + len(mistralCalls)
	to := len(s)
	if k := marks.next(from); k >= 0 {
		to = k
	}
	i := skipSpace(s, from)
	for {
		end, ok := t.mistralCall(start, from, i, to)
		if !ok || t.full {
			return end
		}
		// A call's JSON, a list of calls or NAME[ARGS] right after a
		// call, without a [TOOL_CALLS] of its own: another call, read,
		// where passed over as text it would vanish.
		j := skipEnd(s, end)
		if j >= to || !mistralMore(s[j:to]) || !t.room(j) {
			return end
		}
		start, from, i = j, j, j
	}
}

// mistralMore reports whether rest begins as a call of mistral's does
// after [TOOL_CALLS]: a JSON object or list, or NAME[ARGS] (or
// NAME[CALL_ID]).
func mistralMore(rest string) bool {
	if rest[0] == '{' || rest[0] == '[' {
		return true
	}
	n := 0
	for n < len(rest) && rest[n] != '[' && rest[n] != '{' && !isSpace(rest[n]) {
		n++
	}
	return n > 0 && (strings.HasPrefix(rest[n:], mistralArgs) || strings.HasPrefix(rest[n:], mistralCallID))
}

// mistralCall reads the call (or list of calls) at i, which the
// [TOOL_CALLS] at start (from its end) begins, within to; it returns
// where the text goes on, and whether the call's text closed, so that
// another may follow.
func (t *textReader) mistralCall(start, from, i, to int) (int, bool) {
	s := t.src
	if i < to && (s[i] == '[' || s[i] == '{') {
		end, stop := jsonEnd(s, i)
		if end < 0 {
			t.fail("", start, max(stop, i), mistralUnclosed, nil)
			return max(stop, i), false
		}
		if s[i] == '{' {
			t.callObject(i, end, "arguments")
			return end, true
		}
		lim := t.x.lim
		lim.MaxDepth, lim.MaxBytes = t.x.maxDepth()+2, max(t.x.maxBytes(), end-i)
		list, err := t.x.p.Parse(s[i:end], lim)
		if err != nil {
			t.fail("", i, end, "not a usable JSON list of calls", err)
			return end, true
		}
		if len(list.Elems()) == 0 {
			t.fail("", start, end, "holds no call: the list is empty", nil)
		}
		for j, e := range list.Elems() {
			if !t.room(i) {
				break
			}
			sub := "element " + strconv.Itoa(j) + ": "
			if e.Kind() != value.Object {
				t.fail("", i, end, sub+"is "+kindPhrase(e)+", not an object", nil)
				continue
			}
			t.call(e, i, end, j, sub, "arguments")
		}
		return end, true
	}
	// NAME[CALL_ID]ID[ARGS]{…}: the name ends at the first marker or brace.
	nameEnd := to
	for _, m := range [...]string{mistralArgs, mistralCallID, "{"} {
		if k := strings.Index(s[i:nameEnd], m); k >= 0 {
			nameEnd = i + k
		}
	}
	name := strings.TrimSpace(s[i:nameEnd])
	if nameEnd == to || name == "" || strings.ContainsAny(name, " \t\r\n[]{}") {
		t.fail("", start, max(from, trimEnd(s, from, to)), "not a call: want NAME[ARGS]{…} or a JSON list of calls", nil)
		return to, false
	}
	k := nameEnd
	if strings.HasPrefix(s[k:], mistralCallID) {
		a := strings.Index(s[k:to], mistralArgs)
		if a < 0 {
			t.fail(name, start, to, "has no "+mistralArgs+" after its "+mistralCallID, nil)
			return to, false
		}
		k += a
	}
	if strings.HasPrefix(s[k:], mistralArgs) {
		k = skipSpace(s, k+len(mistralArgs))
	}
	if k >= to || s[k] != '{' {
		t.fail(name, start, to, "has no JSON object of arguments after its name", nil)
		return to, false
	}
	end, stop := jsonEnd(s, k)
	if end < 0 {
		t.fail(name, k, stop, mistralUnclosed, nil)
		return stop, false
	}
	t.arguments(name, k, end)
	return end, true
}
