package rulecore

import (
	"strconv"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/value"
)

// A diff's message is written into an array on its writer's stack and
// copied into a string of its length when done: a failing call can have a
// diff per argument, and BFCL's mutated candidates are mostly failing
// calls, so the words should cost one allocation of their length, not one
// per piece, nor a buffer's room. Their length is about 47 bytes on
// average over BFCL's live candidates, where a buffer of 96 bytes held
// each before, and the bytes a pass allocates are what set how often the
// collector runs.

// msg is a message being written.
type msg []byte

// room is where a message is written, on its writer's stack: most fit,
// and a longer one grows into the heap as any slice does.
type room [128]byte

// message starts a message with s in r.
func (r *room) message(s string) msg { return append(msg(r[:0]), s...) }

// reGot returns a regex rule's mismatch message, "expected a string
// matching RE, got A (RULE)", the pattern and the rule clipped as a value
// is (clip): BFCL's patterns run to kilobytes, and a message a person
// reads has no use for them whole, which the diff's rule field keeps. It
// is written once, in place, in ws (words.Arena.Open): most of Java's and
// JavaScript's wrong values get one, and the value shown, written on the
// stack first and then joined, was copied twice.
func (r *Rule) reGot(a value.Value, ws *words.Arena) string {
	name, cut := clip(r.name)
	// Room for the longest: show writes a little past maxShown before
	// it cuts.
	m := msg(ws.Open(len(r.reMsg) + len(name) + maxShown + 64))
	m = append(m, r.reMsg...)
	m = m.s(", got ").show(a).s(" (").s(name)
	if cut {
		m = m.s(ellipsis)
	}
	return ws.Close(m.s(")"))
}

// reMissing returns a regex rule's message for a missing WHAT
// (argument, field, element), joined as reGot's is.
func (r *Rule) reMissing(what string, ws *words.Arena) string {
	return ws.Join(r.reMsg, ", but the ", what, " is missing")
}

// ellipsis stands for what clip cut.
const ellipsis = "…"

// clipAt returns where text longer than maxShown bytes is cut, at the
// start of a character, for clip and show alike.
func clipAt[T ~string | ~[]byte](s T) int {
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return cut
}

// clip returns s cut to maxShown bytes at the start of a character, as
// show cuts a value, and whether it cut anything.
func clip(s string) (string, bool) {
	if len(s) <= maxShown {
		return s, false
	}
	return s[:clipAt(s)], true
}

// clipped is s clipped, with an ellipsis where it was cut.
func clipped(s string) string {
	if c, cut := clip(s); cut {
		return c + ellipsis
	}
	return s
}

// s appends text.
func (m msg) s(text string) msg { return append(m, text...) }

// show appends v as JSON, shortened when long.
func (m msg) show(v value.Value) msg {
	start := len(m)
	m = jsonv.AppendPrefix(m, v, maxShown)
	if len(m)-start <= maxShown {
		return m
	}
	return append(m[:start+clipAt(m[start:])], ellipsis...)
}

// showList appends a list of values as one JSON array, shortened.
func (m msg) showList(vs []value.Value) msg { return m.show(value.ArrayOf(vs...)) }

// mismatch appends "expected E, got A", with the kinds or the lengths when
// they differ.
func (m msg) mismatch(e, a value.Value) msg {
	m = m.s("expected ").show(e)
	switch {
	case e.Kind() == value.Array && a.Kind() == value.Array && e.Len() != a.Len():
		return m.s(" (").s(elements(e.Len())).s("), got ").show(a).s(" (").s(elements(a.Len())).s(")")
	case e.Kind() != a.Kind():
		return m.s(" (").s(e.Kind().String()).s("), got ").show(a).s(" (").s(a.Kind().String()).s(")")
	}
	return m.s(", got ").show(a)
}

// note appends that one side was a rule's default.
func (m msg) note(defaulted uint8) msg {
	switch defaulted {
	case expectedDefaulted:
		return m.s("; the expected call omits it, so its default applies")
	case actualDefaulted:
		return m.s("; the actual call omits it, so its default applies")
	}
	return m
}

// rule appends the rule that decided, in parentheses.
func (m msg) rule(name string) msg { return m.s(" (").s(name).s(")") }

// done returns the message, copied out of the room it was written in
// into a's (a string of its own when a is nil).
func (m msg) done(a *words.Arena) string { return a.String(m) }

const maxShown = 120

// show returns a value as JSON for a message, shortened when long.
func show(v value.Value) string {
	var r room
	return r.message("").show(v).done(nil)
}

func showList(vs []value.Value) string { return show(value.ArrayOf(vs...)) }

func elements(n int) string {
	if n == 1 {
		return "1 element"
	}
	return strconv.Itoa(n) + " elements"
}

// note adds to a message that one side was a rule's default.
func (w *walker) note(text string) string {
	if w.defaulted == 0 {
		return text
	}
	var r room
	return r.message(text).note(w.defaulted).done(w.ctx.Words)
}
