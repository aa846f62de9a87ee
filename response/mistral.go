package response

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/value"
)

// Mistral is the raw text of Mistral models, each call after a
// [TOOL_CALLS] token, in the two forms mistral-common decodes
// (src/mistral_common/tokens/tokenizers/tools.py): tokenizers v2 to v7
// write a JSON list of calls, [TOOL_CALLS][{"name": …, "arguments": {…}}],
// and v11 on write the name and the arguments apart,
// [TOOL_CALLS]NAME[ARGS]{…}, or [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}.
// [ARGS] may be missing, as in text decoded without control tokens,
// which vLLM's mistral tool parser reads too. Text before the first
// [TOOL_CALLS], and after a call's JSON, is the answer's text.
const Mistral Format = "mistral"

var mistralFormat = textFormat(Mistral, "a Mistral model's text with [TOOL_CALLS] calls", readMistral)

func readMistral(t *textReader) {
	s := t.src
	start := strings.Index(s, mistralCalls)
	for start >= 0 {
		from := start + len(mistralCalls)
		to, next := len(s), -1
		if k := strings.Index(s[from:], mistralCalls); k >= 0 {
			to, next = from+k, from+k
		}
		t.mistralCalls(start, from, to)
		start = next
	}
}

// mistralCalls reads the calls that the [TOOL_CALLS] at start begins:
// [from, to) is what follows it, up to the next one.
func (t *textReader) mistralCalls(start, from, to int) {
	s := t.src[:to]
	i := skipSpace(s, from)
	if i < to && (s[i] == '[' || s[i] == '{') {
		end := jsonEnd(s, i)
		if end < 0 {
			t.fail("", start, to, "never closed: the JSON ends with the text of the call", nil)
			return
		}
		if s[i] == '{' {
			t.callObject(i, end, "arguments")
			return
		}
		list, err := t.x.parse(s[i:end])
		if err != nil {
			t.fail("", i, end, "not a usable JSON list of calls", err)
			return
		}
		for j, e := range list.Elems() {
			sub := "element " + strconv.Itoa(j) + ": "
			if e.Kind() != value.Object {
				t.fail("", i, end, sub+"is "+kindPhrase(e)+", not an object", nil)
				continue
			}
			t.call(e, i, end, sub, "arguments")
		}
		return
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
		t.fail("", start, to, "not a call: want NAME[ARGS]{…} or a JSON list of calls", nil)
		return
	}
	k := nameEnd
	if strings.HasPrefix(s[k:], mistralCallID) {
		a := strings.Index(s[k:], mistralArgs)
		if a < 0 {
			t.fail(name, start, to, "has no "+mistralArgs+" after its "+mistralCallID, nil)
			return
		}
		k += a
	}
	if strings.HasPrefix(s[k:], mistralArgs) {
		k = skipSpace(s, k+len(mistralArgs))
	}
	if k == to || s[k] != '{' {
		t.fail(name, start, to, "has no JSON object of arguments after its name", nil)
		return
	}
	end := jsonEnd(s, k)
	if end < 0 {
		t.fail(name, k, to, "never closed: the JSON ends with the text of the call", nil)
		return
	}
	t.arguments(name, k, end)
}
