package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/callgrade/callgrade/response"
	"github.com/callgrade/callgrade/results"
)

// RunOptions configure Run.
type RunOptions struct {
	// Name is the responses file's name in error messages.
	Name string
	// Workers is the number of goroutines scoring; 0 means GOMAXPROCS.
	Workers int
	// Samples is the number of response lines each case has, told apart
	// by their "sample", from 0 to Samples-1; 0 for one line per case, as
	// without samples. Run writes a result line per (case, sample), and
	// its Summary estimates pass@k and pass^k. Run does not read the
	// suite's `samples:`; callgrade.Grader.Run does.
	Samples int
	// PassK are the values of k for which a run with samples estimates
	// pass@k and pass^k, each from 1 to Samples; Samples alone when
	// empty.
	PassK []int
	// MaxLineBytes is the longest response line read, in bytes without
	// its newline; 0 means DefaultMaxLineBytes. A longer line is not held
	// in memory: it is read on to its end and dropped, and the case its id
	// names (looked for in its first CutHeadBytes) fails with one
	// invalid_arguments diff naming the line and the limit; a line whose
	// head holds no id stops the run with an *InputError.
	MaxLineBytes int
}

// DefaultMaxLineBytes is RunOptions.MaxLineBytes when none is given:
// 256 MiB. Run holds about twice its longest line at once (the line and
// what is parsed or written from it, see docs/performance.md).
const DefaultMaxLineBytes = 256 << 20

// CutHeadBytes is how much of a line longer than RunOptions.MaxLineBytes
// is kept, to find its id (and in a run with samples its sample) in.
const CutHeadBytes = 64 << 10

// mergeSummary adds o, a worker's tally of its share of a run, to s.
func mergeSummary(s, o *Summary) {
	s.Cases += o.Cases
	s.Passed += o.Passed
	s.Failed += o.Failed
	s.Missing += o.Missing
	s.Errored += o.Errored
	s.ScoreSum += o.ScoreSum
	if s.ByTool == nil {
		s.ByTool, s.ByKind = map[string]*results.Tally{}, map[Kind]int{}
	}
	for k, t := range o.ByTool {
		u := s.ByTool[k]
		if u == nil {
			u = &results.Tally{}
			s.ByTool[k] = u
		}
		u.Cases += t.Cases
		u.Passed += t.Passed
		u.ScoreSum += t.ScoreSum
	}
	for k, n := range o.ByKind {
		s.ByKind[k] += n
	}
}

// batch is a run of consecutive lines of the responses file.
type batch struct {
	first int    // line number of the first line
	data  []byte // the lines, newline-terminated
	ends  []int  // end offset of each line in data
	// cut has the lines too long to read, by their index in the batch:
	// data holds their head only (see cutLine).
	cut map[int]cutLine
	// long is set when the batch holds a line longer than the reader's
	// buffer, which holds the run's single long-line slot until scored.
	long bool
}

// cutAt is the cutLine of the batch's line j, nil for a line read whole.
func (b *batch) cutAt(j int) *cutLine {
	if b.cut == nil {
		return nil // nearly always: no map lookup
	}
	if c, ok := b.cut[j]; ok {
		return &c
	}
	return nil
}

// done is a scored batch: one encoded result per line, in line order.
type done struct {
	cases []int  // case index per line, -1 for an unknown id, -2 for a blank line
	out   []byte // the encoded results
	ends  []int  // end offset in out of each result
	lines []int  // line number per result
	err   *InputError
}

const batchBytes = 256 << 10

// buffers recycles the byte buffers of a run: a batch's lines once it is
// scored (nothing scored from them outlives scoreBatch: each result is
// encoded before the next line), and a batch's encoded results once every
// one of them is written. A run then touches a few megabytes of buffers
// instead of allocating two copies of the responses file and one of the
// results, which the collector would have to catch up with.
type buffers struct {
	lines chan []byte
	outs  chan []byte
}

func newBuffers(n int) *buffers {
	return &buffers{lines: make(chan []byte, n), outs: make(chan []byte, n)}
}

func getBuf(c chan []byte, size int) []byte {
	select {
	case b := <-c:
		return b[:0]
	default:
		return make([]byte, 0, size)
	}
}

