package results

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func gzipOf(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// TestResponseReader: the lines of a responses stream, as score, the
// service and the report read them: its text whether gzip-compressed or
// not, without a byte order mark at its start, each line within the
// limit or cut to its head, lines longer than the reader's buffer too.
func TestResponseReader(t *testing.T) {
	big := strings.Repeat("x", readerSize+10)
	tests := []struct {
		name      string
		in        string
		max, head int
		want      string // each line as "text|cut", joined by ","
		longs     int    // calls of Long
	}{
		{"lines", "a\nbb\n\nc", 10, 0, "a|0,bb|0,|0,c|0", 0},
		{"a carriage return is the line's", "a\r\nb\r\n", 10, 0, "a\r|0,b\r|0", 0},
		{"a byte order mark", "\ufeffa\n\ufeffb\n", 10, 0, "a|0,\ufeffb|0", 0},
		{"gzip", gzipOf("a\nb\n"), 10, 0, "a|0,b|0", 0},
		{"gzip with a byte order mark", gzipOf("\ufeffa\nb"), 10, 0, "a|0,b|0", 0},
		{"not gzip nor a mark", "\xef\x01\n", 10, 0, "\xef\x01|0", 0},
		{"over the limit, cut to its head", "abcdef\nab\n", 4, 2, "ab|6,ab|0", 0},
		{"over the limit, no head", "abcdef\n", 4, 0, "|6", 0},
		{"longer than the buffer", big + "\nb\n", len(big), 3, fmt.Sprintf("%s|0,b|0", big), 1},
		{"longer than the buffer and the limit", big + "\nb", 100, 3, fmt.Sprintf("xxx|%d,b|0", len(big)), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := ResponseText(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			rr := NewResponseReader(text, tt.max, tt.head)
			longs := 0
			rr.Long = func() error { longs++; return nil }
			var got []string
			for {
				b, ok, cut, err := rr.ReadLine(nil)
				if ok {
					got = append(got, fmt.Sprintf("%s|%d", b, cut))
				}
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if g := strings.Join(got, ","); g != tt.want || longs != tt.longs {
				t.Errorf("got %.200q and %d long lines\nwant %.200q and %d", g, longs, tt.want, tt.longs)
			}
		})
	}
}

// A Long that returns an error stops the reading before the long line,
// and a gzip header that does not read is ResponseText's error.
func TestResponseReaderErrors(t *testing.T) {
	stop := errors.New("stop")
	text, _ := ResponseText(strings.NewReader("a\n" + strings.Repeat("x", readerSize+1)))
	rr := NewResponseReader(text, 1<<30, 0)
	rr.Long = func() error { return stop }
	if b, ok, _, err := rr.ReadLine(nil); string(b) != "a" || !ok || err != nil {
		t.Fatalf("the first line: %q, %v, %v", b, ok, err)
	}
	if _, ok, _, err := rr.ReadLine(nil); ok || err != stop {
		t.Errorf("the long line: %v, %v; want no line and Long's error", ok, err)
	}
	if _, err := ResponseText(strings.NewReader("\x1f\x8bnot gzip")); err == nil || !strings.HasPrefix(err.Error(), "gzip-compressed responses: ") {
		t.Errorf("a broken gzip header: %v", err)
	}
}

// More waits for the next byte or the end.
func TestResponseReaderMore(t *testing.T) {
	for in, want := range map[string]bool{"": false, "a": true, "\n": true} {
		text, _ := ResponseText(strings.NewReader(in))
		if more, err := NewResponseReader(text, 10, 0).More(); more != want || err != nil {
			t.Errorf("%q: %v, %v; want %v", in, more, err, want)
		}
	}
}

// ResponseText reads a responses file's text, gzip-compressed or not,
// without a byte order mark; a broken gzip file is an error that says so.
func TestResponseText(t *testing.T) {
	const text = `{"id":"a","response":[]}` + "\n" + `{"id":"b","response":[]}` + "\n"
	two := gzipOf(text[:25]) + gzipOf(text[25:]) // gzip allows members one after another
	tests := []struct {
		name, in, want, err string
	}{
		{name: "plain", in: text, want: text},
		{name: "byte order mark", in: "\xef\xbb\xbf" + text, want: text},
		{name: "gzip", in: gzipOf(text), want: text},
		{name: "gzip with a byte order mark inside", in: gzipOf("\xef\xbb\xbf" + text), want: text},
		{name: "gzip of two members", in: two, want: text},
		{name: "empty", in: "", want: ""},
		{name: "one byte", in: "\n", want: "\n"},
		{name: "byte order mark only", in: "\xef\xbb\xbf", want: ""},
		{name: "gzip magic, then nothing", in: "\x1f\x8b", err: "gzip-compressed responses: unexpected EOF"},
		{name: "gzip header cut short", in: gzipOf(text)[:5], err: "gzip-compressed responses: unexpected EOF"},
		{name: "corrupt gzip body", in: gzipOf(text)[:30], err: "gzip-compressed responses: the file is cut short, or holds bytes after its gzip data that are not gzip: unexpected EOF"},
		{name: "bytes after the gzip data", in: gzipOf(text) + "garbage\n", err: "gzip-compressed responses: the file is cut short, or holds bytes after its gzip data that are not gzip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ResponseText(strings.NewReader(tt.in))
			var got []byte
			if err == nil {
				got, err = io.ReadAll(r)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("read %q, want %q", got, tt.want)
			}
		})
	}
}
