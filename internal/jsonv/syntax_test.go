package jsonv

import (
	"errors"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// syntaxCases are texts for CheckSyntax: JSON, JSON broken only in
// content, and JSON broken in form, each as value.Parse sees it.
var syntaxCases = []struct {
	name, in string
	want     string // the error; "" for none
}{
	{"object", `{"id": "x", "response": [1, 2.5e3, -0, true, false, null, "a\"\\\/\b\f\n\r\t\u00e9"]}`, ""},
	{"white space around", " \t\r\n{}\n ", ""},
	{"empty containers", `[{}, [], {"a": []}]`, ""},
	{"a scalar", `"x"`, ""},
	{"duplicated key", `{"a": 1, "a": 2}`, ""},
	{"NaN and the infinities", `[NaN, Infinity, -Infinity, +Infinity]`, ""},
	{"bytes that are not UTF-8", "{\"a\": \"\xff\xfe\"}", ""},
	{"lone surrogate", `{"a": "\ud800"}`, ""},
	{"surrogate pair", `"\ud83d\ude00"`, ""},
	{"deep nesting", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), ""},
	{"empty", ``, "invalid JSON at byte 0: unexpected end of input"},
	{"blank", "  \n", "invalid JSON at byte 3: unexpected end of input"},
	{"cut short in an object", `{"id": "x", "response": []`, "invalid JSON at byte 26: expected ',' or '}' in object, found end of input"},
	{"cut short after a key", `{"id"`, "invalid JSON at byte 5: expected ':' after object key, found end of input"},
	{"cut short after a colon", `{"id": `, "invalid JSON at byte 7: unexpected end of input"},
	{"cut short in a string", `{"id": "x`, "invalid JSON at byte 7: unterminated string"},
	{"cut short in an escape", `"ab\`, "invalid JSON at byte 3: unterminated string"},
	{"cut short in an array", `[1, 2`, "invalid JSON at byte 5: expected ',' or ']' in array, found end of input"},
	{"text after the value", `{"id": "x"} trailing`, "invalid JSON at byte 12: unexpected 't' after the value"},
	{"a second value", `{}{}`, "invalid JSON at byte 2: unexpected '{' after the value"},
	{"trailing comma in an object", `{"a": 1,}`, "invalid JSON at byte 8: expected a string key, found '}'"},
	{"trailing comma in an array", `[1,]`, "invalid JSON at byte 3: unexpected ']'"},
	{"missing comma", `{"a": 1 "b": 2}`, "invalid JSON at byte 8: expected ',' or '}' in object, found '\"'"},
	{"unquoted key", `{id: 1}`, "invalid JSON at byte 1: expected a string key, found 'i'"},
	{"single quotes", `{'id': 1}`, "invalid JSON at byte 1: expected a string key, found '\\''"},
	{"bad number", `[01]`, "invalid JSON at byte 2: expected ',' or ']' in array, found '1'"},
	{"bad fraction", `[1.]`, "invalid JSON at byte 3: invalid number"},
	{"bad exponent", `[1e+]`, "invalid JSON at byte 4: invalid number"},
	{"lone minus", `-`, "invalid JSON at byte 1: invalid number"},
	{"bad escape", `"\x"`, "invalid JSON at byte 1: invalid escape \\x"},
	{"bad unicode escape", `"\u12g4"`, "invalid JSON at byte 1: invalid \\u escape"},
	{"control character", "\"a\nb\"", "invalid JSON at byte 2: control character in string"},
	{"a word that is not JSON", `[nul]`, "invalid JSON at byte 1: unexpected 'n'"},
	{"NaN then cut short", `{"a": NaN`, "invalid JSON at byte 9: expected ',' or '}' in object, found end of input"},
	{"duplicated key then more text", `{"a": 1, "a": 2} x`, "invalid JSON at byte 17: unexpected 'x' after the value"},
	{"not UTF-8 then cut short", "[\"\xff\"", "invalid JSON at byte 4: expected ',' or ']' in array, found end of input"},
	{"mismatched brackets", `[1}`, "invalid JSON at byte 2: expected ',' or ']' in array, found '}'"},
	{"form-encoded", `id=x&response=%5B%5D`, "invalid JSON at byte 0: unexpected 'i'"},
}

func TestCheckSyntax(t *testing.T) {
	for _, tt := range syntaxCases {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := CheckSyntax(tt.in); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("CheckSyntax(%q) = %q, want %q", tt.in, got, tt.want)
			}
			agreesWithParse(t, tt.in)
		})
	}
}

// agreesWithParse checks CheckSyntax against Parse on s: where Parse
// accepts s, so does CheckSyntax; where Parse's first error is one of
// form, CheckSyntax reports that one, at the same byte.
func agreesWithParse(t *testing.T, s string) {
	t.Helper()
	_, perr := (*value.Parser)(nil).Parse(s, value.Limits{MaxBytes: len(s) + 1, MaxDepth: 1 << 20})
	serr := CheckSyntax(s)
	var ve *value.Error
	switch {
	case perr == nil && serr != nil:
		t.Errorf("%q: Parse accepts it, CheckSyntax says %v", s, serr)
	case errors.As(perr, &ve) && ve.Err == value.ErrSyntax && (serr == nil || *serr != *ve):
		t.Errorf("%q: Parse says %v, CheckSyntax %v", s, perr, serr)
	}
}

func FuzzCheckSyntax(f *testing.F) {
	for _, tt := range syntaxCases {
		if len(tt.in) < 1000 {
			f.Add(tt.in)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		agreesWithParse(t, s)
	})
}
