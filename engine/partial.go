package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/results"
)

// A partial run (RunPartial) writes one partial line per line it reads, in
// the order it reads them, and Merge puts the lines of many partial runs
// back together into the results file one Run over all their lines writes.
// A partial line is one of
//
//	{"partial":1,"line":L,"result":R}
//	{"partial":1,"line":L,"at":N,"result":R}
//	{"partial":1,"line":L}
//
// where L is the line's number in the partial run's input, R the result
// line Run would write for it (an unknown_case one for an id that names no
// case), and N, when R's message names the line ("response line L is not
// valid JSON"), the byte offset in R of L's digits, which Merge replaces
// with the line's number in the whole responses. The third form is a blank
// line, which has no result but counts as a line. "partial" is the
// version of the format.
const partialPrefix = `{"partial":1,"line":`

// RunPartial scores a responses stream as Run does, but for a part of the
// responses only: it writes one partial line per line of r (a blank line
// too), in the order of r, and fills in nothing for the cases r has no
// line for. The lines of one or more partial runs over the parts of a
// responses file, read by Merge in the order of the file, give exactly the
// results file Run gives for the whole.
//
// What Run refuses, RunPartial refuses too, with the same *InputError: a
// line that is not a JSON object with an id, a second line for one case
// (or case and sample) within r, a line without a valid "sample" in a run
// with samples. Two lines for one case in different parts are Merge's to
// find. w may then hold part of the lines.
//
// RunPartial never waits for input to write the results of the lines it
// has: a batch is scored as soon as reading more would block, and w is
// flushed after each batch, so that a process that writes a line into a
// pipe and waits for its result gets it. For the same reason, a run that
// stops early (a *results.InputError, ctx cancelled) returns without waiting for
// a read of r that blocks: the goroutine reading r ends at that read's
// return.
func (e *Engine) RunPartial(ctx context.Context, r io.Reader, w io.Writer, opts RunOptions) error {
	opts.Samples = e.samplesOf(opts.Samples)
	if err := checkSamples(opts.Samples); err != nil {
		return err
	}
	workers := opts.workers()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := &partialRun{
		st:       newRunState(len(e.cases), opts.Samples, opts.Name),
		bufs:     newBuffers(workers*4 + 4),
		longSlot: make(chan struct{}, 1), // one line past the buffer in flight, as in Run
		todo:     make(chan partialJob, workers*2),
		order:    make(chan chan done, workers*4),
		readDone: make(chan struct{}),
	}
	p.st.onResponse = opts.OnResponse
	go p.read(ctx, r, opts.maxLineBytes())
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.partialWork(p)
		}()
	}
	if err := p.write(ctx, w, opts.Name); err != nil {
		return err
	}
	<-p.readDone
	wg.Wait()
	if p.readErr != nil {
		return &results.InputError{File: opts.Name, Msg: "cannot read responses", Err: p.readErr}
	}
	return ctx.Err()
}

// partialRun is what the reader, the workers and the writer of a partial
// run share. Each batch has a channel of its own for its result, sent in
// order to the writer, so that batches are written in the order they
// were read whichever worker finishes first.
type partialRun struct {
	st       *runState
	bufs     *buffers
	longSlot chan struct{}
	todo     chan partialJob
	order    chan chan done
	readErr  error // set once readDone is closed
	readDone chan struct{}
}

// partialJob is a batch to score and the channel for its result.
type partialJob struct {
	b   batch
	out chan done
}

// read hands the batches of r to the workers, and their channels to the
// writer, until r ends or ctx is done.
func (p *partialRun) read(ctx context.Context, r io.Reader, maxLine int) {
	defer close(p.readDone)
	defer close(p.todo)
	defer close(p.order)
	p.readErr = readBatches(ctx, r, func(b batch) bool {
		j := partialJob{b: b, out: make(chan done, 1)}
		select {
		case p.order <- j.out:
		case <-ctx.Done():
			return false
		}
		select {
		case p.todo <- j:
			return true
		case <-ctx.Done():
			return false
		}
	}, p.bufs, maxLine, p.longSlot, true)
}

