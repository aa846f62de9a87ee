package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/jsonv"
	"github.com/callgrade/callgrade/internal/runlines"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// byteOrderMark is UTF-8's, which some editors write at the start of a
// file and which no JSON text has a place for.
const byteOrderMark = "\ufeff"

// serveScore answers POST /v1/score: {"id": ..., "response": R} or
// {"case": {...}, "response": R}, answered with one results-file line.
func (h *Handler) serveScore(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r, h.opts.MaxBody)
	if err != nil {
		bodyError(w, err)
		return
	}
	h.withSuite(w, func(l *loaded) {
		status, res, msg := l.scoreRequest(r.Context(), strings.TrimPrefix(string(body), byteOrderMark))
		if res == nil {
			writeError(w, status, "%s", msg)
			return
		}
		if r.Context().Err() == nil { // else the answer is a 503, not this result
			h.metrics.verdict(res.Pass)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(append(res.AppendJSON(make([]byte, 0, 512)), '\n'))
	})
}

// scoreRequest scores the body of a /v1/score request: a result, or a
// status and a message. A request naming its case by id is a line of a
// responses file, read as callgrade.Scorer.ScoreLine reads one; a request without a
// "response" is refused rather than scored as missing, since a single
// request is answered at once.
//
// Its scoring stops once ctx is done, the result then not to be used.
func (l *loaded) scoreRequest(ctx context.Context, text string) (int, *results.Result, string) {
	if strings.TrimSpace(text) == "" {
		return http.StatusBadRequest, nil, `the request body is empty; send a JSON object with "id" or "case", and "response"`
	}
	lim := value.Limits{MaxBytes: len(text) + 1, MaxDepth: l.depth, MaxValues: l.values}
	doc, perr := (*value.Parser)(nil).Parse(text, lim)
	if perr != nil {
		// The body is one JSON document, not a line of a responses file
		// that a model's output may have cut short: a body that is not
		// JSON at all (cut short, more after it, a stray character) is
		// the client's mistake, told as such. A body that is JSON in form
		// but whose model output is broken in content (a duplicated key,
		// NaN) is scored below, as callgrade score scores such a line.
		if serr := jsonv.CheckSyntax(text); serr != nil {
			return http.StatusBadRequest, nil, "the request is not valid JSON: " + serr.Error()
		}
	}
	if errors.Is(perr, value.ErrInvalidUTF8) {
		// As in a responses line, text that is not UTF-8 fails only the
		// calls that hold it (Scorer.ScoreLine reads the body so); an
		// inline case is scored from the parsed body, which must be
		// UTF-8 throughout, and stays refused.
		if d, err := (*value.Parser)(nil).ParseKeepInvalidUTF8(text, lim); err == nil && !d.Has("case") {
			doc, perr = d, nil
		}
	}
	if perr == nil {
		if doc.Kind() != value.Object {
			return http.StatusBadRequest, nil, `the request must be a JSON object with "id" or "case", and "response"`
		}
		resp, ok := doc.Get("response")
		if !ok {
			return http.StatusBadRequest, nil, `the request has no "response"`
		}
		cv, hasCase := doc.Get("case")
		switch {
		case hasCase && doc.Has("id"):
			return http.StatusBadRequest, nil, `the request names both "id" and "case"; give one`
		case hasCase:
			r, err := l.g.ScoreCase(ctx, cv, resp)
			if err != nil {
				return http.StatusBadRequest, nil, err.Error()
			}
			return http.StatusOK, r, ""
		}
	}
	// A Scorer of its own: the result outlives the request's scoring.
	r, i, _, err := l.g.NewScorer(ctx).ScoreLine(text, 1)
	switch {
	case err != nil && perr != nil:
		return http.StatusBadRequest, nil, "the request is not valid JSON: " + perr.Error()
	case err != nil:
		var ie *results.InputError
		switch {
		case errors.As(err, &ie) && perr == nil && doc.Has("id"):
			return http.StatusBadRequest, nil, ie.Msg // its sample, in a suite with samples
		case errors.As(err, &ie):
			return http.StatusBadRequest, nil, `the request needs "id", a string or a number, or "case", an inline case: ` + ie.Msg
		}
		return http.StatusBadRequest, nil, err.Error()
	case i < 0:
		return http.StatusNotFound, nil, fmt.Sprintf("no case with id %q", r.ID)
	}
	return http.StatusOK, r, ""
}

