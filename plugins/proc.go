package plugins

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-hclog"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins/internal/pluginpb"
	"github.com/callgrade/callgrade/results"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// proc is one declared plugin: its process (restarted after a crash), its
// comparators and the queue of comparisons waiting to be batched.
type proc struct {
	h    *Host
	name string
	decl suite.Plugin
	path string // the resolved executable, or its private copy (copyDir)
	sum  []byte // the sha256 the suite asks for, or nil
	// copyDir holds the private copy of the executable that a sha256
	// check hashed and every start runs (privateCopy); "" without one.
	copyDir string
	timeout time.Duration
	log     hclog.Logger

	comps map[string]*compInfo // from Describe, fixed after the first start
	order []string

	queue   chan *call
	quit    chan struct{} // closed by close: stop dispatching
	stopped chan struct{} // closed when dispatch has returned
	sem     chan struct{} // batches in flight
	// iso is held shared by each batch in flight, and alone while the
	// calls of a batch that broke are sent again one by one (compare).
	iso sync.RWMutex

	mu       sync.Mutex
	client   *process
	rpc      pluginpb.ComparatorsClient
	gen      int           // increases with each restart
	ready    chan struct{} // closed when a restart has finished; nil when none is under way
	restarts []time.Time   // of the last RestartWindow
	dead     error         // the reason comparisons fail at once; nil while usable
	// retry is when a plugin given up on is tried again: when the first
	// of the restarts it was given up for leaves RestartWindow. Zero: never
	// (the host closed, or MaxRestarts is 0).
	retry time.Time
}

type compInfo struct {
	doc, schemaText string
	schema          *jsonschema.Schema // nil: any object
}

// call is one Compare waiting for its result.
type call struct {
	item *pluginpb.CompareItem
	size int
	ctx  context.Context // the caller's (rules.Input.Ctx); never nil
	done chan struct{}
	set  atomic.Bool
	out  rules.Outcome
}

// finish records the outcome unless one was recorded already.
func (c *call) finish(o rules.Outcome) {
	if c.set.CompareAndSwap(false, true) {
		c.out = o
		close(c.done)
	}
}

// pluginErr is the outcome of a comparison the plugin could not answer.
func pluginErr(format string, args ...any) rules.Outcome {
	return rules.Outcome{Err: fmt.Errorf(format, args...), ErrKind: results.PluginError}
}

// codedErr is pluginErr with the error code c (callgrade.Code).
func codedErr(c errcode.Code, format string, args ...any) rules.Outcome {
	o := pluginErr(format, args...)
	o.Err = errcode.Wrap(c, o.Err)
	return o
}

// do queues one comparison and waits for its outcome, until ctx is done:
// the comparison then fails at once, is not sent if it has not been, and
// the batch it went in is cancelled once all of its comparisons are.
func (p *proc) do(ctx context.Context, item *pluginpb.CompareItem) rules.Outcome {
	if ctx == nil {
		ctx = context.Background()
	}
	c := &call{item: item, size: proto.Size(item), ctx: ctx, done: make(chan struct{})}
	if c.size+16 > p.h.opts.maxBatchBytes {
		return pluginErr("plugin %s: comparison of %d bytes exceeds the %d-byte message limit", p.name, c.size, p.h.opts.maxBatchBytes)
	}
	cancelled := func() rules.Outcome {
		c.finish(pluginErr("plugin %s: %s: the comparison was cancelled: %v", p.name, item.Comparator, context.Cause(ctx)))
		<-c.done // whoever finished c first has set its outcome
		return c.out
	}
	if ctx.Err() != nil {
		return cancelled()
	}
	select {
	case p.queue <- c:
	case <-p.quit:
		return codedErr(errcode.PluginUnavailable, "plugin %s: host closed", p.name)
	case <-ctx.Done():
		return cancelled()
	}
	select {
	case <-c.done:
	case <-ctx.Done():
		return cancelled()
	case <-p.stopped:
		// Dispatching ended; c may have been sent (and will finish) or
		// left in the queue (and would not).
		select {
		case <-c.done:
		case <-time.After(p.timeout + time.Second):
			c.finish(codedErr(errcode.PluginUnavailable, "plugin %s: host closed", p.name))
		}
	}
	return c.out
}