// putBuf keeps b for reuse unless it grew far beyond the usual size (a
// batch with a huge line) or enough are kept already.
func putBuf(c chan []byte, b []byte) {
	if cap(b) > 4*batchBytes {
		return
	}
	select {
	case c <- b:
	default:
	}
}

// outBuf is a batch's encoded results, until every one is written.
type outBuf struct {
	b       []byte
	pending int
}

// Run scores a JSON Lines responses stream (spec section 2), which may be
// gzip-compressed (see response.NewReader), and writes the results file
// (section 3) to w: one line per case in the order of the cases, then one
// line per response that names no case. Lines are scored on all cores;
// results are written as soon as every earlier case's result is known, so
// memory stays bounded by the suite when responses come in the order of
// the cases. The lines for responses that name no case wait for the end in
// memory up to 4 MiB and beyond that in a temporary file (in os.TempDir,
// removed before Run returns), so that a responses file scored against the
// wrong suite does not keep its results in memory.
//
// An *InputError stops the run; w may then hold part of the results, so a
// caller that must not leave a partial file writes to a temporary one.
// When ctx is cancelled, Run stops and returns ctx's error. Whatever ends
// it, Run has stopped reading r when it returns.
//
// With RunOptions.Samples n, every line carries "sample", from 0 to n-1,
// and the results file has a line per case and sample, in the order of the
// cases and then of the samples, each with its "sample"; a sample without
// a line gets a missing_response line. A line without "sample", with one
// out of range, or a second line for one case and sample stops the run
// with an *InputError.
//
// Of the lines that would stop the run, the error is always the first's
// in the file, however many workers score it: a second line for a case
// names that line and the case's first.
func (e *Engine) Run(ctx context.Context, r io.Reader, w io.Writer, opts RunOptions) (*Summary, error) {
	if opts.Samples < 0 || opts.Samples > MaxSamples {
		return nil, fmt.Errorf("samples per case must be from 1 to %d, or 0 for none; got %d", MaxSamples, opts.Samples)
	}
	var ks []int
	if opts.Samples > 0 {
		var err error
		if ks, err = results.CheckPassK(opts.PassK, opts.Samples); err != nil {
			return nil, err
		}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A line that stops the run stops the reading only: the batches read
	// before it are still scored, so that the run stops at the first such
	// line in the file, whichever worker found which first (see
	// runState.see), and later batches are passed over.
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	var stopAt atomic.Int64 // the line of the first error found so far; 0 for none

	st := newRunState(len(e.cases), opts.Samples, opts.Name)
	todo := make(chan batch, workers*2)
	results := make(chan done, workers*2)
	bufs := newBuffers(workers*4 + 4)
	maxLine := opts.MaxLineBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	// One line longer than the reader's buffer at a time: it is read only
	// once the batch of the one before is scored, so that the lines in
	// flight (queued for the workers, being scored) hold one long line at
	// most, not one for each.
	longSlot := make(chan struct{}, 1)
	release := func(b batch) {
		if b.long {
			<-longSlot
		}
	}

	// The reader must be done with r before Run returns, whatever ends the
	// run: r is the caller's, and readErr is read below.
	var readErr error
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(todo)
		readErr = readBatches(readCtx, r, func(b batch) bool {
			select {
			case todo <- b:
				return true
			case <-readCtx.Done():
				return false
			}
		}, bufs, &longLines{max: maxLine, slot: longSlot}, false)
	}()
	defer func() {
		cancel()
		<-readDone
	}()

	sums := make([]Summary, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := e.NewScorer()
			score := func(b batch) done { return e.scoreBatch(b, sc, st, &sums[k], bufs) }
			if e.blocking {
				score = func(b batch) done { return e.scoreBatchAtOnce(b, st, &sums[k], bufs) }
			}
			for b := range todo {
				if at := stopAt.Load(); at > 0 && int64(b.first) > at {
					putBuf(bufs.lines, b.data) // wholly after the error: no earlier one in it
					release(b)
					continue
				}
				d := score(b)
				release(b)
				select {
				case results <- d:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	bw := bufio.NewWriterSize(w, 1<<20)
	type slot struct {
		out []byte
		buf *outBuf
	}
	slots := make([]slot, len(st.seen)) // one per case and sample
	next := 0
	var later laterLines
	defer later.close()
	var firstErr *InputError
	var laterBuf []byte
	for d := range results {
		if d.err != nil {
			if firstErr == nil || d.err.Line < firstErr.Line {
				firstErr = d.err
				stopAt.Store(int64(firstErr.Line))
			}
			stopReading()
			continue
		}
		if firstErr != nil {
			continue
		}
		ob := &outBuf{b: d.out}
		start, firstLater, nLater := 0, 0, 0
		laterBuf = laterBuf[:0]
		for j, c := range d.cases {
			out := d.out[start:d.ends[j]]
			start = d.ends[j]
			switch {
			case c >= 0:
				slots[c] = slot{out, ob}
				ob.pending++
			case c == -1:
				if nLater == 0 {
					firstLater = d.lines[j]
				}
				nLater++
				laterBuf = append(laterBuf, out...)
			}
		}
		if nLater > 0 {
			later.add(firstLater, nLater, laterBuf)
		}
		if ob.pending == 0 {
			putBuf(bufs.outs, d.out)
		}
		for next < len(slots) && slots[next].out != nil {
			bw.Write(slots[next].out)
			if ob := slots[next].buf; ob.pending == 1 {
				putBuf(bufs.outs, ob.b)
			} else {
				ob.pending--
			}
			slots[next] = slot{}
			next++
		}
	}
	cancel() // the reader stops at its next batch, if it has not
	<-readDone
	if firstErr != nil {
		return nil, firstErr
	}
	if readErr != nil {
		return nil, &InputError{File: opts.Name, Msg: "cannot read responses", Err: readErr}
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}

	var sum Summary
	for k := range sums {
		mergeSummary(&sum, &sums[k])
	}
	var res Result
	var buf []byte
	for ; next < len(slots); next++ {
		if slots[next].out == nil {
			st.missingResponse(e, &res, next)
			sum.Add(&res)
			buf = append(res.AppendJSON(buf[:0]), '\n')
			bw.Write(buf)
			continue
		}
		bw.Write(slots[next].out)
	}
	if err := later.writeTo(bw); err != nil {
		return nil, fmt.Errorf("writing results: %w", err)
	}
	sum.Unknown = later.lines
	if err := bw.Flush(); err != nil {
		return nil, fmt.Errorf("writing results: %w", err)
	}
	if opts.Samples > 0 {
		st.summarize(e, &sum, ks)
	}
	return &sum, nil
}

// readBatches splits the stream into batches of whole lines and hands each
// to send, which returns false to stop. With eager (a partial run, whose
// input may be a pipe that a worker keeps open), a batch also ends when
// the next read could block, so that the lines already read are scored
// and answered before waiting for more.
func readBatches(ctx context.Context, r io.Reader, send func(batch) bool, bufs *buffers, lr *longLines, eager bool) error {
	// response.NewReader looks at the first three bytes for gzip's magic
	// number and a byte order mark, waiting until it has them: a pipe whose
	// first line is a blank one of a byte or two would wait for the next.
	// Neither starts with a byte a JSON line starts with, so one byte says
	// whether to look further.
	br := bufio.NewReaderSize(r, 1<<20)
	if b, _ := br.Peek(1); len(b) == 1 && (b[0] == 0x1f || b[0] == 0xef) {
		text, err := response.NewReader(br)
		if err != nil {
			return err
		}
		br = bufio.NewReaderSize(text, 1<<20) // text itself: it buffers that much
	}
	line := 1
	for {
		var data []byte
		var ends []int
		var cut map[int]cutLine
		long := false
		first := line
		for len(data) < batchBytes {
			if ctx.Err() != nil {
				return nil // cancelled: stop reading now, not at the batch's end
			}
			if data == nil {
				data = getBuf(bufs.lines, batchBytes+4096)
			}
			start := len(data)
			chunk, err := br.ReadSlice('\n')
			n := len(chunk)
			if errors.Is(err, bufio.ErrBufferFull) {
				// A line longer than the buffer: chunk is the buffer
				// itself, which the next read overwrites.
				if !long {
					select {
					case lr.slot <- struct{}{}:
					case <-ctx.Done():
						return nil
					}
					long = true
					if lr.freeFirst {
						debug.FreeOSMemory()
						lr.freeFirst = false
					}
				}
				var c cutLine
				old := data
				data, c, err = lr.readLong(br, data, chunk)
				if unsafe.SliceData(data) != unsafe.SliceData(old) {
					putBuf(bufs.lines, old)
				}
				if c.n > 0 {
					if cut == nil {
						cut = map[int]cutLine{}
					}
					cut[len(ends)] = c
				}
				n = len(data) - start
			} else if n > 0 {
				if size := lineLen(chunk); size > lr.max {
					if cut == nil {
						cut = map[int]cutLine{}
					}
					cut[len(ends)] = cutLine{n: size, limit: lr.max}
					chunk = chunk[:min(size, CutHeadBytes)]
				}
				data = append(data, chunk...)
			}
			if n > 0 {
				if data[len(data)-1] != '\n' {
					data = append(data, '\n')
				}
				ends = append(ends, len(data))
				line++
			}
			if err == io.EOF {
				if len(ends) > 0 {
					send(batch{first: first, data: data, ends: ends, cut: cut, long: long})
				}
				return nil
			}
			if err != nil {
				return err
			}
			if eager && len(ends) > 0 && br.Buffered() == 0 {
				break // the next read may wait: score what there is first
			}
		}
		if len(ends) == 0 {
			putBuf(bufs.lines, data)
			continue
		}
		if !send(batch{first: first, data: data, ends: ends, cut: cut, long: long}) {
			return nil
		}
	}
}

// longLines reads the lines longer than the reader's buffer.
type longLines struct {
	max  int           // RunOptions.MaxLineBytes
	slot chan struct{} // held by the batch of the long line in flight
	// freeFirst is set after a huge line: the memory of the line and of
	// its result is handed back before the next long line is read,
	// rather than held beside it.
	freeFirst bool
}

// lineLen is the length of a line read with its newline, if any, without
// it.
func lineLen(b []byte) int {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return n - 1
	}
	return len(b)
}

// gcLine is the length from which the pieces a long line was gathered in
// are handed back to the system as the line is put together (see
// readLong), every gcLine bytes: a collection costs little beside reading
// and parsing that much.
const gcLine = 16 << 20

// readLong reads on a line of which head, the reader's whole buffer, is
// read already, and returns data with the line appended, with its newline
// if it had one. The line is gathered in pieces of the buffer's size and
// then copied once into a buffer of its exact length, rather than grown by
// append, whose outgrown copies add up to several times the line before
// the collector frees them. A line longer than lr.max is read on to its
// end but not kept: data gets its first CutHeadBytes, and the cutLine
// says how long the line was.
func (lr *longLines) readLong(br *bufio.Reader, data, head []byte) ([]byte, cutLine, error) {
	pieces := [][]byte{slices.Clone(head)}
	n := len(head) // the line's bytes so far, its newline included
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		size := n
		if err == nil {
			size-- // the newline
		}
		if size > lr.max {
			// Past the limit whatever follows: keep the head, drop the
			// rest as it comes.
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = br.ReadSlice('\n')
				size += len(chunk)
				if err == nil {
					size--
				}
			}
			data = append(data, pieces[0][:min(len(pieces[0]), CutHeadBytes)]...)
			return data, cutLine{n: size, limit: lr.max}, err
		}
		pieces = append(pieces, slices.Clone(chunk))
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && err != io.EOF {
			return data, cutLine{}, err
		}
		// One buffer of the exact length (the newline and one byte for a
		// newline to add included), with the batch's lines before it.
		// The pieces of a huge line are handed back to the system as
		// they are copied, so that the line is not held twice over: at
		// the collector's pace they would stay while the line is parsed
		// and its result written, each of which can take as much again.
		buf := make([]byte, len(data), len(data)+n+1)
		copy(buf, data)
		copied := 0
		for i := range pieces {
			buf = append(buf, pieces[i]...)
			copied += len(pieces[i])
			pieces[i] = nil
			if n >= gcLine && copied >= gcLine {
				debug.FreeOSMemory()
				copied = 0
			}
		}
		if n >= gcLine {
			debug.FreeOSMemory()
			lr.freeFirst = true
		}
		return buf, cutLine{}, err
	}
}

