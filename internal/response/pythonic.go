package response

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/pycall"
	"github.com/callgrade/callgrade/value"
)

var pythonicFormat = textFormat(format.Pythonic, readPythonic)

func readPythonic(t *textReader) {
	s := t.src
	starts := seeker{s: s, m: pythonStart}
	k := starts.next(t.from)
	if k < 0 {
		from, to := trimSpan(s, t.from, len(s))
		to = trimEnd(s, from, to)
		if from == to || s[from] != '[' && !startsCall(s[from:to]) {
			return
		}
		t.pythonCalls(from, to)
		return
	}
	// Each <|python_start|> begins calls, up to its <|python_end|> (or
	// the next <|python_start|>, or the end of the text).
	ends := seeker{s: s, m: pythonEnd}
	for k >= 0 && t.room(k) {
		from := k + len(pythonStart)
		to, next := len(s), -1
		if e := ends.next(from); e >= 0 {
			to, next = e, e+len(pythonEnd)
		}
		if n := starts.next(from); n >= 0 && n < to {
			to, next = n, n
		}
		from, to = trimSpan(s, from, to)
		to = max(from, trimEnd(s, from, to))
		switch {
		case from == to:
			t.fail("", k, max(next, to), "holds no call", nil)
		case s[from] != '[' && !startsCall(s[from:to]):
			t.fail("", from, to, "not Python calls: want [f(a=1), …] or f(a=1)", nil)
		default:
			t.pythonCalls(from, to)
		}
		if next < 0 {
			return
		}
		k = starts.next(next)
	}
}

// pythonCalls reads the Python calls of [from, to).
func (t *textReader) pythonCalls(from, to int) {
	s := t.src
	// The calls' values are the Parser's, as the JSON formats' are; they
	// are read into the memory a kept reader keeps for the next text,
	// else the one call most texts have into room. A list is read up to
	// the calls the response has room for.
	n := max(0, MaxTextCalls-len(t.out))
	var calls []pycall.Call
	var more int
	var err error
	if t.kept {
		// Apart from room's branch: what goes into t.pcalls must never
		// be room, which would then leave the stack on every call.
		kc, m, e := pycall.AppendValuesN(t.pcalls[:0], s[from:to], t.x.p, n)
		t.pcalls = kc
		calls, more, err = kc, m, e
	} else {
		var room [1]pycall.Call
		calls, more, err = pycall.AppendValuesN(room[:0], s[from:to], t.x.p, n)
	}
	rest := from
	for _, c := range calls {
		// The JSON routes hold arguments to the limits as they parse them:
		// the arguments' text is what the parentheses hold, with them.
		args := strings.IndexByte(s[from+c.Start:from+c.End], '(')
		switch {
		case c.End-c.Start-args > t.x.maxBytes():
			t.fail(c.Name, from+c.Start, from+c.End, "has arguments beyond the limits", &value.Error{Err: value.ErrTooLarge, Offset: -1, Detail: "more than " + strconv.Itoa(t.x.maxBytes()) + " bytes"})
		case tooDeep(c.Value, t.x.maxDepth()):
			t.fail(c.Name, from+c.Start, from+c.End, "has arguments beyond the limits", &value.Error{Err: value.ErrTooDeep, Offset: -1, Detail: "more than " + strconv.Itoa(t.x.maxDepth()) + " levels"})
		default:
			t.add(from+c.Start, c.Name, c.Value)
		}
		rest = from + c.End
	}
	if more >= 0 {
		t.room(from + more) // none: it says so
		return
	}
	if err != nil {
		t.pythonError(err, from, rest, to)
	}
}

// pythonError fails what follows the calls that read, up to to: the
// call that err is in, and any after it.
func (t *textReader) pythonError(err error, from, rest, to int) {
	s := t.src
	for rest < to && (s[rest] == ',' || s[rest] == ' ' || s[rest] == '\n' || s[rest] == '\t' || s[rest] == '\r') {
		rest++
	}
	// The reason is worded once, in one allocation: a text may hold a
	// failed call every few bytes.
	var se *pycall.SyntaxError
	if !errors.As(err, &se) {
		t.fail("", rest, to, "not Python calls: "+err.Error(), nil)
		return
	}
	var b [64]byte
	at := strconv.AppendInt(append(b[:0], "not Python calls: at byte "...), int64(from+se.Offset), 10)
	t.fail("", rest, to, string(at)+": "+se.Msg, nil)
}

// startsCall reports whether s begins with a call's name and its "(".
func startsCall(s string) bool {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] == '.' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9' || s[i] >= utf8.RuneSelf) {
		i++
	}
	return i > 0 && i < len(s) && s[i] == '('
}
