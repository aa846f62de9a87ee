package server

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// gzipRepeat is the gzip of s written n times, made without holding the
// text: a hostile client's small body that decompresses into much more.
func gzipRepeat(t testing.TB, s string, n int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	block := []byte(strings.Repeat(s, max(1, (64<<10)/len(s))))
	per := len(block) / len(s)
	for n > 0 {
		k := min(n, per)
		zw.Write(block[:k*len(s)])
		n -= k
	}
	zw.Close()
	return b.Bytes()
}

// A batch line longer than the limit of a /v1/score body (MaxBody) is
// answered with an error line that names its line and the limit, and the
// lines around it are scored: one answer per line that is not blank. A
// line exactly at the limit is read.
func TestBatchLineOverTheLimit(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{MaxBody: 1000}))
	pad := func(n int) string {
		s := `{"id": "no-tool-needed", "response": [`
		return s + strings.Repeat(" ", n-len(s)-2) + `]}`
	}
	if len(pad(1000)) != 1000 {
		t.Fatal(len(pad(1000)))
	}
	in := strings.Join([]string{
		`{"id": "ghost", "response": []}`,
		pad(1001),
		``,
		pad(1000),
		`{"id": "ghost", "response": []}`,
		`{"id": "city-spelled-loosely", "response": [` + strings.Repeat(" ", 5000), // the last, with no newline
	}, "\n")
	a := do(t, "POST", base+"/v1/score/batch", "", "", in)
	got := strings.Split(strings.TrimSuffix(a.body, "\n"), "\n")
	want := []string{
		`{"id":"ghost","pass":false`,
		`{"line":2,"error":"line 2: the line is longer than the limit of 1000 bytes (--max-body); it was not read"}`,
		`{"id":"no-tool-needed","pass":true`,
		`{"id":"ghost","pass":false`,
		`{"line":6,"error":"line 6: the line is longer than the limit of 1000 bytes (--max-body); it was not read"}`,
	}
	if a.status != 200 || len(got) != len(want) {
		t.Fatalf("status %d, %d lines, want %d:\n%s", a.status, len(got), len(want), a.body)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("answer %d:\n%s\nwant one starting\n%s", i+1, got[i], want[i])
		}
	}
}

// A line far over the limit is discarded as it is read, never held: a
// 64 MiB line (64 KiB of gzip) costs the server a small part of its size
// in allocations, where reading it whole cost twice its size or more.
func TestBatchLongLineNotHeld(t *testing.T) {
	const size = 64 << 20
	body := gzipRepeat(t, " ", size)
	body = append(body, gzipped("\n"+`{"id": "no-tool-needed", "response": []}`+"\n")...) // a second gzip member
	base, _ := start(t, newHandler(t, Options{}))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	a := doEncoded(t, base+"/v1/score/batch", "gzip", body)
	runtime.ReadMemStats(&after)
	got := strings.Split(strings.TrimSuffix(a.body, "\n"), "\n")
	if a.status != 200 || len(got) != 2 || got[0] != `{"line":1,"error":"line 1: the line is longer than the limit of 8388608 bytes (--max-body); it was not read"}` ||
		!strings.HasPrefix(got[1], `{"id":"no-tool-needed","pass":true`) {
		t.Errorf("status %d:\n%.1000s", a.status, a.body)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/2 {
		t.Errorf("a %d MiB line cost %d MiB of allocations", size>>20, alloc>>20)
	}
}

// A batch is cut at MaxBatchLines lines: a 32 KiB gzip of "1\n" lines
// (16 million of them) is answered up to the limit, then with a line
// that ends the batch with the status 413. A batch of exactly the limit
// is answered whole, with no such line.
func TestBatchLineCountLimit(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{MaxBatchLines: 1000}))
	bomb := gzipRepeat(t, "1\n", 16<<20)
	a := doEncoded(t, base+"/v1/score/batch", "gzip", bomb)
	got := strings.Split(strings.TrimSuffix(a.body, "\n"), "\n")
	if a.status != 200 || len(got) != 1001 {
		t.Fatalf("status %d, %d lines, want 1001; the last: %s", a.status, len(got), got[len(got)-1])
	}
	if want := `{"line":1000,"error":"line 1000: a response line must be a JSON object with an id, not number"}`; got[999] != want {
		t.Errorf("line 1000: %s\nwant %s", got[999], want)
	}
	if want := `{"line":1001,"status":413,"error":"line 1001: the batch has more lines than the limit of 1000 (--max-batch-lines); lines from 1001 on were not read"}`; got[1000] != want {
		t.Errorf("the last line: %s\nwant %s", got[1000], want)
	}

	// Blank lines count: the limit bounds the reading, not the answers.
	exact := strings.Repeat(`{"id": "ghost", "response": []}`+"\n\n", 500)
	if a := do(t, "POST", base+"/v1/score/batch", "", "", exact); a.status != 200 || strings.Count(a.body, "\n") != 500 || strings.Contains(a.body, "limit") {
		t.Errorf("a batch of exactly the limit: %d, %d lines:\n%.300s", a.status, strings.Count(a.body, "\n"), a.body)
	}
	// The limit holds for a chunked body too. The connection serves the
	// next request: the rest of the body, unread, is not taken for it
	// (each round would fail, the connection reset, at the latest by the
	// second one).
	over := exact + `{"id": "ghost", "response": []}` + "\n"
	for i := range 20 {
		req, _ := http.NewRequest("POST", base+"/v1/score/batch", chunked{strings.NewReader(over)})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if last := lines[len(lines)-1]; len(lines) != 501 || !strings.HasPrefix(last, `{"line":1001,"status":413,`) {
			t.Fatalf("round %d: %d lines, the last %s", i, len(lines), last)
		}
	}
}

