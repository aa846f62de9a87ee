package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/callgrade/callgrade/internal/runlines"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/value"
)

// Shard is the output of one partial run (RunPartial), or of several
// concatenated in the order of their input, for Merge.
type Shard struct {
	Name string // for messages
	R    io.ReaderAt
	Size int64
}

// slotLoc is where Merge found a result: in which shard, at which offset,
// on which of its lines.
type slotLoc struct {
	off    int64 // of the result in its shard
	size   int32 // of the result; 0 while a slot has none
	shard  int32
	n      int32 // the line's number in its shard
	at     int32 // the offset in the result of the line number to replace; -1 for none
	local  int32 // with at, the number written there: the line's in its partial run
	global int32 // with at, the number to write: the line's in the whole responses
}

// Merge reads the partial lines of shards (see RunPartial), in the order
// the shards are given, which is that of the responses they were scored
// from, and writes to w the results file that Run writes for all those
// responses at once, byte for byte: a line per case (per case and sample
// with opts.Samples) in the order of the cases, a missing_response line for
// those no shard has a line for, then the unknown_case lines in the order
// of the shards. Its results.Summary is Run's too.
//
// A line's number in the whole responses is its number in the
// concatenation of the shards: a partial run writes a line for every line
// it reads, blank ones too. Messages that name a line ("response line 7 is
// not valid JSON") name it so.
//
// Two lines for one case (one case and sample), in one shard or in two,
// stop the merge with a *results.InputError naming the case and both places, as
// Run does for a second line in one file. So do a line that is no partial
// line, one whose "sample" does not fit opts.Samples, and one scored
// against another suite (a known id reported unknown, or the reverse).
// Merge reads every shard before it writes anything, so w is untouched on
// such an error.
func (e *Engine) Merge(ctx context.Context, shards []Shard, w io.Writer, opts RunOptions) (*results.Summary, error) {
	opts.Samples = e.samplesOf(opts.Samples)
	ks, err := checkRunOptions(opts)
	if err != nil {
		return nil, err
	}
	st := newRunState(len(e.cases), opts.Samples, "")
	m := &merger{e: e, shards: shards, samples: opts.Samples, st: st, slots: make([]slotLoc, len(st.seen))}
	for si := range shards {
		if err := m.readShard(ctx, si); err != nil {
			return nil, err
		}
	}
	if err := m.writeTo(ctx, w); err != nil {
		return nil, err
	}
	if opts.Samples > 0 {
		st.summarize(e, &m.sum, ks)
	}
	return &m.sum, nil
}

// merger is a Merge under way: where each slot's result is, which the
// shards hold, and the tally of those read so far.
type merger struct {
	e       *Engine
	shards  []Shard
	samples int // RunOptions.Samples
	st      *runState
	slots   []slotLoc // per slot (see runState)
	unknown []slotLoc // the unknown_case lines, in order
	sum     results.Summary
	res     results.Result // the line being read
	rr      resultReader
	global  int    // the number of lines read, of every shard so far
	buf     []byte // the line being written
}

// readShard reads the partial lines of shard si, noting where each result
// is and tallying it.
func (m *merger) readShard(ctx context.Context, si int) error {
	sh := m.shards[si]
	br := bufio.NewReaderSize(io.NewSectionReader(sh.R, 0, sh.Size), 1<<20)
	var off int64
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		text, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			head := slices.Clone(text)
			rest, err2 := br.ReadBytes('\n')
			text, err = append(head, rest...), err2
		}
		if err != nil && err != io.EOF {
			return &results.InputError{File: sh.Name, Line: n, Msg: "cannot read partial results", Err: err}
		}
		if len(text) == 0 {
			return nil
		}
		lineOff := off
		off += int64(len(text))
		m.global++
		if err := m.readLine(si, n, lineOff, text); err != nil {
			return err
		}
	}
}