// dispatch gathers queued calls into batches until close.
func (p *proc) dispatch() {
	defer close(p.stopped)
	max, maxBytes := p.h.opts.maxBatch, p.h.opts.maxBatchBytes
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		var first *call
		select {
		case first = <-p.queue:
		case <-p.quit:
			p.drain()
			return
		}
		if first.set.Load() {
			continue // cancelled while queued: not sent
		}
		batch, size := []*call{first}, first.size+16
		timer.Reset(p.h.opts.linger)
	gather:
		for len(batch) < max {
			select {
			case c := <-p.queue:
				if c.set.Load() {
					continue
				}
				if size+c.size+16 > maxBytes {
					p.send(batch)
					batch, size = nil, 0
				}
				batch = append(batch, c)
				size += c.size + 16
			case <-timer.C:
				break gather
			case <-p.quit:
				break gather
			}
		}
		timer.Stop()
		p.send(batch)
	}
}

// drain fails the calls left in the queue at close.
func (p *proc) drain() {
	for {
		select {
		case c := <-p.queue:
			c.finish(codedErr(errcode.PluginUnavailable, "plugin %s: host closed", p.name))
		default:
			return
		}
	}
}

// send sends a batch on its own goroutine, at most maxInFlight at once.
func (p *proc) send(batch []*call) {
	p.sem <- struct{}{}
	go func() {
		defer func() { <-p.sem }()
		p.compare(batch)
	}()
}

// compare sends one batch and hands each call its outcome. When a batch
// breaks (the plugin crashes, or hangs past the timeout, on it or on
// another batch in flight with it), its calls are sent again one by one
// to the restarted process: only a call that brings it down again fails,
// and the others get their answers, so that one bad value does not fail
// the comparisons that happened to be sent with it, and a verdict does
// not depend on how the calls were batched. The first such call's restart
// is not counted against MaxRestarts (the batch's was), so that isolating
// a crash costs a run no more of its restarts than the crash did; any
// further one is.
//
// Calls are sent one by one with nothing else in flight (iso), so that a
// call that breaks the plugin then is the one that breaks it.
func (p *proc) compare(batch []*call) {
	p.iso.RLock()
	_, broke := p.attempt(batch, true)
	p.iso.RUnlock()
	if !broke {
		return
	}
	p.iso.Lock()
	defer p.iso.Unlock()
	counted := false
	for _, c := range batch {
		if o, broke := p.attempt([]*call{c}, counted); broke {
			c.finish(o)
			counted = true
		}
	}
}