// partialWork is one worker of a partial run.
func (e *Engine) partialWork(p *partialRun) {
	sc := e.newScorer()
	for j := range p.todo {
		long := j.b.long
		j.out <- e.partialBatch(j.b, sc, p.st, p.bufs)
		if long {
			<-p.longSlot
		}
	}
}

// write writes the scored batches in the order they were read, flushing
// after each, until the reader is done, a line stops the run or ctx is
// done.
func (p *partialRun) write(ctx context.Context, w io.Writer, name string) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	for ch := range p.order {
		var d done
		select {
		case d = <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		if d.err != nil {
			d.err.File = name
			return d.err
		}
		if _, err := bw.Write(d.out); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
		putBuf(p.bufs.outs, d.out)
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	return nil
}

// partialBatch scores every line of b into partial lines, in order; the
// first line that stops the run ends the batch with its error.
func (e *Engine) partialBatch(b batch, sc *Scorer, st *runState, bufs *buffers) done {
	defer putBuf(bufs.lines, b.data)
	data := unsafe.String(unsafe.SliceData(b.data), len(b.data))
	d := done{out: getBuf(bufs.outs, 2*batchBytes)}
	lines := make([]string, len(b.ends))
	start := 0
	for j, end := range b.ends {
		lines[j] = data[start : end-1]
		start = end
	}
	if e.blocking {
		// Comparators that wait on I/O see the batch's lines at once.
		outs := make([][]byte, len(lines))
		errs := make([]*results.InputError, len(lines))
		var wg sync.WaitGroup
		slots := make(chan struct{}, linesAtOnce)
		for j, text := range lines {
			wg.Add(1)
			slots <- struct{}{}
			go func() {
				defer func() { <-slots; wg.Done() }()
				outs[j], errs[j] = e.partialLine(nil, text, b.first+j, b.cutAt(j), e.newScorer(), st)
			}()
		}
		wg.Wait()
		for j := range lines {
			if errs[j] != nil {
				d.err = errs[j]
				return d
			}
			d.out = append(d.out, outs[j]...)
		}
		return d
	}
	for j, text := range lines {
		var err *results.InputError
		d.out, err = e.partialLine(d.out, text, b.first+j, b.cutAt(j), sc, st)
		if err != nil {
			d.err = err
			return d
		}
	}
	return d
}

// partialLine appends the partial line of one line of the input to dst.
func (e *Engine) partialLine(dst []byte, text string, line int, cut *cutLine, sc *Scorer, st *runState) ([]byte, *results.InputError) {
	dst = append(dst, partialPrefix...)
	dst = strconv.AppendInt(dst, int64(line), 10)
	if strings.TrimSpace(text) == "" {
		return append(dst, "}\n"...), nil
	}
	c, err := e.runLine(text, line, -1, cut, sc, st)
	sc.w.parser.Reset()
	if err != nil {
		return dst, err
	}
	res := &sc.res
	lineText := strconv.Itoa(line)
	at := -1
	if c >= 0 && len(res.Diffs) == 1 && res.Diffs[0].Call == -1 && strings.HasPrefix(res.Diffs[0].Message, "response line "+lineText+" ") {
		// The message is the last member of the result's last diff:
		// R ends with its quoted text and `}]}`.
		quoted := len(jsontext.AppendQuote(nil, res.Diffs[0].Message))
		at = len(res.AppendJSON(nil)) - len(`}]}`) - quoted + 1 + len("response line ")
	}
	if at >= 0 {
		dst = append(dst, `,"at":`...)
		dst = strconv.AppendInt(dst, int64(at), 10)
	}
	dst = append(dst, `,"result":`...)
	dst = res.AppendJSON(dst)
	return append(dst, "}\n"...), nil
}
