package response

import "strings"

// DeepSeek is the raw text of DeepSeek V3 and R1, and of V3.1, with the
// special tokens of their chat templates left in. V3 and R1 write each
// call as its type, the name and a fenced JSON block:
//
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
//	```json
//	{"city": "Berlin"}
//	```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// and V3.1 the name and the JSON alone:
// <｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Berlin"}<｜tool▁call▁end｜>.
// Both are read as vLLM's deepseek_v3 and deepseek_v31 tool parsers read
// them (vllm/entrypoints/openai/tool_parsers/deepseekv3_tool_parser.py,
// deepseekv31_tool_parser.py), told apart by what follows the separator:
// a JSON object is V3.1's. A call never closed by <｜tool▁call▁end｜> fails.
const DeepSeek Format = "deepseek"

var deepseekFormat = textFormat(DeepSeek, "a DeepSeek model's text with <｜tool▁call▁begin｜> calls", readDeepSeek)

func readDeepSeek(t *textReader) {
	s := t.src
	empty := t.deepseekEmpty()
	flush := func(at int) {
		for len(empty) > 0 && empty[0][0] < at {
			t.fail("", empty[0][0], empty[0][1], "holds no "+deepseekCallBegin+": the calls begin and none follows", nil)
			empty = empty[1:]
		}
	}
	t.blocks(deepseekCallBegin, deepseekCallEnd, func(body int) int {
		// The JSON after the separator (V3.1), or in the fence (V3).
		k := strings.Index(s[body:min(len(s), body+maxDeepSeekHead)], deepseekSep)
		if k < 0 {
			return -1
		}
		k = skipSpace(s, body+k+len(deepseekSep))
		if k < len(s) && s[k] != '{' {
			nl := strings.IndexByte(s[k:min(len(s), k+maxDeepSeekHead)], '\n')
			if nl < 0 {
				return -1
			}
			k = skipSpace(s, k+nl+1)
			if !strings.HasPrefix(s[k:], "```json") {
				return -1
			}
			k = skipSpace(s, k+len("```json"))
		}
		return k
	}, func(start, body, end int) {
		flush(start)
		t.deepseekCall(start, body, end)
	}, flush)
	flush(len(s) + 1)
}

// maxDeepSeekHead bounds how far the separator, and V3's name, are looked
// for ahead of a call's JSON: a call whose head is longer is read by its
// end token alone.
const maxDeepSeekHead = 1 << 10

// deepseekEmpty returns the span of each <｜tool▁calls▁begin｜> that no
// <｜tool▁call▁begin｜> follows before the calls end: the model began its
// calls and wrote none, a failed call.
func (t *textReader) deepseekEmpty() (spans [][2]int) {
	s := t.src
	begins, calls, ends := seeker{s: s, m: deepseekCallsBegin}, seeker{s: s, m: deepseekCallBegin}, seeker{s: s, m: deepseekCallsEnd}
	for i := t.from; ; {
		b := begins.next(i)
		if b < 0 {
			return spans
		}
		after := b + len(deepseekCallsBegin)
		limit := len(s)
		if e := ends.next(after); e >= 0 {
			limit = e + len(deepseekCallsEnd)
		}
		if nb := begins.next(after); nb >= 0 && nb < limit {
			limit = nb
		}
		if c := calls.next(after); c < 0 || c >= limit {
			spans = append(spans, [2]int{b, limit})
		}
		i = after
	}
}

// deepseekCall reads the call whose body is [body, end).
func (t *textReader) deepseekCall(start, body, end int) {
	s := t.src[:end]
	next := end + len(deepseekCallEnd)
	k := strings.Index(s[body:], deepseekSep)
	if k < 0 {
		t.fail("", start, next, "has no "+deepseekSep, nil)
		return
	}
	left := strings.TrimSpace(s[body : body+k])
	after := skipSpace(s, body+k+len(deepseekSep))
	if after < end && s[after] == '{' {
		from, to := trimSpan(s, after, end)
		t.arguments(left, from, to)
		return
	}
	// V3: the type, then NAME, a newline and ```json … ```.
	nl := strings.IndexByte(s[after:], '\n')
	if left != "function" || nl < 0 {
		t.fail(left, start, next, "not a call: want NAME<｜tool▁sep｜>{…} or function<｜tool▁sep｜>NAME and a ```json block", nil)
		return
	}
	name := strings.TrimSpace(s[after : after+nl])
	from, to := trimSpan(s, after+nl+1, end)
	if !strings.HasPrefix(s[from:to], "```json") || !strings.HasSuffix(s[from:to], "```") || to-from < len("```json```") {
		t.fail(name, from, to, "not a ```json block", nil)
		return
	}
	from, to = trimSpan(s, from+len("```json"), to-len("```"))
	t.arguments(name, from, to)
}
