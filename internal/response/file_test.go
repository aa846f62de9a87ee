package response

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

func gz(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestNewReader(t *testing.T) {
	const text = `{"id":"a","response":[]}` + "\n" + `{"id":"b","response":[]}` + "\n"
	two := gz(t, text[:25]) + gz(t, text[25:]) // gzip allows members one after another
	tests := []struct {
		name, in, want, err string
	}{
		{name: "plain", in: text, want: text},
		{name: "byte order mark", in: "\xef\xbb\xbf" + text, want: text},
		{name: "gzip", in: gz(t, text), want: text},
		{name: "gzip with a byte order mark inside", in: gz(t, "\xef\xbb\xbf"+text), want: text},
		{name: "gzip of two members", in: two, want: text},
		{name: "empty", in: "", want: ""},
		{name: "one byte", in: "\n", want: "\n"},
		{name: "byte order mark only", in: "\xef\xbb\xbf", want: ""},
		{name: "gzip magic, then nothing", in: "\x1f\x8b", err: "gzip-compressed responses: unexpected EOF"},
		{name: "gzip header cut short", in: gz(t, text)[:5], err: "gzip-compressed responses: unexpected EOF"},
		{name: "corrupt gzip body", in: gz(t, text)[:30], err: "gzip-compressed responses: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(tt.in))
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