// The decompressed size of a batch is bounded by MaxBatchBody, as its
// size sent is: the batch ends with a line with the status 413. A
// single request's body is bounded once decompressed too: a 413.
func TestGzipBombs(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{MaxBody: 1 << 20, MaxBatchBody: 4 << 20}))
	line := `{"id": "ghost", "response": []}` + "\n"
	bomb := gzipRepeat(t, line, (64<<20)/len(line)) // 64 MiB of lines, 200 KiB sent
	a := doEncoded(t, base+"/v1/score/batch", "gzip", bomb)
	got := strings.Split(strings.TrimSuffix(a.body, "\n"), "\n")
	n := (4 << 20) / len(line) // whole lines under the limit
	want := fmt.Sprintf(`{"line":%d,"status":413,"error":"line %d: the request body is larger than the limit of %d bytes; lines from %d on were not read"}`, n+1, n+1, 4<<20, n+1)
	if a.status != 200 || len(got) != n+1 || got[n] != want {
		t.Errorf("status %d, %d lines, want %d; the last:\n%s\nwant\n%s", a.status, len(got), n+1, got[len(got)-1], want)
	}
	single := gzipRepeat(t, " ", 64<<20) // 64 MiB of white space, 64 KiB sent
	if a := doEncoded(t, base+"/v1/score", "gzip", single); a.status != 413 || a.body != `{"error":"the request body is larger than the limit of 1048576 bytes"}`+"\n" {
		t.Errorf("/v1/score: %d %s", a.status, a.body)
	}
}

// A .jsonl.gz posted as it is, without Content-Encoding, is read as its
// text, and held to MaxBatchBody once decompressed as a gzip-encoded body
// is: 4 MiB of text from a few KiB sent ends the batch with a 413.
func TestBatchGzipFileTextLimit(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{MaxBatchBody: 1 << 20}))
	body := gzipRepeat(t, `{"id": "ghost", "response": []}`+"\n", 4<<20/32)
	a := doEncoded(t, base+"/v1/score/batch", "identity", body)
	got := strings.Split(strings.TrimSuffix(a.body, "\n"), "\n")
	last := got[len(got)-1]
	if a.status != 200 || len(got) < 2 || !strings.HasPrefix(got[0], `{"id":"ghost"`) ||
		!strings.Contains(last, `"status":413,"error":"line `) || !strings.Contains(last, "the request body is larger than the limit of 1048576 bytes") {
		t.Errorf("status %d, %d lines; the last: %s", a.status, len(got), last)
	}
}