// scoreBatch scores every line of b.
func (e *Engine) scoreBatch(b batch, sc *Scorer, st *runState, sum *Summary, bufs *buffers) done {
	res := &sc.res
	defer putBuf(bufs.lines, b.data)
	// The lines are read as a string without a copy: b.data is not written
	// until it comes back from the pool, after this returns.
	data := unsafe.String(unsafe.SliceData(b.data), len(b.data))
	d := done{cases: make([]int, 0, len(b.ends)), ends: make([]int, 0, len(b.ends)), lines: make([]int, 0, len(b.ends))}
	d.out = getBuf(bufs.outs, 2*batchBytes)
	start, guess := 0, -1
	for j, end := range b.ends {
		line := b.first + j
		text := data[start : end-1]
		start = end
		if strings.TrimSpace(text) == "" {
			d.cases = append(d.cases, -2)
			d.ends = append(d.ends, len(d.out))
			d.lines = append(d.lines, line)
			continue
		}
		c, err := e.runLine(text, line, guess, b.cutAt(j), sc, st)
		if err != nil {
			d.err = err
			return d
		}
		if c >= 0 {
			guess = st.guess(c)
		}
		if c >= 0 {
			sum.Add(res)
		}
		d.out = append(res.AppendJSON(d.out), '\n')
		sc.w.parser.Reset() // nothing of the line is used after its result is encoded
		d.cases = append(d.cases, c)
		d.ends = append(d.ends, len(d.out))
		d.lines = append(d.lines, line)
	}
	return d
}

