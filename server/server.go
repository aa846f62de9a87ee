// Package server serves a compiled suite over HTTP, so that an eval
// platform can score tool calls from many workers: one response at a time
// (POST /v1/score), a JSON Lines stream (POST /v1/score/batch), the list of
// cases (GET /v1/cases), a health check, Prometheus metrics and an OpenAPI
// document of all of it (GET /openapi.json).
//
// A Handler holds nothing but the suite: any number of replicas serve the
// same answers behind a load balancer. Reload swaps in a newly compiled
// suite atomically and keeps the old one when the new one does not load.
package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/jsontext"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// Loader loads and compiles the suite, usually with callgrade.Open. New
// calls it once and Reload each time the suite is to be read again. A
// Grader the Handler no longer serves is closed once its last request is
// done, which stops its plugins.
type Loader func() (*callgrade.Grader, error)

// Options configure a Handler. The zero value serves without a token, with
// the default limits and timeouts.
type Options struct {
	// Token, when not empty, is the bearer token every request to /v1/ and
	// /metrics must carry; /healthz and /openapi.json stay open.
	Token string
	// MaxBody is the largest request body of /v1/score, and the longest
	// line of a batch (without its newline; a longer one is an error
	// line); 0 means 8 MiB.
	MaxBody int64
	// MaxBatchBody is the largest request body of /v1/score/batch, as sent
	// and once decompressed; 0 means 1 GiB.
	MaxBatchBody int64
	// MaxBatchLines is the most lines a /v1/score/batch body may have,
	// blank ones included; 0 means 1,000,000.
	MaxBatchLines int
	// Timeout bounds reading a /v1/score request and writing its answer,
	// and every request but a batch; 0 means 30 seconds. A request still
	// being worked on then is answered 503 and its work is stopped (its
	// context ends, which cancels its plugin comparisons).
	Timeout time.Duration
	// BatchTimeout bounds a whole /v1/score/batch request; 0 means 30
	// minutes. A batch still being scored then ends with an error line of
	// status 503, its work stopped.
	BatchTimeout time.Duration
	// ReadHeaderTimeout and IdleTimeout are the http.Server's that
	// HTTPServer returns; 0 means 10 seconds and 2 minutes.
	ReadHeaderTimeout time.Duration
	IdleTimeout       time.Duration
	// Workers is the number of goroutines that score one batch; 0 means
	// GOMAXPROCS.
	Workers int
	// Logger receives reloads and errors; nil discards them.
	Logger *slog.Logger
	// Watch, when positive, is how often the served suite's files (its
	// Files and ToolsFiles) are checked for a change of size or time; a
	// change that has held for one whole interval reloads the suite as
	// Reload does. 0: only Reload reloads.
	Watch time.Duration
}

