package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/callgrade/callgrade/internal/runlines"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
)

// RunOptions configure Run, RunPartial and Merge (callgrade.RunOptions is
// this type). The zero value reads the suite's samples with every default.
type RunOptions struct {
	// Name is the responses stream's name in messages.
	Name string
	// Workers is the number of goroutines scoring; 0 means GOMAXPROCS.
	Workers int
	// Samples is the number of response lines each case has, told apart
	// by their "sample", from 0 to Samples-1: 0 means the suite's
	// `samples:` (one line per case when it has none), as callgrade score
	// without --samples; a negative Samples means one line per case,
	// whatever the suite says. With samples, Run writes a result line per
	// (case, sample), and its Summary estimates pass@k and pass^k. It may
	// not be over callgrade.MaxSamples.
	Samples int
	// PassK are the values of k for which a run with samples estimates
	// pass@k and pass^k, each from 1 to the samples; the samples alone
	// when empty.
	PassK []int
	// MaxLineBytes is the longest response line read, in bytes without
	// its newline; 0 means 256 MiB (callgrade.DefaultMaxLineBytes). A
	// longer line is not held in memory: it is read on to its end and
	// dropped, and the case its id names (looked for in its first 64 KiB)
	// fails with one invalid_arguments diff naming the line and the
	// limit; a line whose head holds no id stops the run with a
	// *results.InputError.
	MaxLineBytes int
	// OnResponse, when not nil, is handed each response line that is read
	// whole (not longer than MaxLineBytes) and names a case, with its
	// result, once it is scored and before the result is written: what the
	// line says as the run read it, for a report that shows the calls a
	// model made without reading the responses a second time (which a
	// stream on standard input cannot be). It is called from the workers,
	// several at once, and line, result and the values in them are valid
	// only until it returns: what it keeps, it copies
	// (strings.Clone(line.Text)).
	OnResponse func(line *results.ResponseLine, result *results.Result)
}

// defaultMaxLineBytes is RunOptions.MaxLineBytes when none is given:
// 256 MiB. Run holds about twice its longest line at once (the line and
// what is parsed or written from it, see docs/performance.md). It is
// callgrade.DefaultMaxLineBytes, which a test holds it to: the root
// documents the bound, the engine applies it.
const defaultMaxLineBytes = 256 << 20

// cutHeadBytes is how much of a line longer than RunOptions.MaxLineBytes
// is kept, to find its id (and in a run with samples its sample) in.
const cutHeadBytes = 64 << 10