// runLine scores one line of a run into res and returns its slot (its
// case index, or in a run with samples its case's and sample's, see
// runState), or -1 when its id names no case; a second line for a slot
// stops the run.
func (e *Engine) runLine(text string, line, guess int, cut *cutLine, sc *Scorer, st *runState) (int, *InputError) {
	res := &sc.res
	i, k, err := e.scoreSampleLine(res, text, line, guess, st.samples, cut, &sc.w)
	if err != nil {
		err.File = st.name
		return 0, err
	}
	if i < 0 {
		return i, nil
	}
	slot := i*st.per + k
	if first := st.see(slot, line); first != line {
		return 0, st.second(res.ID, k, first, line, text)
	}
	if st.passed != nil && res.Pass {
		st.passed[i].Add(1)
	}
	return slot, nil
}

// linesAtOnce is how many lines of a batch are scored at the same time when
// a comparator blocks: enough that a plugin sees large batches.
const linesAtOnce = 256

// scoreBatchAtOnce scores the lines of b concurrently, for suites whose
// comparators wait on I/O (a plugin's batches the comparisons pending at
// once, so one line at a time per core would make batches of one). It
// returns the same results as scoreBatch, in line order.
func (e *Engine) scoreBatchAtOnce(b batch, st *runState, sum *Summary, bufs *buffers) done {
	defer putBuf(bufs.lines, b.data)
	data := unsafe.String(unsafe.SliceData(b.data), len(b.data))
	type scored struct {
		c   int
		out []byte
		err *InputError
	}
	lines := make([]scored, len(b.ends))
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, linesAtOnce)
	start := 0
	for j, end := range b.ends {
		text := data[start : end-1]
		start = end
		if strings.TrimSpace(text) == "" {
			lines[j].c = -2
			continue
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			sc := e.NewScorer()
			res := &sc.res
			c, err := e.runLine(text, b.first+j, -1, b.cutAt(j), sc, st)
			lines[j] = scored{c: c, err: err}
			if err != nil {
				return
			}
			lines[j].out = append(res.AppendJSON(nil), '\n')
			if c >= 0 {
				mu.Lock()
				sum.Add(res)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	d := done{cases: make([]int, 0, len(b.ends)), ends: make([]int, 0, len(b.ends)), lines: make([]int, 0, len(b.ends))}
	d.out = getBuf(bufs.outs, 2*batchBytes)
	for j, l := range lines {
		if l.err != nil {
			d.err = l.err
			return d
		}
		d.out = append(d.out, l.out...)
		d.cases = append(d.cases, l.c)
		d.ends = append(d.ends, len(d.out))
		d.lines = append(d.lines, b.first+j)
	}
	return d
}