func (o Options) withDefaults() Options {
	if o.MaxBody <= 0 {
		o.MaxBody = 8 << 20
	}
	if o.MaxBatchBody <= 0 {
		o.MaxBatchBody = 1 << 30
	}
	if o.MaxBatchLines <= 0 {
		o.MaxBatchLines = 1_000_000
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.BatchTimeout <= 0 {
		o.BatchTimeout = 30 * time.Minute
	}
	if o.ReadHeaderTimeout <= 0 {
		o.ReadHeaderTimeout = 10 * time.Second
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 2 * time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Handler is the http.Handler of the service.
type Handler struct {
	opts    Options
	load    Loader
	token   [sha256.Size]byte
	cur     atomic.Pointer[loaded]
	reload  sync.Mutex // one Reload at a time
	metrics *metrics
	routes  []route
	stop    chan struct{} // closed by Close: the watcher returns
	stopped sync.WaitGroup
	closing sync.Once
	closed  func() // called after a served Grader is closed; for tests
}

// route is one path the handler serves, and its methods.
type route struct {
	path    string
	methods map[string]func(http.ResponseWriter, *http.Request)
	auth    bool // the token is required
}

// New loads the suite with load and returns a Handler serving it.
func New(load Loader, opts Options) (*Handler, error) {
	h := &Handler{opts: opts.withDefaults(), load: load, metrics: newMetrics(), stop: make(chan struct{})}
	h.token = sha256.Sum256([]byte(opts.Token))
	g, err := load()
	if err != nil {
		return nil, err
	}
	h.cur.Store(h.newLoaded(g))
	h.metrics.setCases(g.Suite().Len())
	h.routes = []route{
		{path: "/v1/score", auth: true, methods: map[string]func(http.ResponseWriter, *http.Request){http.MethodPost: h.serveScore}},
		{path: "/v1/score/batch", auth: true, methods: map[string]func(http.ResponseWriter, *http.Request){http.MethodPost: h.serveBatch}},
		{path: "/v1/cases", auth: true, methods: map[string]func(http.ResponseWriter, *http.Request){http.MethodGet: h.serveCases}},
		{path: "/healthz", methods: map[string]func(http.ResponseWriter, *http.Request){http.MethodGet: h.serveHealth}},
		{path: "/metrics", auth: true, methods: map[string]func(http.ResponseWriter, *http.Request){http.MethodGet: h.serveMetrics}},
		{path: "/openapi.json", methods: map[string]func(http.ResponseWriter, *http.Request){http.MethodGet: serveOpenAPI}},
	}
	if h.opts.Watch > 0 {
		h.stopped.Add(1)
		go h.watch(h.opts.Watch, h.files())
	}
	return h, nil
}

// fileState is what watch compares of a file: a write changes its time or
// its size, a replacement (an editor's rename, a ConfigMap's symlink swap)
// at least its time, and a removal its existence.
type fileState struct {
	path    string
	size    int64
	mod     time.Time
	missing bool
}

// files returns the state of the served suite's files.
func (h *Handler) files() []fileState {
	l := h.cur.Load()
	if l == nil {
		return nil
	}
	s := suite.ModelOf(l.g.Suite())
	var out []fileState
	for _, name := range slices.Concat(s.Files, s.ToolsFiles) {
		fi, err := os.Stat(name)
		if err != nil {
			out = append(out, fileState{path: name, missing: true})
			continue
		}
		out = append(out, fileState{path: name, size: fi.Size(), mod: fi.ModTime()})
	}
	return out
}

// watch reloads the suite when its files have changed from last, their
// state when New had loaded it, as settled decides.
func (h *Handler) watch(every time.Duration, last []fileState) {
	defer h.stopped.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	w := settled{loaded: last, seen: last}
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		if !w.tick(h.files()) {
			continue
		}
		h.opts.Logger.Info("suite files changed; reloading")
		h.Reload()
	}
}

// settled decides when watched files are reloaded: once they differ from
// the state last loaded and have kept their new state for a whole tick. A
// file is not loaded while it is being written (os.WriteFile and most
// editors truncate it first, and a tick between truncation and write would
// otherwise serve an empty suite). The state a reload answers is the one
// taken before it reads the files, so that a change made while it runs is
// seen later; a suite that does not load is tried again only after its
// files change again.
type settled struct {
	loaded []fileState // what the last reload (or New) read, whether it loaded or not
	seen   []fileState // the state at the last tick
}

// tick takes the files' state now and reports whether to reload.
func (w *settled) tick(now []fileState) bool {
	moving := !sameFiles(now, w.seen)
	w.seen = now
	if moving || sameFiles(now, w.loaded) {
		return false
	}
	w.loaded = now
	return true
}

func sameFiles(a, b []fileState) bool {
	return slices.EqualFunc(a, b, func(a, b fileState) bool {
		return a.path == b.path && a.size == b.size && a.mod.Equal(b.mod) && a.missing == b.missing
	})
}

// Reload loads the suite again and serves it from the next request on.
// When it does not load, the suite served so far is kept and the error is
// returned. The replaced suite is closed once its last request is done.
func (h *Handler) Reload() error {
	h.reload.Lock()
	defer h.reload.Unlock()
	g, err := h.load()
	if err != nil {
		h.metrics.reloaded(false)
		h.opts.Logger.Error("reload failed; serving the previous suite", "err", err)
		return err
	}
	old := h.cur.Swap(h.newLoaded(g))
	h.metrics.reloaded(true)
	h.metrics.setCases(g.Suite().Len())
	h.opts.Logger.Info("suite reloaded", "cases", g.Suite().Len())
	if old != nil {
		old.release()
	}
	return nil
}

// Close stops serving the suite and closes it once its last request is
// done; requests after Close are answered 503. It stops the watching of
// Options.Watch too.
func (h *Handler) Close() error {
	h.closing.Do(func() { close(h.stop) })
	h.stopped.Wait()
	h.reload.Lock()
	defer h.reload.Unlock()
	if old := h.cur.Swap(nil); old != nil {
		old.release()
	}
	return nil
}

// HTTPServer returns an http.Server serving h on addr, with the header
// read and idle timeouts of the options; the handler bounds each request
// itself (Timeout, BatchTimeout), since a batch may stream for long.
func (h *Handler) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: h.opts.ReadHeaderTimeout,
		IdleTimeout:       h.opts.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(h.opts.Logger.Handler(), slog.LevelWarn),
	}
}