// readLine reads line n of shard si, at offset off in the shard.
func (m *merger) readLine(si, n int, off int64, text []byte) error {
	bad := func(msg string, a ...any) error {
		return &results.InputError{File: m.shards[si].Name, Line: n, Msg: fmt.Sprintf(msg, a...)}
	}
	p, perr := parsePartial(bytes.TrimSuffix(bytes.TrimSuffix(text, []byte("\n")), []byte("\r")))
	if perr != nil {
		return bad("%v", perr)
	}
	if p.result == nil {
		return nil // a blank line
	}
	if err := m.rr.read(&m.res, p.result, m.e); err != nil {
		return bad("not a result line: %v", err)
	}
	loc := slotLoc{off: off + int64(p.resultAt), size: int32(len(p.result)), shard: int32(si), n: int32(n), at: -1}
	if p.at >= 0 {
		digits := strconv.Itoa(p.line)
		if p.at+len(digits) > len(p.result) || string(p.result[p.at:p.at+len(digits)]) != digits {
			return bad(`"at" %d does not hold the line's number %d`, p.at, p.line)
		}
		loc.at, loc.local, loc.global = int32(p.at), int32(p.line), int32(m.global)
	}
	if msg := sampleMismatch(&m.res, m.samples); msg != "" {
		return bad("%s", msg)
	}
	return m.place(loc, bad)
}

// place records loc as the place of the result just read, m.res, and
// tallies it; bad makes the error about its line.
func (m *merger) place(loc slotLoc, bad func(string, ...any) error) error {
	res := &m.res
	i, known := m.e.Lookup(res.ID)
	isUnknown := len(res.Diffs) == 1 && res.Diffs[0].Kind == results.UnknownCase && len(res.Calls) == 0
	switch {
	case !known && isUnknown:
		m.sum.Unknown++
		m.unknown = append(m.unknown, loc)
		return nil
	case !known:
		return bad("case %q is not in the suite, but the line scores it: was it scored against another suite?", res.ID)
	case isUnknown:
		return bad("case %q is in the suite, but the line says it names no case: was it scored against another suite?", res.ID)
	}
	slot := i*m.st.per + res.Sample
	if prev := m.slots[slot]; prev.size > 0 {
		where := fmt.Sprintf("%s:%d and %s:%d", m.shards[prev.shard].Name, prev.n, m.shards[loc.shard].Name, loc.n)
		return bad("%s", runlines.SecondResponse(res.ID, res.Sample, m.samples, where, false))
	}
	m.slots[slot] = loc
	c := &m.e.cases[i]
	res.Tool, res.StepTools = c.tool(), c.stepTools()
	m.sum.Add(res)
	if m.st.passed != nil && res.Pass {
		m.st.passed[i].Add(1)
	}
	return nil
}

