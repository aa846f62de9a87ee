package response

import (
	"strings"

	"github.com/callgrade/callgrade/internal/format"
)

var deepseekFormat = textFormat(format.DeepSeek, readDeepSeek)

func readDeepSeek(t *textReader) {
	s := t.src
	empty := deepseekEmpties{
		begins: seeker{s: s, m: deepseekCallsBegin}, calls: seeker{s: s, m: deepseekCallBegin}, ends: seeker{s: s, m: deepseekCallsEnd},
		i: t.from,
	}
	// flush fails each empty <｜tool▁calls▁begin｜> before at, in its place
	// among the calls.
	flush := func(at int) {
		for !t.full {
			from, to, ok := empty.next(at)
			if !ok {
				return
			}
			t.fail("", from, to, "holds no "+deepseekCallBegin+": the calls begin and none follows", nil)
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

// deepseekEmpties finds, front to back, each <｜tool▁calls▁begin｜>
// that no <｜tool▁call▁begin｜> follows before the calls end: the model
// began its calls and wrote none, a failed call.
type deepseekEmpties struct {
	begins, calls, ends seeker
	i                   int // where the next search starts
}

// next returns the span of the next such begin that starts before at,
// ok false when there is none.
func (e *deepseekEmpties) next(at int) (from, to int, ok bool) {
	s := e.begins.s
	for {
		b := e.begins.next(e.i)
		if b < 0 || b >= at {
			return 0, 0, false
		}
		after := b + len(deepseekCallsBegin)
		e.i = after
		limit := len(s)
		if k := e.ends.next(after); k >= 0 {
			limit = k + len(deepseekCallsEnd)
		}
		if nb := e.begins.next(after); nb >= 0 && nb < limit {
			limit = nb
		}
		if c := e.calls.next(after); c < 0 || c >= limit {
			return b, limit, true
		}
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
