package response

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/pycall"
	"github.com/callgrade/callgrade/value"
)

// finalEnd is what a run keeps of its end beyond Final, for ReadAs.
type finalEnd struct {
	first string // the final message's first text block, when split
	split bool   // the final message has several text blocks or parts

	// bfcl says the fields below describe the message BFCL would read
	// as the answer (runBuilder.closeTurn, singleBFCL); else ReadAs reads
	// Final, but for its first block.
	bfcl   bool
	text   string      // that message's text
	broken bool        // that message is of calls, one of which BFCL cannot decode
	name   string      // its first call's name
	call   value.Value // its first call's entry, as the response wrote it
}

// ReadAs returns the run as reading how sees it: r itself under
// FinalJoined (or when the reading changes nothing), else a copy whose
// Final, HasFinal and Steps are how's. Under FinalBFCL the answer of a
// conversation is the last message BFCL does not decode as calls, and
// the calls whose arguments callgrade cannot use are no steps: BFCL
// judges no call, and one it cannot decode is text to it.
func (r *Run) ReadAs(how format.FinalReading) *Run { return r.ReadAsInto(how, nil) }

// ReadAsInto is ReadAs writing the copy, when there is one, into dst
// (which must not be r), so that a loop reading one run after another
// does not allocate one; nil dst allocates it.
func (r *Run) ReadAsInto(how format.FinalReading, dst *Run) *Run {
	if how == format.FinalAnswer {
		if a, ok := answerField(r.Final); ok && r.HasFinal {
			cp := r.copyInto(dst)
			cp.Final, cp.HasFinal = a, a != ""
			return cp
		}
		return r
	}
	if how != format.FinalBFCL {
		return r
	}
	e := &r.end
	if !e.bfcl {
		if r.HasFinal && e.split {
			cp := r.copyInto(dst)
			cp.Final = e.first
			cp.HasFinal = cp.Final != ""
			return cp
		}
		return r
	}
	final := e.text
	switch {
	case e.broken:
		// One buffer for the whole text, where pyRepr's strings and
		// their concatenation took five allocations.
		args := rawArguments(e.call)
		b := make([]byte, 0, len(e.name)+len(args)+8)
		b = appendPyRepr(append(b, '{'), e.name)
		b = appendPyRepr(append(b, ": "...), args)
		final = string(append(b, '}'))
	case e.split:
		final = e.first
	}
	steps := usable(r.Steps)
	if final == r.Final && r.HasFinal == (final != "") && len(steps) == len(r.Steps) {
		return r
	}
	cp := r.copyInto(dst)
	cp.Steps, cp.Final, cp.HasFinal = steps, final, final != ""
	return cp
}

// copyInto copies r into dst, or into a new Run when dst is nil.
func (r *Run) copyInto(dst *Run) *Run {
	if dst == nil {
		dst = new(Run)
	}
	*dst = *r
	return dst
}

// usable is steps without those whose arguments could not be used: steps
// itself when there are none, and a slice of it when they all come last,
// as in a run that ends in a broken call.
func usable(steps []Step) []Step {
	n, tail := 0, true
	for i := range steps {
		if steps[i].Err == nil {
			tail = tail && n == i
			n++
		}
	}
	if tail {
		return steps[:n:n]
	}
	out := make([]Step, 0, n)
	for _, s := range steps {
		if s.Err == nil {
			out = append(out, s)
		}
	}
	return out
}

// answerLimits bound the object a final answer is read from: an answer
// and its context are a few values, and a text of millions of small ones
// would otherwise be built into a tree many times its size at each
// scoring. A text past them that names an answer is none (answerField).
var answerLimits = value.Limits{MaxValues: 1 << 16}

// answerField is the "answer" of text s when s is an object that has
// one, JSON or a Python dict literal, alone or in a Markdown code fence
// of backticks or tildes. An object that names an answer but does not
// read (a key written twice, NaN, past answerLimits) has none: "", true.
// Its whole text would be judged with its context, which may name the
// right answer beside a wrong one.
func answerField(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for _, fence := range [...]string{"```", "~~~"} {
		rest, ok := strings.CutPrefix(s, fence)
		if !ok {
			continue
		}
		body, end := strings.CutSuffix(rest, fence)
		if !end {
			return "", false
		}
		if nl := strings.IndexByte(body, '\n'); nl >= 0 && !strings.ContainsAny(body[:nl], "{") {
			body = body[nl+1:] // the fence's language
		}
		s = strings.TrimSpace(body)
		break
	}
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return "", false
	}
	v, err := (*value.Parser)(nil).Parse(s, answerLimits)
	if err != nil {
		j, perr := pycall.Literal(s)
		if perr == nil {
			v, err = (*value.Parser)(nil).Parse(j, answerLimits)
		}
		if perr != nil || err != nil {
			return "", namesAnswer(s)
		}
	}
	a, ok := v.Get("answer")
	switch {
	case !ok:
		return "", false
	case a.Kind() == value.String:
		return a.Str(), true
	}
	return a.String(), true
}

// namesAnswer reports whether s has an "answer" or 'answer' key: the
// word in quotes, then a colon.
func namesAnswer(s string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], "answer")
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len("answer")
		i = end
		if at == 0 || end == len(s) || s[at-1] != s[end] || s[end] != '"' && s[end] != '\'' {
			continue
		}
		if rest := strings.TrimLeft(s[end+1:], " \t\r\n"); strings.HasPrefix(rest, ":") {
			return true
		}
	}
}

// rawArguments is the arguments of call entry e as the response wrote
// them: their text when they are a string (OpenAI's JSON text, which BFCL
// keeps as it is), else their JSON.
func rawArguments(e value.Value) string {
	for _, wrap := range [...]string{"function", "functionCall", "function_call"} {
		if w, ok := e.Get(wrap); ok && w.Kind() == value.Object {
			e = w
			break
		}
	}
	for _, key := range [...]string{"arguments", "input", "args"} {
		if a, ok := e.Get(key); ok {
			if a.Kind() == value.String {
				return a.Str()
			}
			return a.String()
		}
	}
	return ""
}

// pyRepr is Python 3's repr of the string s: in single quotes, or in
// double quotes when s has a single quote and no double one; the
// backslash, that quote, \t, \n, \r and the characters Python does not
// print escaped.
func pyRepr(s string) string { return string(appendPyRepr(make([]byte, 0, len(s)+2), s)) }

// appendPyRepr appends pyRepr(s) to b.
func appendPyRepr(b []byte, s string) []byte {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	b = append(b, q)
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && n == 1 {
			// Not UTF-8: Python's str has no such character; the byte
			// as a surrogate escape is the nearest.
			b = append(b, `\udc`...)
			b = strconv.AppendUint(b, uint64(s[i]), 16)
			i++
			continue
		}
		i += n
		switch {
		case c == '\\' || c == rune(q):
			b = append(b, '\\', byte(c))
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == ' ' || c >= 0x20 && c < 0x7f || c > 0x7f && unicode.IsPrint(c):
			b = utf8.AppendRune(b, c)
		case c < 0x100:
			b = appendHex(append(b, `\x`...), c, 2)
		case c < 0x10000:
			b = appendHex(append(b, `\u`...), c, 4)
		default:
			b = appendHex(append(b, `\U`...), c, 8)
		}
	}
	return append(b, q)
}

// appendHex appends c in width lower-case hex digits.
func appendHex(b []byte, c rune, width int) []byte {
	h := strconv.FormatUint(uint64(c), 16)
	for range width - len(h) {
		b = append(b, '0')
	}
	return append(b, h...)
}
