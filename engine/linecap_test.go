package engine

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/results"
)

// xs reads n bytes of 'x' without holding them.
type xs struct{ n int }

func (r *xs) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	r.n -= k
	return k, nil
}

// longResponse is a response line for id whose call's city is n x's,
// without its newline, read as it is made.
func longResponse(id string, n int) io.Reader {
	return io.MultiReader(strings.NewReader(longHead(id)), &xs{n}, strings.NewReader(longTail))
}

func longHead(id string) string {
	return `{"id":"` + id + `","response":[{"name":"f","arguments":{"city":"`
}

const longTail = `"}}]}`

// longSize is the length of longResponse(id, n).
func longSize(id string, n int) int { return len(longHead(id)) + n + len(longTail) }

const capSuite = "version: 1\ncases:\n  - {id: a, expected: {name: f, arguments: {city: x}}}\n  - {id: b, expected: {name: f, arguments: {city: x}}}\n  - {id: c, expected: {name: f, arguments: {city: x}}}\n"

func runCap(t *testing.T, e *Engine, r io.Reader, max int) ([]string, error) {
	t.Helper()
	var out bytes.Buffer
	_, err := e.Run(context.Background(), r, &out, RunOptions{Name: "r.jsonl", MaxLineBytes: max})
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), err
}

// A line longer than RunOptions.MaxLineBytes fails its case, named by the
// id at its start, with one invalid_arguments diff naming the line, its
// length and the limit; the lines around it are scored as ever, whether
// the line is longer than the reader's buffer or not.
func TestRunLineCap(t *testing.T) {
	e := load(t, capSuite)
	short := func(id string) io.Reader {
		return strings.NewReader(`{"id":"` + id + `","response":[{"name":"f","arguments":{"city":"x"}}]}` + "\n")
	}
	for _, tt := range []struct {
		name   string
		n, max int
		cut    bool
	}{
		{"past the buffer, over the limit", 3 << 20, 3 << 19, true},
		{"within the buffer, over the limit", 200, 100, true},
		{"past the buffer, within the limit", 3 << 20, 4 << 20, false},
		{"exactly the limit", 3 << 20, longSize("b", 3<<20), false},
		{"one byte over", 3 << 20, longSize("b", 3<<20) - 1, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			size := longSize("b", tt.n) // without its newline
			r := io.MultiReader(short("a"), longResponse("b", tt.n), strings.NewReader("\n"), short("c"))
			lines, err := runCap(t, e, r, tt.max)
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) != 3 || !strings.Contains(lines[0], `"pass":true`) || !strings.Contains(lines[2], `"pass":true`) {
				t.Fatalf("results around the long line:\n%.300s", strings.Join(lines, "\n"))
			}
			want := fmt.Sprintf(`response line 2 is %d bytes, longer than the limit of %d bytes for a line`, size, tt.max)
			if tt.cut {
				if !strings.Contains(lines[1], `"kind":"invalid_arguments"`) || !strings.Contains(lines[1], want) {
					t.Errorf("line 2: %.300s; want an invalid_arguments diff saying %q", lines[1], want)
				}
			} else if !strings.Contains(lines[1], `"kind":"mismatch"`) || strings.Contains(lines[1], "limit") {
				t.Errorf("line 2: %.300s; want it read and compared", lines[1])
			}
		})
	}
}

// An over-long line at the end of the input, without a newline, is cut too;
// one whose first cutHeadBytes hold no id stops the run naming the line.
func TestRunLineCapEdges(t *testing.T) {
	e := load(t, capSuite)
	lines, err := runCap(t, e, longResponse("b", 2<<20), 1<<20)
	if err != nil || len(lines) != 3 || !strings.Contains(lines[1], "response line 1 is ") {
		t.Errorf("last line without a newline: %v\n%.300s", err, strings.Join(lines, "\n"))
	}
	noID := io.MultiReader(strings.NewReader(`{"response":"`), &xs{2 << 20}, strings.NewReader(`","id":"b"}`+"\n"))
	_, err = runCap(t, e, noID, 1<<20)
	var ie *results.InputError
	if !errors.As(err, &ie) || ie.Line != 1 || !strings.Contains(err.Error(), `hold no "id"`) {
		t.Errorf("id past the head: %v; want an InputError for line 1 saying no id was found", err)
	}
}

// A line over the limit is never held whole, gzip-compressed or not: a
// gzip file of a few hundred KB that expands to a 256 MiB line costs the
// run a few MB, not the line.
func TestRunLineCapGzip(t *testing.T) {
	if testing.Short() {
		t.Skip("compresses 256 MiB")
	}
	e := load(t, capSuite)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	io.Copy(zw, io.MultiReader(longResponse("b", 256<<20), strings.NewReader("\n")))
	zw.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	lines, err := runCap(t, e, &gz, 1<<20)
	runtime.ReadMemStats(&after)
	want := fmt.Sprintf("response line 1 is %d bytes, longer than the limit of 1048576", longSize("b", 256<<20))
	if err != nil || len(lines) != 3 || !strings.Contains(lines[1], want) {
		t.Fatalf("%v\n%.300s", err, strings.Join(lines, "\n"))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("the run allocated %d MB for a line it does not keep", got>>20)
	}
}

// A partial run reads its lines as Run does: a line past the cap fails its
// case unread, in the partial line of its own input line, and the lines
// around it are answered as ever.
func TestRunPartialLineCap(t *testing.T) {
	e := load(t, capSuite)
	short := func(id string) io.Reader {
		return strings.NewReader(`{"id":"` + id + `","response":[{"name":"f","arguments":{"city":"x"}}]}` + "\n")
	}
	for _, n := range []int{200, 3 << 20} { // within the reader's buffer, and past it
		r := io.MultiReader(short("a"), longResponse("b", n), strings.NewReader("\n"), short("c"))
		var out bytes.Buffer
		if err := e.RunPartial(context.Background(), r, &out, RunOptions{Name: "r.jsonl", MaxLineBytes: 100}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 3 || !strings.Contains(lines[0], `"pass":true`) || !strings.Contains(lines[2], `"pass":true`) {
			t.Fatalf("%d bytes: partial lines around the long line:\n%.300s", n, strings.Join(lines, "\n"))
		}
		want := fmt.Sprintf(`response line 2 is %d bytes, longer than the limit of 100 bytes for a line`, longSize("b", n))
		if !strings.Contains(lines[1], `"line":2`) || !strings.Contains(lines[1], `"kind":"invalid_arguments"`) || !strings.Contains(lines[1], want) {
			t.Errorf("%d bytes: line 2: %.300s; want an invalid_arguments diff saying %q", n, lines[1], want)
		}
	}
}