func errSuffix(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}

// A batch's lines are scored in chunks on several goroutines and written
// in their order.
const (
	chunkLines = 64
	chunkBytes = 64 << 10
)

// chunk is a run of consecutive lines of a batch.
type chunk struct {
	first int      // line number of the first line
	lines []string // without their newlines; "" for a line over the limit
	over  []int    // the indexes in lines of the lines over the limit
	err   error    // the body could not be read after these lines
	out   []lineOut
	done  chan struct{}
}

// batchLimits bound what is read of a batch: a line longer than maxLine
// bytes (without its newline) is discarded as it is read and answered
// with an error line; the batch ends past maxLines lines, or past maxBody
// bytes of text.
type batchLimits struct {
	maxLine  int64
	maxLines int
	maxBody  int64 // of the body's text, decompressed
}

// tooManyLines ends a batch that has more lines than the limit.
type tooManyLines int

func (e tooManyLines) Error() string {
	return fmt.Sprintf("the batch has more lines than the limit of %d (--max-batch-lines)", int(e))
}

// lineOut is one scored line.
type lineOut struct {
	c      int // case index; -1 an unknown case, -2 a blank line, -3 an error line
	sample int // the line's sample, when the suite has samples
	pass   bool
	id     string
	out    []byte // the line to write, with its newline
}

const (
	unknownCase = -1
	blankLine   = -2
	errorLine   = -3
)

// serveBatch answers POST /v1/score/batch: a responses stream in, its
// result lines out in the same order, streamed as they are scored.
func (h *Handler) serveBatch(w http.ResponseWriter, r *http.Request) {
	body, err := requestBody(w, r, h.opts.MaxBatchBody)
	if err != nil {
		bodyError(w, err)
		return
	}
	h.withSuite(w, func(l *loaded) {
		rc := http.NewResponseController(w)
		// Results are written while the body is still being read.
		_ = rc.EnableFullDuplex()
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.WriteHeader(http.StatusOK)
		// The batch's own context: net/http cancels the request's when
		// reading its body fails (a body late past the read deadline, cut
		// short), and the lines read before are still answered. The batch
		// stops at its deadline, or when the client is gone, which a write
		// tells.
		ctx := context.WithoutCancel(r.Context())
		if deadline, ok := r.Context().Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadline)
			defer cancel()
		}
		if !h.batch(ctx, l, body, w, rc) && !drain(r.Body) {
			closeAfterReply(w)
		}
	})
}

// drain reads the rest of a body that a batch ended before, up to as much
// as net/http reads itself to keep a connection (256 KiB, and as sent: a
// gzip body is not decompressed), and reports whether the body ended. The
// connection is then kept for the next request; otherwise closeAfterReply
// closes it.
//
// Both are needed because the handler is full duplex: net/http would
// otherwise read the rest itself once the handler has returned, and a body
// that ends then starts a background read that the next request's read
// collides with ("invalid concurrent Body.Read call", the connection
// reset).
func drain(body io.Reader) bool {
	_, err := io.CopyN(io.Discard, body, 256<<10)
	return err == io.EOF
}

// closeAfterReply has net/http close the connection once the answer is
// written, as a body over http.MaxBytesReader's limit does, so that the
// rest of a body is not read as the next request.
func closeAfterReply(w http.ResponseWriter) {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	// A reader of one byte over a limit of none: the limit is hit at once.
	http.MaxBytesReader(w, io.NopCloser(strings.NewReader("x")), 0).Read(make([]byte, 1))
}

