package schema

import (
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/internal/words"
	"github.com/callgrade/callgrade/value"
)

// The library words a violation through golang.org/x/text's message
// printer, which costs a dozen allocations a message. These functions write
// the same text directly for the kinds this package reports;
// TestMessagesMatchTheLibrary holds them to the library's wording.

// appendQuoted appends s quoted as the library quotes: Go's quoting, in
// single quotes.
func appendQuoted(b []byte, s string) []byte {
	if !plainQuoted(s) {
		// What the library does, the replacements on the whole
		// literal, its double quotes included, as it does them.
		q := strconv.Quote(s)
		q = strings.ReplaceAll(q, `\"`, `"`)
		q = strings.ReplaceAll(q, `'`, `\'`)
		s = q[1 : len(q)-1]
	}
	// Otherwise s is what strconv.Quote leaves as it is, and the
	// replacements then leave too: most keys and values.
	b = append(b, '\'')
	b = append(b, s...)
	return append(b, '\'')
}

// plainQuoted says whether appendQuoted writes s as it is: printable ASCII
// without a backslash or a single quote.
func plainQuoted(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '\\' || c == '\'' {
			return false
		}
	}
	return true
}

// joinQuoted writes prefix, then each of list quoted and set apart by
// commas, then suffix, into one string in ws (see Check.Words): each
// string a message puts together would cost an allocation, and a message
// is written for every call that fails.
func joinQuoted(ws *words.Arena, prefix string, list []string, suffix string) string {
	var room [256]byte
	b := append(room[:0], prefix...)
	for i, s := range list {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendQuoted(b, s)
	}
	return ws.String(append(b, suffix...))
}

// groupInt writes n as the printer does for English: digits in groups of
// three, separated by commas.
func groupInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// appendDisplay appends the library's rendering of an enum or const
// value: a string quoted, anything else as fmt's %v of the decoded value.
func appendDisplay(b []byte, v value.Value) []byte {
	switch v.Kind() {
	case value.String:
		return appendQuoted(b, v.Str())
	case value.Array, value.Object:
		return append(b, "value"...)
	case value.Null:
		return append(b, "<nil>"...)
	case value.Bool:
		return strconv.AppendBool(b, v.Bool())
	}
	return append(b, v.Str()...)
}

func typeMessage(got string, want types) string {
	for j, o := range typeOrder {
		if want != o.t {
			continue
		}
		// One type: a message written once, since it is the commonest
		// violation of a model's calls and each one would cost an
		// allocation.
		for i, g := range typeOrder {
			if g.name == got {
				return singleTypeMessages[i][j]
			}
		}
		return "got " + got + ", want " + o.name
	}
	return "got " + got + ", want " + strings.Join(want.names(), " or ")
}

// singleTypeMessages[i][j] is typeMessage's text for an instance of type
// typeOrder[i] against a schema that wants typeOrder[j] alone.
var singleTypeMessages = func() (m [7][7]string) {
	for i, g := range typeOrder {
		for j, w := range typeOrder {
			m[i][j] = "got " + g.name + ", want " + w.name
		}
	}
	return m
}()

func constMessage(ws *words.Arena, want value.Value) string {
	if k := want.Kind(); k == value.Array || k == value.Object {
		return "'const' failed"
	}
	var room [128]byte
	return ws.String(appendDisplay(append(room[:0], "value must be "...), want))
}

func enumMessage(ws *words.Arena, want []value.Value) string {
	for _, w := range want {
		if k := w.Kind(); k == value.Array || k == value.Object {
			return "'enum' failed"
		}
	}
	var room [256]byte
	b := room[:0]
	if len(want) == 1 {
		b = append(b, "value must be "...)
	} else {
		b = append(b, "value must be one of "...)
	}
	for i, w := range want {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendDisplay(b, w)
	}
	return ws.String(b)
}

// MissingMessage is the message of a violation of required that lists
// missing, in the library's wording: "missing property 'city'".
func MissingMessage(missing []string) string { return requiredMessage(nil, missing) }

func requiredMessage(ws *words.Arena, missing []string) string {
	if len(missing) == 1 {
		return joinQuoted(ws, "missing property ", missing, "")
	}
	return joinQuoted(ws, "missing properties ", missing, "")
}

func additionalMessage(ws *words.Arena, extra []string) string {
	return joinQuoted(ws, "additional properties ", extra, " not allowed")
}

func countMessage(keyword string, got, want int) string {
	return keyword + ": got " + groupInt(got) + ", want " + groupInt(want)
}

func uniqueMessage(i, j int) string {
	return "items at " + groupInt(i) + " and " + groupInt(j) + " are equal"
}

func patternMessage(ws *words.Arena, got, want string) string {
	var room [256]byte
	b := append(appendQuoted(room[:0], got), " does not match pattern "...)
	return ws.String(appendQuoted(b, want))
}

func oneOfMessage(i, j int) string {
	return "'oneOf' failed, subschemas " + groupInt(i) + ", " + groupInt(j) + " matched"
}

const falseMessage = "false schema"

// boundMessage words a failed numeric bound as the library does, which
// shows both numbers as float64 (a number beyond float64 as an infinity)
// through the printer: the one message still written by it.
func boundMessage(keyword, got, want string) string {
	g, _ := strconv.ParseFloat(got, 64)
	w, _ := strconv.ParseFloat(want, 64)
	return printer.Sprintf(keyword+": got %v, want %v", g, w)
}