// ServeHTTP routes a request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	name := "other"
	defer func() {
		h.metrics.request(name, sw.status(), time.Since(start))
	}()
	for i := range h.routes {
		rt := &h.routes[i]
		if rt.path != r.URL.Path {
			continue
		}
		name = rt.path
		serve, ok := rt.methods[r.Method]
		if !ok {
			methods := make([]string, 0, len(rt.methods))
			for m := range rt.methods {
				methods = append(methods, m)
			}
			sw.Header().Set("Allow", strings.Join(methods, ", "))
			writeError(sw, http.StatusMethodNotAllowed, "%s takes %s, not %s", rt.path, strings.Join(methods, " or "), r.Method)
			return
		}
		if rt.auth && !h.authorized(r) {
			sw.Header().Set("WWW-Authenticate", `Bearer realm="callgrade"`)
			writeError(sw, http.StatusUnauthorized, "a valid bearer token is required")
			return
		}
		timeout := h.opts.Timeout
		batch := rt.path == "/v1/score/batch"
		if batch {
			timeout = h.opts.BatchTimeout
		}
		rc := http.NewResponseController(sw)
		deadline := start.Add(timeout)
		// Reading stops a little before the deadline: a request whose
		// body is still coming then is told so (a batch's error line, a
		// single request's 408), not cut off unanswered. At the deadline
		// the request's context ends, which stops its work; the answer
		// that says so has answerGrace to be written.
		_ = rc.SetReadDeadline(deadline.Add(-min(timeout/10, time.Second))) // not every ResponseWriter has a connection
		_ = rc.SetWriteDeadline(deadline.Add(answerGrace))
		ctx, cancel := context.WithDeadline(r.Context(), deadline)
		defer cancel()
		r = r.WithContext(ctx)
		if batch {
			serve(sw, r) // streamed: it ends itself with an error line at the deadline
			return
		}
		serveTimed(sw, r, serve, deadline, timeout)
		return
	}
	writeError(sw, http.StatusNotFound, "no such endpoint: %s (see /openapi.json)", r.URL.Path)
}

// answerGrace is the time a request has past its deadline to write the
// answer that says it ran out of time.
const answerGrace = time.Second

// serveTimed serves r with serve on a goroutine of its own, holding its
// answer until it returns; when the deadline comes first the answer is a
// 503 at once, and the work, whose context (r's, which ServeHTTP ends at
// the deadline) has ended, stops on its own: a plugin's comparison is
// cancelled, a scoring loop stops weighing pairs. A panic in serve is
// raised again here, for net/http to log.
func serveTimed(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request), deadline time.Time, timeout time.Duration) {
	tw := &timedWriter{header: make(http.Header)}
	late := time.NewTimer(time.Until(deadline))
	defer late.Stop()
	done := make(chan struct{})
	panicked := make(chan any, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				panicked <- fmt.Sprintf("%v\n\n%s", p, debug.Stack())
			}
		}()
		serve(tw, r)
		close(done)
	}()
	select {
	case p := <-panicked:
		panic(p)
	case <-done:
		if r.Context().Err() == context.DeadlineExceeded {
			// Its work may have been stopped part way (a plugin's
			// comparison fails when cancelled): the answer is not sent.
			break
		}
		maps.Copy(w.Header(), tw.header)
		w.WriteHeader(tw.status())
		w.Write(tw.buf.Bytes())
		return
	case <-late.C:
		// Not r's context, which net/http also ends when reading the
		// body fails: the handler answers that itself (408, 400).
		tw.mu.Lock()
		tw.late = true
		tw.mu.Unlock()
	}
	writeError(w, http.StatusServiceUnavailable, "the request took longer than the limit of %v (--timeout); its work was stopped", timeout)
}

// timedWriter holds the answer of serveTimed's handler until it returns;
// once the request is late, what the handler writes is dropped.
type timedWriter struct {
	header http.Header
	mu     sync.Mutex
	code   int
	buf    bytes.Buffer
	late   bool
}