// batch scores the lines of body and writes a line for each one that is
// not blank, in their order: a result line, or {"line": N, "error": ...}.
// It reports whether it read body to its end.
func (h *Handler) batch(ctx context.Context, l *loaded, body io.Reader, w io.Writer, rc *http.ResponseController) (whole bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := h.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	samples := l.g.Suite().Samples()
	order := make(chan *chunk, 2*workers)
	jobs := make(chan *chunk, 2*workers)
	go func() {
		defer close(order)
		defer close(jobs)
		whole = readChunks(ctx, body, order, jobs, batchLimits{maxLine: h.opts.MaxBody, maxLines: h.opts.MaxBatchLines, maxBody: h.opts.MaxBatchBody})
	}()
	for range workers {
		go func() {
			sc := l.g.NewScorer(ctx) // a plugin's comparison stops waiting once the batch is over
			for c := range jobs {
				c.out = make([]lineOut, len(c.lines))
				for j, text := range c.lines {
					if ctx.Err() != nil {
						break // the writer writes none of c
					}
					if slices.Contains(c.over, j) {
						c.out[j] = errorOut(c.first+j, "", fmt.Sprintf("the line is longer than the limit of %d bytes (--max-body); it was not read", h.opts.MaxBody))
						continue
					}
					c.out[j] = scoreLine(sc, text, c.first+j)
				}
				close(c.done)
			}
		}()
	}
	// A case's response, or each of its samples' when the suite has
	// samples, comes once, as in callgrade score.
	type key struct{ c, sample int }
	seen := map[key]int{} // -> line of its first response
	failed := false
	for c := range order {
		<-c.done
		if failed {
			continue // the client is gone; let the reader and workers finish
		}
		if err := ctx.Err(); err != nil {
			// Past the deadline (or the client is gone): the scoring of
			// c may have stopped part way, and none of it is written.
			failed = true
			if err == context.DeadlineExceeded {
				h.metrics.lineError()
				w.Write(h.endOut(c.first, err))
				rc.Flush()
			}
			cancel()
			continue
		}
		for j := range c.out {
			o := &c.out[j]
			line := c.first + j
			switch {
			case o.c == blankLine:
				continue
			case o.c >= 0:
				k := key{o.c, o.sample}
				if first, dup := seen[k]; dup {
					_, msg := runlines.SecondLine(o.id, o.sample, samples, first, line, c.lines[j])
					*o = errorOut(line, o.id, msg)
				} else {
					seen[k] = line
				}
			}
			if o.c == errorLine {
				h.metrics.lineError()
			} else {
				h.metrics.verdict(o.pass)
			}
			if _, err := w.Write(o.out); err != nil {
				failed = true
				cancel()
				break
			}
		}
		if c.err != nil && !failed {
			h.metrics.lineError()
			w.Write(h.endOut(c.first+len(c.lines), c.err))
		}
		if len(order) == 0 && !failed {
			// Nothing more is ready: send what is written.
			if err := rc.Flush(); err != nil {
				failed = true
				cancel()
			}
		}
	}
	return whole
}

// endOut is the line that ends a batch whose body could not be read from
// line on, err saying why: {"line": N, "status": S, "error": "line N:
// ..."}, where S is the status a request would have been answered with
// (413 over a limit, 408 a body still arriving at the deadline, 503
// scoring past it, 400 a body that cannot be read). No
// line follows it: a client tells a batch cut short by its "status".
func (h *Handler) endOut(line int, err error) []byte {
	status, msg := http.StatusBadRequest, fmt.Sprintf("cannot read the request body from line %d on: %v", line, err)
	var mb *http.MaxBytesError
	var many tooManyLines
	switch {
	case errors.As(err, &mb):
		status, msg = http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than the limit of %d bytes; lines from %d on were not read", mb.Limit, line)
	case errors.As(err, &many):
		status, msg = http.StatusRequestEntityTooLarge, fmt.Sprintf("%v; lines from %d on were not read", many, line)
	case errors.Is(err, os.ErrDeadlineExceeded):
		status, msg = http.StatusRequestTimeout, fmt.Sprintf("the batch ran out of its time (%v, --batch-timeout); lines from %d on were not read", h.opts.BatchTimeout, line)
	case errors.Is(err, context.DeadlineExceeded):
		status, msg = http.StatusServiceUnavailable, fmt.Sprintf("the batch ran out of its time (%v, --batch-timeout) while being scored; lines from %d on were not answered", h.opts.BatchTimeout, line)
	}
	b := fmt.Appendf(nil, `{"line":%d,"status":%d,"error":`, line, status)
	b = jsontext.AppendQuote(b, fmt.Sprintf("line %d: %s", line, msg))
	return append(b, "}\n"...)
}