// attempt sends one batch and hands each call its outcome, unless the
// plugin crashed or hung on it: then the process is restarted (counted
// against MaxRestarts or not) and attempt reports broke with the outcome
// the calls would have, leaving them unfinished.
func (p *proc) attempt(batch []*call, counted bool) (_ rules.Outcome, broke bool) {
	fail := func(o rules.Outcome) {
		for _, c := range batch {
			c.finish(o)
		}
	}
	rpc, client, gen, err := p.current()
	if err != nil {
		fail(rules.Outcome{Err: err, ErrKind: results.PluginError})
		return rules.Outcome{}, false
	}
	req := &pluginpb.CompareBatchRequest{Items: make([]*pluginpb.CompareItem, len(batch))}
	for i, c := range batch {
		req.Items[i] = c.item
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	stop := cancelWithCalls(batch, cancel)
	resp, err := rpc.CompareBatch(ctx, req)
	timedOut := ctx.Err() == context.DeadlineExceeded
	cancel()
	stop()
	if err != nil && !timedOut && allDone(batch) {
		// Cancelled by its callers, each of whom has its outcome: the
		// plugin neither crashed nor hung.
		return rules.Outcome{}, false
	}
	if err != nil {
		// The restart begins before the callers hear of the failure, so
		// that a call they make next waits for the new process instead of
		// going to the dead one.
		switch {
		case timedOut:
			p.restart(gen, "hung", counted)
			return pluginErr("plugin %s: no answer within %s (the suite's timeout); restarting it", p.name, p.timeout), true
		case status.Code(err) == codes.Unavailable && client.answered():
			// UNAVAILABLE as the plugin's own answer, from a process that
			// is still there on a connection still up: that batch's
			// error, as any other status is, and not a crash, whose
			// restarts would soon give the plugin up.
			fail(pluginErr("plugin %s: %s", p.name, status.Convert(err).Message()))
		case status.Code(err) == codes.Unavailable || client.Exited():
			how := client.crashed()
			if how != "" {
				how = " (" + how + ")"
			}
			p.restart(gen, "crashed", counted)
			return codedErr(errcode.PluginCrashed, "plugin %s crashed%s: %s; restarting it", p.name, how, status.Convert(err).Message()), true
		case status.Code(err) == codes.ResourceExhausted:
			// An answer over maxAnswerBytes: the calls are sent again one
			// by one, so that only the one whose answer is too large fails.
			return pluginErr("plugin %s: %s", p.name, status.Convert(err).Message()), true
		default:
			fail(pluginErr("plugin %s: %s", p.name, status.Convert(err).Message()))
		}
		return rules.Outcome{}, false
	}
	if len(resp.Results) != len(batch) {
		fail(codedErr(errcode.PluginProtocolError, "plugin %s: answered %s for %s", p.name, count(len(resp.Results), "result"), count(len(batch), "comparison")))
		return rules.Outcome{}, false
	}
	for i, r := range resp.Results {
		batch[i].finish(p.outcome(batch[i].item.Comparator, r))
	}
	return rules.Outcome{}, false
}

func (p *proc) outcome(comp string, r *pluginpb.CompareResult) rules.Outcome {
	if r == nil {
		return pluginErr("plugin %s: %s: empty result", p.name, comp)
	}
	if r.Error != "" {
		return pluginErr("plugin %s: %s: %s", p.name, comp, clip(r.Error))
	}
	if r.Score != nil && !(*r.Score >= 0 && *r.Score <= 1) {
		return pluginErr("plugin %s: %s: score %v is outside [0, 1]", p.name, comp, *r.Score)
	}
	o := rules.Outcome{Equal: r.Equal, Message: clip(r.Message)}
	if !o.Equal && o.Message == "" {
		o.Message = fmt.Sprintf("%s.%s says the values differ", p.name, comp)
	}
	return o
}

// current returns the live connection, waiting for a restart under way.
func (p *proc) current() (pluginpb.ComparatorsClient, *process, int, error) {
	for {
		p.mu.Lock()
		if p.dead != nil && !p.retry.IsZero() && !p.h.opts.now().Before(p.retry) {
			// Restarts older than the window no longer count, for a plugin
			// given up on too: otherwise a few requests that crash it
			// would fail every plugin rule of a long-lived serve until it
			// is reloaded.
			p.dead, p.retry = nil, time.Time{}
			p.gen++
			p.ready = make(chan struct{})
			p.log.Warn("trying again a plugin given up on", "after", p.h.opts.RestartWindow)
			go p.relaunch("was given up on", true)
		}
		if p.dead != nil {
			err := p.dead
			p.mu.Unlock()
			return nil, nil, 0, err
		}
		if p.rpc != nil {
			rpc, client, gen := p.rpc, p.client, p.gen
			p.mu.Unlock()
			return rpc, client, gen, nil
		}
		ready := p.ready
		p.mu.Unlock()
		select {
		case <-ready:
		case <-p.quit:
			return nil, nil, 0, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("plugin %s: host closed", p.name))
		}
	}
}