// writeTo writes the results file: a line per slot, a missing_response
// one where no shard had one, then the unknown_case lines.
func (m *merger) writeTo(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for slot := range m.slots {
		if slot%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if m.slots[slot].size == 0 {
			m.st.missingResponse(m.e, &m.res, slot)
			m.sum.Add(&m.res)
			m.buf = append(m.res.AppendJSON(m.buf[:0]), '\n')
			bw.Write(m.buf)
			continue
		}
		if err := m.writeLine(bw, m.slots[slot]); err != nil {
			return err
		}
	}
	for _, loc := range m.unknown {
		if err := m.writeLine(bw, loc); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// writeLine writes the result at loc, with its line's number in the whole
// responses where its partial run wrote its own.
func (m *merger) writeLine(bw *bufio.Writer, loc slotLoc) error {
	buf := slices.Grow(m.buf[:0], int(loc.size)+16)[:loc.size]
	if _, err := m.shards[loc.shard].R.ReadAt(buf, loc.off); err != nil {
		return &results.InputError{File: m.shards[loc.shard].Name, Line: int(loc.n), Msg: "cannot read partial results", Err: err}
	}
	if loc.at >= 0 {
		old := len(strconv.Itoa(int(loc.local)))
		tail := slices.Clone(buf[int(loc.at)+old:])
		buf = append(strconv.AppendInt(buf[:loc.at], int64(loc.global), 10), tail...)
	}
	m.buf = buf
	bw.Write(buf)
	return bw.WriteByte('\n')
}

// sampleMismatch says what is wrong with the sample of a result line in a
// merge with samples samples per case, "" when nothing is.
func sampleMismatch(r *results.Result, samples int) string {
	switch {
	case samples == 0 && r.Sampled:
		return `the line carries "sample": it was scored with samples; merge with the same samples (samples: in the suite, or --samples)`
	case samples > 0 && !r.Sampled:
		return fmt.Sprintf(`the line has no "sample": it was scored without samples, and the merge has %d per case`, samples)
	case samples > 0 && r.Sample >= samples:
		return fmt.Sprintf(`"sample" %d is out of range: the merge has %d samples per case`, r.Sample, samples)
	}
	return ""
}

// partialLine is a parsed partial line (see partialPrefix).
type partial struct {
	line     int
	at       int    // -1 for none
	result   []byte // nil for a blank line
	resultAt int    // the offset of result in the line
}

// parsePartial reads a partial line, strictly in the shape RunPartial
// writes.
func parsePartial(text []byte) (partial, error) {
	p := partial{at: -1}
	rest, ok := bytes.CutPrefix(text, []byte(partialPrefix))
	if !ok {
		hint := ""
		if bytes.HasPrefix(text, []byte(`{"id":`)) {
			hint = " (a results file of callgrade score, or a responses file? merge reads what score --partial writes)"
		}
		return p, fmt.Errorf("not a partial result line%s", hint)
	}
	num := func() (int, bool) {
		k := 0
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		v, err := strconv.Atoi(string(rest[:k]))
		rest = rest[k:]
		return v, err == nil && v >= 0 && v <= 1<<31-1
	}
	var good bool
	if p.line, good = num(); !good {
		return p, errors.New(`not a partial result line: "line" is not a line number`)
	}
	if bytes.Equal(rest, []byte("}")) {
		return p, nil
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`,"at":`)); ok {
		rest = r
		if p.at, good = num(); !good {
			return p, errors.New(`not a partial result line: "at" is not an offset`)
		}
	}
	r, ok := bytes.CutPrefix(rest, []byte(`,"result":`))
	if !ok || !bytes.HasSuffix(r, []byte("}}")) {
		return p, errors.New("not a partial result line: no \"result\"")
	}
	p.result = r[:len(r)-1]
	p.resultAt = len(text) - len(r)
	return p, nil
}

// resultReader reads what a summary counts of a results line: its id,
// sample, verdict, score, the kinds of its diffs, and its calls for a case
// written with steps (StepVerdicts). It reuses its parser's memory from
// one line to the next; a line it cannot read is read again by
// results.Result.UnmarshalJSON, for the message.
type resultReader struct {
	p value.Parser
}

func (rr *resultReader) read(r *results.Result, b []byte, e *Engine) error {
	rr.p.Reset()
	doc, err := rr.p.Parse(string(b), value.Limits{MaxBytes: len(b) + 1, MaxDepth: runlines.MaxResultDepth})
	ok := err == nil && doc.Kind() == value.Object
	get := func(name string, k value.Kind) value.Value {
		if !ok {
			return value.Value{}
		}
		v, found := doc.Get(name)
		ok = found && v.Kind() == k
		return v
	}
	id, pass, score := get("id", value.String), get("pass", value.Bool), get("score", value.Number)
	calls, diffs := get("calls", value.Array), get("diffs", value.Array)
	var f float64
	if ok {
		f, err = strconv.ParseFloat(score.Str(), 64)
		ok = err == nil
	}
	sample, sampled := 0, false
	if v, found := doc.Get("sample"); ok && found {
		sampled = true
		sample, err = strconv.Atoi(v.Str())
		ok = v.Kind() == value.Number && err == nil && sample >= 0
	}
	if !ok {
		return r.UnmarshalJSON(b) // for its message; a line it reads is read
	}
	*r = results.Result{ID: id.Str(), Pass: pass.Bool(), Score: f, Sample: sample, Sampled: sampled, Calls: r.Calls[:0], Diffs: r.Diffs[:0]}
	for _, d := range diffs.Elems() {
		k, _ := d.Get("kind")
		if k.Kind() != value.String {
			return r.UnmarshalJSON(b)
		}
		r.Diffs = append(r.Diffs, results.Diff{Kind: results.Kind(k.Str()), Call: -1})
	}
	if i, known := e.Lookup(r.ID); known && e.cases[i].run != nil && e.cases[i].run.steps {
		// Only a steps case's summary reads its calls.
		var full results.Result
		if err := full.UnmarshalJSON(b); err != nil {
			return err
		}
		r.Calls = append(r.Calls, full.Calls...)
	} else {
		for range calls.Elems() {
			r.Calls = append(r.Calls, results.CallResult{})
		}
	}
	return nil
}