// readChunks splits body, read with results.ResponseReader as callgrade
// score reads a responses file, into chunks of lines, each sent to order
// (the writer's queue) and to jobs (the scorers'). A chunk ends when it is
// full or when no more of the body has arrived. A line over lim.maxLine is
// never held: it is read to its end and dropped, and its chunk says so
// (over). Past lim.maxLines lines, the chunk after the last one read
// carries the error that ends the batch, if any more of the body follows.
// It reports whether it read the body to its end.
func readChunks(ctx context.Context, body io.Reader, order, jobs chan<- *chunk, lim batchLimits) (whole bool) {
	line := 1
	text, err := results.ResponseText(body)
	if err != nil {
		send(context.Background(), &chunk{first: line, err: err, done: make(chan struct{})}, order, jobs)
		return false
	}
	// A .jsonl.gz sent as it is, without Content-Encoding, is held to the
	// limit once decompressed too, as requestBody holds a gzip body.
	text = http.MaxBytesReader(nil, io.NopCloser(text), lim.maxBody)
	rr := results.NewResponseReader(text, int(min(lim.maxLine, math.MaxInt)), 0)
	for {
		c := &chunk{first: line, done: make(chan struct{})}
		if line > lim.maxLines {
			// Waits for the client's next byte, or for its end: the
			// lines before were sent, so a client that waits for their
			// answers before ending the body has them.
			more, err := rr.More()
			if !more && err == nil {
				return true
			}
			if more {
				err = tooManyLines(lim.maxLines)
			}
			c.err = err
			send(context.Background(), c, order, jobs)
			return false
		}
		size := 0
		for len(c.lines) < chunkLines && size < chunkBytes && line <= lim.maxLines {
			b, ok, cut, err := rr.ReadLine(nil)
			if err != nil && err != io.EOF {
				// A line cut short is not scored: the error line names it.
				// It is sent even though the request's context has ended,
				// as net/http ends it when reading the connection fails:
				// the writer drains order until it is closed.
				c.err = err
				send(context.Background(), c, order, jobs)
				return false
			}
			if ok {
				if cut > 0 {
					c.over = append(c.over, len(c.lines))
				}
				// b is the line's own: a string of it without a copy.
				text := unsafe.String(unsafe.SliceData(b), len(b))
				c.lines = append(c.lines, strings.TrimSuffix(text, "\r"))
				size += len(b) + 1
				line++
			}
			if err != nil {
				return send(ctx, c, order, jobs)
			}
			if rr.Buffered() == 0 {
				// The next read may wait on the client: score what came,
				// so that a client sending line by line is answered line
				// by line, not a chunk later.
				break
			}
		}
		if !send(ctx, c, order, jobs) {
			return false
		}
	}
}

func send(ctx context.Context, c *chunk, order, jobs chan<- *chunk) bool {
	select {
	case order <- c:
	case <-ctx.Done():
		return false
	}
	jobs <- c // never blocks for long: workers take every job, and order bounds them
	return true
}

// scoreLine scores one line of a batch as callgrade score does, with the
// worker's Scorer, and encodes its answer before the Scorer's next line.
func scoreLine(sc *callgrade.Scorer, text string, line int) lineOut {
	if strings.TrimSpace(text) == "" {
		return lineOut{c: blankLine}
	}
	res, i, k, err := sc.ScoreLine(text, line)
	if err != nil {
		var ie *results.InputError
		if errors.As(err, &ie) {
			return errorOut(line, "", ie.Msg+errSuffix(ie.Err))
		}
		return errorOut(line, "", err.Error())
	}
	if i < 0 {
		i = unknownCase
	}
	o := resultOut(i, res)
	o.sample = k
	return o
}

func resultOut(c int, r *results.Result) lineOut {
	return lineOut{c: c, pass: r.Pass, id: r.ID, out: append(r.AppendJSON(make([]byte, 0, 512)), '\n')}
}

// errorOut is the line written for a line that cannot be scored:
// {"line": N, "id": ..., "error": "line N: ..."}.
func errorOut(line int, id, msg string) lineOut {
	b := fmt.Appendf(nil, `{"line":%d`, line)
	if id != "" {
		b = append(b, `,"id":`...)
		b = jsontext.AppendQuote(b, id)
	}
	b = append(b, `,"error":`...)
	b = jsontext.AppendQuote(b, fmt.Sprintf("line %d: %s", line, msg))
	return lineOut{c: errorLine, id: id, out: append(b, "}\n"...)}
}