// restart replaces the process of generation gen, unless another batch's
// failure did so already. Counted restarts are bounded and back off; one
// that is not counted (compare's isolation of a crash) waits the first
// backoff.
func (p *proc) restart(gen int, why string, counted bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if gen != p.gen || p.dead != nil || p.rpc == nil {
		return
	}
	old := p.client
	p.client, p.rpc = nil, nil
	p.gen++
	p.ready = make(chan struct{})
	go old.Kill()
	go p.relaunch(why, counted)
}

func (p *proc) relaunch(why string, counted bool) {
	var errs []string
	for {
		wait := p.h.opts.backoff
		// Isolating a crash (compare), the first start is free; should
		// it fail, the next one counts.
		if counted || len(errs) > 0 || p.h.opts.MaxRestarts == 0 {
			p.mu.Lock()
			now := p.h.opts.now()
			p.restarts = slices.DeleteFunc(p.restarts, func(t time.Time) bool { return now.Sub(t) >= p.h.opts.RestartWindow })
			n := len(p.restarts)
			if n >= p.h.opts.MaxRestarts {
				times := fmt.Sprintf("%d times", n)
				if n == 1 {
					times = "once"
				}
				p.dead = errcode.Wrap(errcode.PluginCrashed, fmt.Errorf("plugin %s %s and was restarted %s in %v, the most allowed; %s",
					p.name, why, times, p.h.opts.RestartWindow, strings.Join(append(errs, "not restarted"), "; ")))
				if n > 0 {
					p.retry = p.restarts[0].Add(p.h.opts.RestartWindow)
				}
				p.log.Error("plugin given up on", "reason", why, "restarts", n, "window", p.h.opts.RestartWindow, "until", p.retry)
				close(p.ready)
				p.mu.Unlock()
				return
			}
			p.restarts = append(p.restarts, now)
			p.mu.Unlock()
			wait = p.h.opts.backoff << min(n, 16)
			p.log.Warn("restarting plugin", "reason", why, "restart", n+1, "after", wait)
		}
		select {
		case <-time.After(wait):
		case <-p.quit:
			p.mu.Lock()
			p.dead = errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("plugin %s: host closed", p.name))
			close(p.ready)
			p.mu.Unlock()
			return
		}
		client, rpc, err := p.launch()
		p.mu.Lock()
		select {
		case <-p.quit:
			err = errors.New("host closed")
		default:
		}
		if err == nil {
			p.client, p.rpc = client, rpc
			close(p.ready)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		if client != nil {
			client.Kill()
		}
		errs = append(errs, err.Error())
	}
}

// close stops dispatching and the process.
func (p *proc) close() {
	p.mu.Lock()
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	client := p.client
	p.client, p.rpc = nil, nil
	p.retry = time.Time{}
	if p.dead == nil {
		p.dead = errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("plugin %s: host closed", p.name))
	}
	p.mu.Unlock()
	if client != nil {
		client.Stop()
	}
	p.removeCopy()
}