// mergeSummary adds o, a worker's tally of its share of a run, to s.
func mergeSummary(s, o *results.Summary) {
	s.Cases += o.Cases
	s.Passed += o.Passed
	s.Failed += o.Failed
	s.Missing += o.Missing
	s.Errored += o.Errored
	s.ScoreSum += o.ScoreSum
	if s.ByTool == nil {
		s.ByTool, s.ByKind = map[string]*results.Tally{}, map[results.Kind]int{}
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

// cutLine records c as the cutLine of the line being read into b.
func (b *batch) cutLine(c cutLine) {
	if b.cut == nil {
		b.cut = map[int]cutLine{}
	}
	b.cut[len(b.ends)] = c
}

// done is a scored batch: one encoded result per line, in line order.
type done struct {
	cases []int  // case index per line, -1 for an unknown id, -2 for a blank line
	out   []byte // the encoded results
	ends  []int  // end offset in out of each result
	lines []int  // line number per result
	err   *results.InputError
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
// gzip-compressed (read with results.ResponseReader), and writes the
// results file (section 3) to w: one line per case in the order of the
// cases, then one line per response that names no case. Lines are scored
// on all cores; results are written as soon as every earlier case's
// result is known, so memory stays bounded by the suite when responses
// come in the order of the cases. The lines for responses that name no case wait for the end in
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
func (e *Engine) Run(ctx context.Context, r io.Reader, w io.Writer, opts RunOptions) (*results.Summary, error) {
	opts.Samples = e.samplesOf(opts.Samples)
	ks, err := checkRunOptions(opts)
	if err != nil {
		return nil, err
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := e.startRun(ctx, r, opts)
	// The reader must be done with r before Run returns, whatever ends the
	// run: r is the caller's, and p.readErr is read below.
	defer func() {
		cancel()
		<-p.readDone
	}()
	out := newResultWriter(w, len(p.st.seen), p.bufs)
	defer out.later.close()
	firstErr := out.collect(p)
	cancel() // the reader stops at its next batch, if it has not
	<-p.readDone
	if firstErr != nil {
		return nil, firstErr
	}
	if p.readErr != nil {
		return nil, &results.InputError{File: opts.Name, Msg: "cannot read responses", Err: p.readErr}
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	return out.finish(e, p, opts, ks)
}

// samplesOf is the samples per case of a run given RunOptions.Samples n:
// the suite's for 0, none for a negative n.
func (e *Engine) samplesOf(n int) int {
	switch {
	case n == 0:
		return e.samples
	case n < 0:
		return 0
	}
	return n
}

// checkRunOptions checks the samples of a run or merge and returns the
// values of k its Summary estimates pass@k for: none without samples.
func checkRunOptions(opts RunOptions) ([]int, error) {
	if err := checkSamples(opts.Samples); err != nil {
		return nil, err
	}
	if opts.Samples == 0 {
		return nil, nil
	}
	return runlines.CheckPassK(opts.PassK, opts.Samples)
}

// checkSamples checks RunOptions.Samples.
func checkSamples(samples int) error {
	// suite.MaxSamples bounds a run's samples as it bounds a suite's
	// `samples:`. Each (case, sample) takes a slot while a run waits for
	// lines in the order of the cases, so memory grows with cases times
	// samples; pass@k is estimated well from far fewer samples than this.
	if samples < 0 || samples > suite.MaxSamples {
		return fmt.Errorf("samples per case must be from 1 to %d, or 0 for none; got %d", suite.MaxSamples, samples)
	}
	return nil
}

// workers is the number of goroutines a run scores on.
func (o *RunOptions) workers() int {
	if o.Workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Workers
}

// maxLineBytes is the longest line a run reads.
func (o *RunOptions) maxLineBytes() int {
	if o.MaxLineBytes <= 0 {
		return defaultMaxLineBytes
	}
	return o.MaxLineBytes
}

// pipeline is the reading and scoring half of a Run: a reader splits the
// stream into batches, workers score them, and the scored batches come
// out of done in the order the workers finish them (resultWriter puts
// them back in order).
type pipeline struct {
	st   *runState
	bufs *buffers
	todo chan batch
	done chan done
	sums []results.Summary // a tally per worker
	// longSlot is held by the batch of the one line longer than the
	// reader's buffer in flight: it is read only once the batch of the
	// one before is scored, so that the lines in flight (queued for the
	// workers, being scored) hold one long line at most, not one for each.
	longSlot chan struct{}
	// A line that stops the run stops the reading only: the batches read
	// before it are still scored, so that the run stops at the first such
	// line in the file, whichever worker found which first (see
	// runState.see), and later batches are passed over.
	stopReading context.CancelFunc
	stopAt      atomic.Int64 // the line of the first error found so far; 0 for none
	readErr     error        // set once readDone is closed
	readDone    chan struct{}
}

// startRun starts the reader and the workers of a run of r; both stop
// when ctx is done, and the workers close p.done when the reader is done
// and every batch it read is scored.
func (e *Engine) startRun(ctx context.Context, r io.Reader, opts RunOptions) *pipeline {
	workers := opts.workers()
	p := &pipeline{
		st:       newRunState(len(e.cases), opts.Samples, opts.Name),
		bufs:     newBuffers(workers*4 + 4),
		todo:     make(chan batch, workers*2),
		done:     make(chan done, workers*2),
		sums:     make([]results.Summary, workers),
		longSlot: make(chan struct{}, 1),
		readDone: make(chan struct{}),
	}
	p.st.onResponse = opts.OnResponse
	readCtx, stopReading := context.WithCancel(ctx)
	p.stopReading = stopReading
	go p.read(readCtx, r, opts.maxLineBytes())
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.work(ctx, p, &p.sums[k])
		}()
	}
	go func() { wg.Wait(); close(p.done) }()
	return p
}

// read hands the batches of r to the workers until r ends or ctx is done.
func (p *pipeline) read(ctx context.Context, r io.Reader, maxLine int) {
	defer close(p.readDone)
	defer close(p.todo)
	p.readErr = readBatches(ctx, r, func(b batch) bool {
		select {
		case p.todo <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}, p.bufs, maxLine, p.longSlot, false)
}

// release frees the long-line slot that b holds, if it holds it.
func (p *pipeline) release(b batch) {
	if b.long {
		<-p.longSlot
	}
}

// work is one worker of a run: it scores the batches it takes, tallying
// them into sum, until the reader is done or ctx is.
func (e *Engine) work(ctx context.Context, p *pipeline, sum *results.Summary) {
	sc := e.newScorer()
	score := func(b batch) done { return e.scoreBatch(b, sc, p.st, sum, p.bufs) }
	if e.blocking {
		score = func(b batch) done { return e.scoreBatchAtOnce(b, p.st, sum, p.bufs) }
	}
	for b := range p.todo {
		if at := p.stopAt.Load(); at > 0 && int64(b.first) > at {
			putBuf(p.bufs.lines, b.data) // wholly after the error: no earlier one in it
			p.release(b)
			continue
		}
		d := score(b)
		p.release(b)
		select {
		case p.done <- d:
		case <-ctx.Done():
			return
		}
	}
}

// resultWriter writes the results of a run in the order of its slots
// (see runState), whatever the order the batches are scored in, and keeps
// the results of lines that name no case for the end.
type resultWriter struct {
	bw    *bufio.Writer
	bufs  *buffers
	slots []slotResult // one per case and sample
	next  int          // the first slot not written yet
	later laterLines
	tmp   []byte // a batch's later lines
}

// slotResult is a result waiting for every earlier slot's to be written.
type slotResult struct {
	out []byte
	buf *outBuf // what out is in, recycled once all its results are written
}

func newResultWriter(w io.Writer, slots int, bufs *buffers) *resultWriter {
	return &resultWriter{bw: bufio.NewWriterSize(w, 1<<20), bufs: bufs, slots: make([]slotResult, slots)}
}

// collect takes the scored batches until the workers are done, writing
// each result as soon as every earlier slot's is written. It returns the
// error of the first line in the file that stops the run, if any: once
// one is found the reading stops, and no more results are written.
func (rw *resultWriter) collect(p *pipeline) *results.InputError {
	var firstErr *results.InputError
	for d := range p.done {
		if d.err != nil {
			if firstErr == nil || d.err.Line < firstErr.Line {
				firstErr = d.err
				p.stopAt.Store(int64(firstErr.Line))
			}
			p.stopReading()
			continue
		}
		if firstErr != nil {
			continue
		}
		rw.place(d)
		rw.writeReady()
	}
	return firstErr
}

// place puts the results of a scored batch in their slots, and those of
// lines that name no case with the later lines.
func (rw *resultWriter) place(d done) {
	ob := &outBuf{b: d.out}
	start, firstLater, nLater := 0, 0, 0
	rw.tmp = rw.tmp[:0]
	for j, c := range d.cases {
		out := d.out[start:d.ends[j]]
		start = d.ends[j]
		switch {
		case c >= 0:
			rw.slots[c] = slotResult{out, ob}
			ob.pending++
		case c == -1:
			if nLater == 0 {
				firstLater = d.lines[j]
			}
			nLater++
			rw.tmp = append(rw.tmp, out...)
		}
	}
	if nLater > 0 {
		rw.later.add(firstLater, nLater, rw.tmp)
	}
	if ob.pending == 0 {
		putBuf(rw.bufs.outs, d.out)
	}
}

// writeReady writes the results of the slots from the next one on, up to
// the first that has none yet.
func (rw *resultWriter) writeReady() {
	slots, next := rw.slots, rw.next
	for next < len(slots) && slots[next].out != nil {
		rw.bw.Write(slots[next].out)
		if ob := slots[next].buf; ob.pending == 1 {
			putBuf(rw.bufs.outs, ob.b)
		} else {
			ob.pending--
		}
		slots[next] = slotResult{}
		next++
	}
	rw.next = next
}

// finish writes the rest of a run that read its whole stream: the slots
// left, a missing_response line for each slot no line came for, then the
// lines that name no case; and returns the run's Summary.
func (rw *resultWriter) finish(e *Engine, p *pipeline, opts RunOptions, ks []int) (*results.Summary, error) {
	var sum results.Summary
	for k := range p.sums {
		mergeSummary(&sum, &p.sums[k])
	}
	var res results.Result
	var buf []byte
	for ; rw.next < len(rw.slots); rw.next++ {
		if rw.slots[rw.next].out == nil {
			p.st.missingResponse(e, &res, rw.next)
			sum.Add(&res)
			buf = append(res.AppendJSON(buf[:0]), '\n')
			rw.bw.Write(buf)
			continue
		}
		rw.bw.Write(rw.slots[rw.next].out)
	}
	if err := rw.later.writeTo(rw.bw); err != nil {
		return nil, fmt.Errorf("writing results: %w", err)
	}
	sum.Unknown = rw.later.lines
	if err := rw.bw.Flush(); err != nil {
		return nil, fmt.Errorf("writing results: %w", err)
	}
	if opts.Samples > 0 {
		p.st.summarize(e, &sum, ks)
	}
	return &sum, nil
}

// errStopped is what reading a batch returns when its context is done:
// the reading stops without an error.
var errStopped = errors.New("stopped")

// readBatches splits the stream into batches of whole lines, read with
// results.ResponseReader within maxLine bytes a line, and hands each to
// send, which returns false to stop. The lines longer than the reader's
// buffer are read one at a time, each when the batch of the one before
// has freed slot. With eager (a partial run, whose input may be a pipe
// that a worker keeps open), a batch also ends when the next read could
// block, so that the lines already read are scored and answered before
// waiting for more.
func readBatches(ctx context.Context, r io.Reader, send func(batch) bool, bufs *buffers, maxLine int, slot chan struct{}, eager bool) error {
	text, err := results.ResponseText(r)
	if err != nil {
		return err
	}
	rr := results.NewResponseReader(text, maxLine, cutHeadBytes)
	rd := &batchReader{rr: rr, bufs: bufs, max: maxLine, eager: eager, line: 1}
	for {
		b := batch{first: rd.line}
		rr.Long = func() error { return rd.takeSlot(ctx, &b, slot) }
		err := rd.fill(ctx, &b)
		switch {
		case err == io.EOF:
			if len(b.ends) > 0 {
				send(b)
			}
			return nil
		case err == errStopped:
			return nil // cancelled: stop reading now, not at the batch's end
		case err != nil:
			return err
		case len(b.ends) == 0:
			putBuf(bufs.lines, b.data)
			continue
		}
		if !send(b) {
			return nil
		}
	}
}

// batchReader reads the lines of a stream into batches.
type batchReader struct {
	rr    *results.ResponseReader
	bufs  *buffers
	max   int  // RunOptions.MaxLineBytes
	eager bool // see readBatches
	line  int  // the number of the next line
}

// takeSlot has b hold the run's long-line slot, unless it holds it
// already: the lines in flight (queued for the workers, being scored)
// then hold one line longer than the reader's buffer at most, not one
// for each.
func (rd *batchReader) takeSlot(ctx context.Context, b *batch, slot chan struct{}) error {
	if b.long {
		return nil
	}
	select {
	case slot <- struct{}{}:
	case <-ctx.Done():
		return errStopped
	}
	b.long = true
	return nil
}

// fill reads lines into b until it holds batchBytes or, when rd is eager,
// the next read could block. It returns io.EOF at the end of the stream,
// with b holding the last lines, and errStopped once ctx is done.
func (rd *batchReader) fill(ctx context.Context, b *batch) error {
	for len(b.data) < batchBytes {
		if ctx.Err() != nil {
			return errStopped
		}
		if b.data == nil {
			b.data = getBuf(rd.bufs.lines, batchBytes+4096)
		}
		if err := rd.readLine(b); err != nil {
			return err
		}
		if rd.eager && len(b.ends) > 0 && rd.rr.Buffered() == 0 {
			return nil // the next read may wait: score what there is first
		}
	}
	return nil
}

// readLine reads one line into b, with a newline, or, at the end of the
// stream, none. Its error is the read's, io.EOF at the end.
func (rd *batchReader) readLine(b *batch) error {
	old := b.data
	data, ok, cut, err := rd.rr.ReadLine(b.data)
	if unsafe.SliceData(data) != unsafe.SliceData(old) {
		putBuf(rd.bufs.lines, old) // outgrown by a long line
	}
	b.data = data
	if ok {
		if cut > 0 {
			b.cutLine(cutLine{n: cut, limit: rd.max})
		}
		b.data = append(b.data, '\n')
		b.ends = append(b.ends, len(b.data))
		rd.line++
	}
	return err
}

// scoreBatch scores every line of b.
func (e *Engine) scoreBatch(b batch, sc *Scorer, st *runState, sum *results.Summary, bufs *buffers) done {
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
func (e *Engine) runLine(text string, line, guess int, cut *cutLine, sc *Scorer, st *runState) (int, *results.InputError) {
	res := &sc.res
	i, k, err := e.scoreSampleLine(res, text, line, guess, st.samples, cut, &sc.w, st.onResponse)
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
func (e *Engine) scoreBatchAtOnce(b batch, st *runState, sum *results.Summary, bufs *buffers) done {
	defer putBuf(bufs.lines, b.data)
	data := unsafe.String(unsafe.SliceData(b.data), len(b.data))
	type scored struct {
		c   int
		out []byte
		err *results.InputError
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
			sc := e.newScorer()
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