// errLate is what a late handler's writes return.
var errLate = errors.New("the request ran out of its time")

func (w *timedWriter) Header() http.Header { return w.header }

func (w *timedWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.code == 0 {
		w.code = code
	}
}

func (w *timedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.late {
		return 0, errLate
	}
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.buf.Write(b)
}

func (w *timedWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// authorized reports whether r carries the token, comparing digests in
// constant time so that neither the token nor its length leaks.
func (h *Handler) authorized(r *http.Request) bool {
	if h.opts.Token == "" {
		return true
	}
	auth := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		tok, ok = strings.CutPrefix(auth, "bearer ")
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(got[:], h.token[:]) == 1 && ok
}

// acquire returns the suite served now, referenced until release; nil
// after Close.
func (h *Handler) acquire() *loaded {
	for {
		l := h.cur.Load()
		if l == nil {
			return nil
		}
		// A count of 0 means l was replaced and closed already: cur holds
		// its successor, so the next round finds it.
		if n := l.refs.Load(); n > 0 && l.refs.CompareAndSwap(n, n+1) {
			return l
		}
	}
}

// withSuite serves r with the current suite, or answers 503.
func (h *Handler) withSuite(w http.ResponseWriter, serve func(*loaded)) {
	l := h.acquire()
	if l == nil {
		writeError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	defer l.release()
	serve(l)
}

func (h *Handler) serveHealth(w http.ResponseWriter, r *http.Request) {
	h.withSuite(w, func(l *loaded) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":"ok","cases":%d}`+"\n", l.g.Suite().Len())
	})
}

func (h *Handler) serveCases(w http.ResponseWriter, r *http.Request) {
	h.withSuite(w, func(l *loaded) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(l.casesJSON())
	})
}

func (h *Handler) serveMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	h.metrics.write(w)
}

// loaded is a suite being served, counted by the requests that use it.
type loaded struct {
	g         *callgrade.Grader
	closed    func()       // the Handler's hook, see Handler.closed
	refs      atomic.Int64 // the Handler's own reference, plus one per request
	closeOnce sync.Once
	casesOnce sync.Once
	cases     []byte
	depth     int // nesting allowed in a request: the engine's plus the envelope
	values    int // the values allowed in a request: the engine's
}

func (h *Handler) newLoaded(g *callgrade.Grader) *loaded {
	l := &loaded{g: g, closed: h.closed}
	l.refs.Store(1)
	l.depth = g.Options().Limits.MaxDepth
	l.values = g.Options().Limits.MaxValues
	if l.values <= 0 {
		l.values = callgrade.DefaultMaxValues
	}
	if l.depth <= 0 {
		l.depth = jsontext.DefaultMaxDepth
	}
	l.depth += response.EnvelopeDepth
	return l
}

func (l *loaded) release() {
	if l.refs.Add(-1) == 0 {
		l.closeOnce.Do(func() {
			l.g.Close()
			if l.closed != nil {
				l.closed()
			}
		})
	}
}