// Comparator returns the comparator that ref ("plugin.comparator") names,
// with params (Null: none, which counts as {}). It is the
// rules.Extensions.Plugin hook: an unknown plugin or comparator, or params
// that are not an object or break the comparator's params schema, are
// errors. The comparator is safe for concurrent use and batches the
// comparisons of concurrent callers (see the package documentation).
func (h *Host) Comparator(ref string, params value.Value) (rules.Comparator, error) {
	name, comp, ok := strings.Cut(ref, ".")
	if !ok || name == "" || comp == "" {
		return nil, errcode.Wrap(errcode.InvalidValue, fmt.Errorf("%q is not of the form plugin.comparator", ref))
	}
	p := h.procs[name]
	if p == nil {
		return nil, errcode.Wrap(errcode.UnknownComparator, fmt.Errorf("no plugin %q is declared under plugins", name))
	}
	ci := p.comps[comp]
	if ci == nil {
		return nil, errcode.Wrap(errcode.UnknownComparator, fmt.Errorf("plugin %s has no comparator %q (it has %s)", name, comp, strings.Join(p.order, ", ")))
	}
	switch params.Kind() {
	case value.Null:
		params, _ = value.ObjectOf()
	case value.Object:
	default:
		return nil, errcode.Wrap(errcode.WrongType, fmt.Errorf("params must be an object, not %s", params.Kind()))
	}
	text := params.String()
	if ci.schema != nil {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
		if err != nil {
			return nil, errcode.Wrap(errcode.InvalidValue, fmt.Errorf("params: %w", err))
		}
		if err := ci.schema.Validate(doc); err != nil {
			return nil, errcode.Wrap(errcode.InvalidValue, fmt.Errorf("params do not fit %s.%s: %s", name, comp, schemaMessage(err)))
		}
	}
	return &comparator{p: p, name: comp, params: text}, nil
}

// schemaMessage flattens a validation error onto one line.
func schemaMessage(err error) string {
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		printer := message.NewPrinter(language.English)
		var parts []string
		var walk func(e *jsonschema.ValidationError)
		walk = func(e *jsonschema.ValidationError) {
			if len(e.Causes) == 0 {
				loc := "/" + strings.Join(e.InstanceLocation, "/")
				parts = append(parts, "at "+loc+": "+e.ErrorKind.LocalizedString(printer))
				return
			}
			for _, c := range e.Causes {
				walk(c)
			}
		}
		walk(ve)
		return strings.Join(parts, "; ")
	}
	return err.Error()
}

// cancelWithCalls calls cancel once the contexts of all of batch's calls
// are done, until stop is called: the plugin is not kept at a batch that
// no one waits for. A batch with a call that cannot be cancelled is left
// alone.
func cancelWithCalls(batch []*call, cancel func()) (stop func()) {
	for _, c := range batch {
		if c.ctx.Done() == nil {
			return func() {}
		}
	}
	sent := make(chan struct{})
	go func() {
		for _, c := range batch {
			select {
			case <-c.ctx.Done():
			case <-sent:
				return
			}
		}
		cancel()
	}()
	return func() { close(sent) }
}

// allDone reports whether the contexts of all of batch's calls are done.
func allDone(batch []*call) bool {
	for _, c := range batch {
		if c.ctx.Err() == nil {
			return false
		}
	}
	return true
}

// comparator is a plugin comparator with its params.
type comparator struct {
	p      *proc
	name   string
	params string
}

// Compare implements rules.Comparator.
func (c *comparator) Compare(in *rules.Input) rules.Outcome {
	o := c.p.do(in.Ctx, &pluginpb.CompareItem{
		Comparator:   c.name,
		Path:         in.Path,
		Expected:     in.Expected.String(),
		Actual:       in.Actual.String(),
		Params:       c.params,
		Tool:         in.Tool,
		Args:         in.Args.String(),
		ExpectedArgs: in.ExpectedArgs.String(),
	})
	return o
}

// Blocking reports that Compare blocks on I/O: an engine should call it
// from many goroutines at once, so that their comparisons share batches.
func (c *comparator) Blocking() bool { return true }

// String returns "plugin.comparator".
func (c *comparator) String() string { return c.p.name + "." + c.name }

// count writes n with its noun, singular for one, so that a message never
// says "1 comparisons".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// maxMessage bounds a plugin's message or error as a diff carries it, so
// that a plugin cannot make each result line, and each answer of serve,
// as large as its own answers (100 MiB a comparison made a 419 MB
// results file of 4 cases).
const maxMessage = 4 << 10

// clip cuts s to maxMessage bytes, at a character's start, saying so.
func clip(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	i := maxMessage
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "… (" + strconv.Itoa(len(s)) + " bytes, cut)"
}