// casesJSON is the body of GET /v1/cases, built once per suite.
func (l *loaded) casesJSON() []byte {
	l.casesOnce.Do(func() {
		s := suite.ModelOf(l.g.Suite())
		b := []byte(`{"tools":[`)
		b = appendTools(b, s.Tools)
		b = append(b, `],"cases":[`...)
		for i := range s.Cases {
			c := &s.Cases[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = jsontext.AppendQuote(b, c.ID)
			b = appendCase(b, c, s.Defaults.Calls)
			if c.Tools != nil {
				b = append(b, `,"tools":[`...)
				b = appendTools(b, c.Tools)
				b = append(b, ']')
			}
			b = appendMetadata(b, s.MetadataOf(c))
			b = append(b, '}')
		}
		l.cases = append(b, "]}\n"...)
	})
	return l.cases
}

// appendCase appends what /v1/cases says of a case after its id: the
// names of its expected calls, or of its steps for a case written with
// steps (an agent's run), then what else a case says of its calls as a
// whole (never, max_calls, min_calls, final, final_text), and how calls
// pair when that is not ordered.
func appendCase(b []byte, c *suite.Case, calls suite.CallMatch) []byte {
	names := func(b []byte, key string, n int, name func(int) string) []byte {
		b = append(b, `,"`...)
		b = append(b, key...)
		b = append(b, `":[`...)
		for k := range n {
			if k > 0 {
				b = append(b, ',')
			}
			b = jsontext.AppendQuote(b, name(k))
		}
		return append(b, ']')
	}
	if c.HasSteps() {
		steps := c.Run.Steps
		b = names(b, "steps", len(steps), func(k int) string { return steps[k].Name })
	} else {
		b = names(b, "expected", len(c.Expected), func(k int) string { return c.Expected[k].Name })
	}
	if c.Calls != "" {
		calls = c.Calls
	}
	if calls != "" && calls != suite.CallsOrdered {
		b = append(b, `,"calls":`...)
		b = jsontext.AppendQuote(b, string(calls))
	}
	if r := c.Run; r != nil {
		if len(r.Never) > 0 {
			b = names(b, "never", len(r.Never), func(k int) string { return r.Never[k].Name })
		}
		if r.MaxCalls != nil {
			b = append(b, `,"max_calls":`...)
			b = strconv.AppendInt(b, int64(*r.MaxCalls), 10)
		}
		if r.MinCalls > 0 {
			b = append(b, `,"min_calls":`...)
			b = strconv.AppendInt(b, int64(r.MinCalls), 10)
		}
		if r.Final.Kind() != value.Null {
			b = append(b, `,"final":`...)
			b = r.Final.AppendJSON(b)
		}
		if r.FinalText != "" {
			b = append(b, `,"final_text":`...)
			b = jsontext.AppendQuote(b, string(r.FinalText))
		}
	}
	return b
}

// appendMetadata appends a case's metadata, with the suite's defaults
// under it, as "metadata": an object of its names in order; nothing when
// it has none.
func appendMetadata(b []byte, md map[string]value.Value) []byte {
	if len(md) == 0 {
		return b
	}
	b = append(b, `,"metadata":{`...)
	for i, k := range slices.Sorted(maps.Keys(md)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendQuote(b, k)
		b = append(b, ':')
		b = md[k].AppendJSON(b)
	}
	return append(b, '}')
}

func appendTools(b []byte, tools []suite.Tool) []byte {
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = jsontext.AppendQuote(b, t.Name)
		if t.Description != "" {
			b = append(b, `,"description":`...)
			b = jsontext.AppendQuote(b, t.Description)
		}
		if !t.Parameters.IsNull() {
			b = append(b, `,"parameters":`...)
			b = t.Parameters.AppendJSON(b)
		}
		b = append(b, '}')
	}
	return b
}

// writeError answers with {"error": "..."} and the status.
func writeError(w http.ResponseWriter, status int, format string, a ...any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(appendError(nil, fmt.Sprintf(format, a...)))
}

func appendError(b []byte, msg string) []byte {
	b = append(b, `{"error":`...)
	b = jsontext.AppendQuote(b, msg)
	return append(b, "}\n"...)
}

// bodyError answers a request whose body could not be read: 413 when it
// is over the limit, 415 when its encoding is not one the server reads.
func bodyError(w http.ResponseWriter, err error) {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		writeError(w, http.StatusRequestEntityTooLarge, "the request body is larger than the limit of %d bytes", mb.Limit)
		return
	}
	var enc encodingError
	if errors.As(err, &enc) {
		writeError(w, http.StatusUnsupportedMediaType, "%v", err)
		return
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		writeError(w, http.StatusRequestTimeout, "the request body did not arrive in time (--timeout)")
		return
	}
	writeError(w, http.StatusBadRequest, "cannot read the request body: %v", err)
}

// encodingError is a Content-Encoding the server does not read.
type encodingError string

func (e encodingError) Error() string {
	return fmt.Sprintf("unsupported Content-Encoding %q; send gzip or identity", string(e))
}

// requestBody returns r's body limited to limit bytes: with Content-Encoding
// gzip, limited both as sent and once decompressed, so that a small body
// that decompresses into gigabytes is cut off at the limit too.
func requestBody(w http.ResponseWriter, r *http.Request, limit int64) (io.Reader, error) {
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	switch enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(body)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return http.MaxBytesReader(w, zr, limit), nil
	default:
		return nil, encodingError(enc)
	}
}

// readBody reads the whole body under limit.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body, err := requestBody(w, r, limit)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(body)
}

// statusWriter remembers the status code written, for the metrics.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) status() string {
	if w.code == 0 {
		return "200"
	}
	return strconv.Itoa(w.code)
}
