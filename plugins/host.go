package plugins

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tidwall/gjson"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/status"

	"github.com/callgrade/callgrade/internal/errcode"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins/internal/pluginpb"
)

// The defaults of Options, which its field docs (and, for the unexported
// ones, the package doc) give too, and of a plugin's request timeout,
// which its declaration in the suite may set.
const (
	defaultTimeout       = 5 * time.Second
	defaultStartTimeout  = 10 * time.Second
	defaultLinger        = 200 * time.Microsecond
	defaultMaxBatch      = 1000
	defaultMaxBatchBytes = 4<<20 - 64<<10 // under gRPC's 4 MiB default, with room for framing
	maxAnswerBytes       = 16 << 20       // the most a plugin's answer to one batch may be
	defaultMaxRestarts   = 3
	defaultRestartWindow = 10 * time.Minute
	defaultBackoff       = 100 * time.Millisecond
	maxInFlight          = 4 // batches of one plugin on the wire at once
)

// Options configure a Host. A zero field takes its default.
type Options struct {
	// Logger receives the host's messages and, under each plugin's name,
	// the plugin's log lines. Nil: hclog at level Info on os.Stderr.
	Logger hclog.Logger
	// Dir is the working directory of the plugin processes, and relative
	// commands (those with a slash) resolve against it. "": the current
	// directory. A command without a slash is looked up in PATH.
	Dir string
	// StartTimeout bounds a plugin's start: its handshake and Describe;
	// 10s by default.
	StartTimeout time.Duration
	// MaxRestarts bounds the restarts of each plugin after a crash or a
	// hang within any RestartWindow: a plugin that needs more is given up
	// on until the first of those restarts leaves the window. 3 by
	// default; negative: never restart, nor try again.
	MaxRestarts int
	// RestartWindow is the span MaxRestarts counts restarts over, so that
	// a long-lived host (callgrade serve) keeps a plugin that crashes once
	// a day, and a run still gives up on one that crashes at every call.
	// 10 minutes by default.
	RestartWindow time.Duration

	// linger is how long a batch waits for more items after its first;
	// maxBatch is the most items in one CompareBatch; maxBatchBytes bounds
	// its encoded size, under gRPC's 4 MiB message limit with room for
	// framing; backoff is the wait before the first restart in a window,
	// doubling with each further one. They are the defaults above but in
	// tests (see export_test.go), which batch, restart and fail faster.
	linger        time.Duration
	maxBatch      int
	maxBatchBytes int
	backoff       time.Duration

	// now reads the clock RestartWindow is measured on; tests set it (see
	// export_test.go) so that the window does not depend on how fast a
	// loaded machine starts a process.
	now func() time.Time
	// checked, when not nil, is called with a command's path once its
	// sha256 has been checked, before it starts: tests swap the file there.
	checked func(path string)
}

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = hclog.New(&hclog.LoggerOptions{Name: "plugin", Level: hclog.Info, Output: os.Stderr})
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.StartTimeout, defaultStartTimeout)
	def(&o.linger, defaultLinger)
	def(&o.backoff, defaultBackoff)
	def(&o.RestartWindow, defaultRestartWindow)
	if o.now == nil {
		o.now = time.Now
	}
	if o.maxBatch <= 0 {
		o.maxBatch = defaultMaxBatch
	}
	if o.maxBatchBytes <= 0 {
		o.maxBatchBytes = defaultMaxBatchBytes
	}
	switch {
	case o.MaxRestarts == 0:
		o.MaxRestarts = defaultMaxRestarts
	case o.MaxRestarts < 0:
		o.MaxRestarts = 0
	}
	return o
}

// Host runs the plugins of one suite. Its methods are safe for concurrent
// use.
type Host struct {
	opts  Options
	procs map[string]*proc
	once  sync.Once
}

// PluginInfo describes a running plugin, for `callgrade plugins describe`.
type PluginInfo struct {
	Name        string
	Command     []string
	Comparators []ComparatorInfo
}

// ComparatorInfo describes one comparator of a plugin.
type ComparatorInfo struct {
	Name         string // what follows the dot in `plugin: geo.within_km`
	Doc          string
	ParamsSchema string // JSON Schema of the params; "" when any object will do
}

// Open starts the declared plugins (each once; Comparator reuses them) and
// asks each which comparators it serves. Every problem (a missing or
// non-executable command, a checksum mismatch, a bad timeout, a plugin that
// does not start or describes itself badly) is reported together in one
// *suite.Error, located where the suite declares the plugin; then no plugin
// is left running.
func Open(decls map[string]suite.Plugin, opts Options) (*Host, error) {
	opts = opts.withDefaults()
	h := &Host{opts: opts, procs: make(map[string]*proc, len(decls))}
	names := make([]string, 0, len(decls))
	for name := range decls {
		names = append(names, name)
	}
	sort.Strings(names)
	problems := make([]*suite.Problem, len(names))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, name := range names {
		decl := decls[name]
		p, err := h.prepare(name, decl)
		if err != nil {
			problems[i] = problem(name, decl, err)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.first(); err != nil {
				p.removeCopy()
				problems[i] = problem(name, decl, err)
				return
			}
			mu.Lock()
			h.procs[name] = p
			mu.Unlock()
		}()
	}
	wg.Wait()
	var e suite.Error
	for _, p := range problems {
		if p != nil {
			e.Problems = append(e.Problems, *p)
		}
	}
	if len(e.Problems) > 0 {
		h.Close()
		return nil, &e
	}
	for _, p := range h.procs {
		go p.dispatch()
	}
	return h, nil
}

func problem(name string, d suite.Plugin, err error) *suite.Problem {
	return &suite.Problem{
		Loc:  d.Loc,
		Msg:  fmt.Sprintf("plugin %s (command %s): %v", name, strings.Join(d.Command, " "), err),
		Code: errcode.Of(err),
		Err:  err,
	}
}

// prepare checks a declaration without starting anything.
func (h *Host) prepare(name string, d suite.Plugin) (*proc, error) {
	if len(d.Command) == 0 || d.Command[0] == "" {
		return nil, errcode.Wrap(errcode.MissingKey, errors.New("no command"))
	}
	p := &proc{
		h:       h,
		name:    name,
		decl:    d,
		timeout: defaultTimeout, // unless the declaration sets its own
		log:     h.opts.Logger.Named(name),
		queue:   make(chan *call, 4*h.opts.maxBatch),
		quit:    make(chan struct{}),
		stopped: make(chan struct{}),
		sem:     make(chan struct{}, maxInFlight),
	}
	if d.Timeout != "" {
		t, err := time.ParseDuration(d.Timeout)
		if err != nil || t <= 0 {
			return nil, errcode.Wrap(errcode.InvalidValue, fmt.Errorf("timeout %q is not a positive duration such as 2s", d.Timeout))
		}
		p.timeout = t
	}
	path := d.Command[0]
	if strings.ContainsRune(path, '/') && !filepath.IsAbs(path) && h.opts.Dir != "" {
		path = filepath.Join(h.opts.Dir, path)
	}
	resolved, err := exec.LookPath(path)
	if err != nil && !errors.Is(err, exec.ErrDot) {
		var ee *exec.Error
		if errors.As(err, &ee) {
			err = ee.Err
		}
		if fi, serr := os.Stat(path); serr == nil && !fi.IsDir() && strings.ContainsRune(path, '/') {
			err = fmt.Errorf("%s is not executable", path)
		}
		if strings.ContainsRune(path, '/') && !filepath.IsAbs(path) {
			// A relative command is found from where callgrade runs,
			// which may not be where the suite is.
			if wd, werr := os.Getwd(); werr == nil {
				err = fmt.Errorf("%w (a relative command is looked up from the working directory, %s)", err, wd)
			}
		}
		return nil, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("cannot run: %w", err))
	}
	if resolved == "" {
		resolved = path
	}
	if abs, err := filepath.Abs(resolved); err == nil {
		resolved = abs
	}
	p.path = resolved
	if d.SHA256 != "" {
		want, err := hex.DecodeString(d.SHA256)
		if err != nil || len(want) != sha256.Size {
			return nil, errcode.Wrap(errcode.InvalidValue, fmt.Errorf("sha256 %q is not 64 hex digits", d.SHA256))
		}
		// What is hashed is what runs: a copy the check reads the file
		// into, which every start, the first and each restart, executes.
		// Checking the file and then starting it by its path would run
		// whatever a writer put there in between.
		dir, copied, got, err := privateCopy(resolved)
		if err != nil {
			return nil, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("cannot check sha256: %w", err))
		}
		if !strings.EqualFold(got, d.SHA256) {
			os.RemoveAll(dir)
			return nil, errcode.Wrap(errcode.PluginChecksumMismatch, fmt.Errorf("sha256 of %s is %s, not %s as the suite says; not started", resolved, got, strings.ToLower(d.SHA256)))
		}
		p.sum, p.path, p.copyDir = want, copied, dir
		if h.opts.checked != nil {
			h.opts.checked(resolved)
		}
	}
	return p, nil
}

// privateCopy copies the executable at path into a new directory that only
// this user can enter (mode 0700), hashing the bytes as it copies them, and
// returns the directory, the copy's path (with path's name) and the
// digest. The copy is the file that runs: a file swapped in at path after
// the check is never started. A script (a file that starts with "#!"),
// which its interpreter reads by its path, finds the files beside it as it
// would at path: each entry of path's directory is linked into the copy's
// (the example Python plugin imports its generated modules from gen/,
// beside __file__). Those files are not covered by the digest, as they
// never were.
func privateCopy(path string) (dir, copied, sum string, err error) {
	src, err := os.Open(path)
	if err != nil {
		return "", "", "", err
	}
	defer src.Close()
	if fi, err := src.Stat(); err != nil {
		return "", "", "", err
	} else if !fi.Mode().IsRegular() {
		return "", "", "", fmt.Errorf("%s is not a regular file", path)
	}
	dir, err = os.MkdirTemp("", "callgrade-plugin-bin-")
	if err != nil {
		return "", "", "", fmt.Errorf("cannot make a directory for its private copy: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	copied = filepath.Join(dir, filepath.Base(path))
	dst, err := os.OpenFile(copied, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		return "", "", "", fmt.Errorf("cannot copy it: %w", err)
	}
	hash := sha256.New()
	var head headBytes
	_, err = io.Copy(io.MultiWriter(dst, hash, &head), src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(copied, 0o500) // read and run; written no more
	}
	if err != nil {
		return "", "", "", fmt.Errorf("cannot copy it: %w", err)
	}
	if string(head.b) == "#!" {
		if err := linkSiblings(filepath.Dir(path), dir, filepath.Base(path)); err != nil {
			return "", "", "", fmt.Errorf("cannot copy it: %w", err)
		}
	}
	return dir, copied, hex.EncodeToString(hash.Sum(nil)), nil
}

// headBytes keeps the first two bytes written to it.
type headBytes struct{ b []byte }

func (h *headBytes) Write(p []byte) (int, error) {
	if n := 2 - len(h.b); n > 0 {
		h.b = append(h.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}

// linkSiblings links each entry of from but the one named except into to.
func linkSiblings(from, to, except string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == except {
			continue
		}
		if err := os.Symlink(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// removeCopy removes the private copy of a checked command, if any.
func (p *proc) removeCopy() {
	if p.copyDir != "" {
		os.RemoveAll(p.copyDir)
	}
}

// Describe lists the plugins and their comparators, sorted by name.
func (h *Host) Describe() []PluginInfo {
	out := make([]PluginInfo, 0, len(h.procs))
	for _, p := range h.procs {
		pi := PluginInfo{Name: p.name, Command: p.decl.Command}
		for _, n := range p.order {
			c := p.comps[n]
			pi.Comparators = append(pi.Comparators, ComparatorInfo{Name: n, Doc: c.doc, ParamsSchema: c.schemaText})
		}
		out = append(out, pi)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Close stops every plugin process, waiting for each to exit, and fails
// the comparisons still waiting. It is safe to call more than once; call
// it also when the program is interrupted (see the package example).
func (h *Host) Close() error {
	h.once.Do(func() {
		var wg sync.WaitGroup
		for _, p := range h.procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.close()
			}()
		}
		wg.Wait()
	})
	return nil
}

// comparatorPlugin is the host's side of the go-plugin Plugin.
type comparatorPlugin struct {
	plugin.NetRPCUnsupportedPlugin
}

func (comparatorPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("the host does not serve comparators")
}

func (comparatorPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return pluginpb.NewComparatorsClient(c), nil
}

// process is one started plugin process.
type process struct {
	c   *plugin.Client
	cmd *exec.Cmd
	// dir holds the process's Unix socket: go-plugin's servers listen in
	// the directory PLUGIN_UNIX_SOCKET_DIR names. A process that crashes
	// cannot remove its socket, and a long-lived host restarting it would
	// otherwise leave one in $TMPDIR for every crash.
	dir string
	// stderr keeps the end of what the process wrote to stderr, which
	// says why it crashed better than the broken connection does.
	stderr *tail
}

// exitWait bounds how long a crash's message waits for the process to be
// reaped, so that it can give its exit status and the end of its stderr.
const exitWait = 250 * time.Millisecond

// crashed says how the process ended, after a call on it broke: its exit
// status and the end of its stderr, as far as they are known within
// exitWait; "" when neither is.
func (pr *process) crashed() string {
	pr.exitedWithin(exitWait)
	var parts []string
	// Exited is set after the process is reaped and its stderr read to the
	// end (go-plugin's wait goroutine), under the client's lock: both are
	// settled when it reports true.
	if pr.c.Exited() && pr.cmd.ProcessState != nil {
		parts = append(parts, pr.cmd.ProcessState.String())
	}
	if s := pr.stderr.last(3); s != "" {
		parts = append(parts, "its stderr ends: "+s)
	}
	return strings.Join(parts, "; ")
}

// answered reports, after a call on the process failed with UNAVAILABLE,
// whether the plugin answered so itself: the process has not exited
// within exitWait and its connection is still up. A process that died
// closes its socket, which gRPC sees at once.
func (pr *process) answered() bool {
	if pr.exitedWithin(exitWait) {
		return false
	}
	cp, err := pr.c.Client()
	if err != nil {
		return false
	}
	gc, ok := cp.(*plugin.GRPCClient)
	return ok && gc.Conn.GetState() == connectivity.Ready
}

// exitedWithin reports whether the process has exited, waiting up to d
// for it to.
func (pr *process) exitedWithin(d time.Duration) bool {
	for deadline := time.Now().Add(d); !pr.c.Exited() && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	return pr.c.Exited()
}

// Exited reports whether the process has exited.
func (pr *process) Exited() bool { return pr.c.Exited() }

// stopGrace bounds a graceful stop: go-plugin asks the plugin to shut
// down and waits up to 2s for it, but the asking itself waits for an
// answer that a frozen process never gives.
const stopGrace = 5 * time.Second

// Stop ends a process that is working: it is asked to shut down, and its
// process group is killed if it has not within stopGrace. Its socket's
// directory is removed.
func (pr *process) Stop() {
	done := pr.end()
	select {
	case <-done:
	case <-time.After(stopGrace):
		killGroup(pr.cmd)
		pr.wait(done)
	}
	os.RemoveAll(pr.dir)
}

// Kill ends a process that has failed (it crashed, hangs, or did not
// start) without asking it: its process group is killed first, so that
// neither go-plugin's shutdown request nor its wait for the plugin's
// output (which a child of a wrapper script holds open) can block.
func (pr *process) Kill() {
	killGroup(pr.cmd)
	pr.wait(pr.end())
	os.RemoveAll(pr.dir)
}

// killWait bounds how long ending a process waits, once its group is
// killed, for go-plugin to see it end. go-plugin waits for the end of the
// plugin's stdout and stderr, which a process the plugin started outside
// its group (setsid) holds open for as long as it runs: callgrade then
// hung until that process ended, at the end of a run, when a suite's
// plugin failed to start, and at serve's shutdown.
const killWait = 2 * time.Second

// end has go-plugin end the process, closing done when it has.
func (pr *process) end() (done chan struct{}) {
	done = make(chan struct{})
	go func() {
		pr.c.Kill()
		close(done)
	}()
	return done
}

// wait waits for done up to killWait; past it, go-plugin's wait goes on
// in the background, and ends when the last holder of the output does.
func (pr *process) wait(done chan struct{}) {
	select {
	case <-done:
	case <-time.After(killWait):
	}
}

// tail keeps the last tailSize bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

// tailSize is what a tail keeps: enough for a Go panic's trace to still
// hold its panic line when the process dies.
const tailSize = 8 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the lines kept that are not blank, joined by " | ".
func (t *tail) String() string { return strings.Join(t.lines(false), " | ") }

// last returns the last n lines kept that are not blank and not the SDK's
// own debug log (go-plugin's JSON lines at level debug or trace, which a
// plugin's SDK writes as it starts), joined by " | ". A Go panic's trace
// ends in stack frames: its "panic: " or "fatal error: " line, which
// says why, leads them when it is not among them.
func (t *tail) last(n int) string {
	lines := t.lines(true)
	from := max(0, len(lines)-n)
	for i := from - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "panic: ") || strings.HasPrefix(lines[i], "fatal error: ") {
			return lines[i] + " | … | " + strings.Join(lines[from+1:], " | ")
		}
	}
	return strings.Join(lines[from:], " | ")
}

// sdkDebug reports whether l is a line of go-plugin's JSON log at level
// debug or trace, however it is spaced (Python's SDK writes
// {"@level": "debug", …}).
func sdkDebug(l string) bool {
	if !strings.HasPrefix(l, "{") || !gjson.Valid(l) {
		return false
	}
	switch gjson.Get(l, `\@level`).Str {
	case "debug", "trace":
		return true
	}
	return false
}

func (t *tail) lines(quiet bool) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var lines []string
	for l := range strings.Lines(string(t.buf)) {
		l = strings.TrimSpace(l)
		if l == "" || quiet && sdkDebug(l) {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

// launch starts one plugin process and connects to it.
func (p *proc) launch() (*process, pluginpb.ComparatorsClient, error) {
	for try := 0; ; try++ {
		client, rpc, err := p.launchOnce()
		if try == 4 || !errors.Is(err, syscall.ETXTBSY) {
			return client, rpc, err
		}
		// A private copy just written (privateCopy) can be busy for a
		// moment: a process this program forked elsewhere while the copy
		// was open for writing holds it open until that process execs.
		time.Sleep(10 * time.Millisecond << try)
	}
}

// launchOnce is one try of launch.
func (p *proc) launchOnce() (*process, pluginpb.ComparatorsClient, error) {
	cmd := exec.Command(p.path, p.decl.Command[1:]...)
	cmd.Dir = p.h.opts.Dir
	setProcAttr(cmd)
	stderr := new(tail)
	cfg := &plugin.ClientConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  pluginpb.ProtocolVersion,
			MagicCookieKey:   pluginpb.MagicCookieKey,
			MagicCookieValue: pluginpb.MagicCookieValue,
		},
		Plugins:          plugin.PluginSet{pluginpb.PluginName: comparatorPlugin{}},
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         true,
		StartTimeout:     p.h.opts.StartTimeout,
		Logger:           quietLogger{p.log},
		Stderr:           stderr,
		// A Go plugin's own writes to os.Stderr come over go-plugin's
		// stdio stream rather than the process's stderr.
		SyncStderr:  stderr,
		SkipHostEnv: true, // cmd.Env has it, and must win
		// go-plugin takes answers of up to 2 GiB; a batch's answer is
		// held to maxAnswerBytes (attempt sends a batch whose answer is
		// larger again call by call).
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxAnswerBytes))},
	}
	if p.sum != nil {
		cfg.SecureConfig = &plugin.SecureConfig{Checksum: p.sum, Hash: sha256.New()}
	}
	dir, err := os.MkdirTemp("", "callgrade-plugin-")
	if err != nil {
		return nil, nil, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("cannot make a directory for its socket: %w", err))
	}
	cmd.Env = append(os.Environ(), plugin.EnvUnixSocketDir+"="+dir)
	client := &process{c: plugin.NewClient(cfg), cmd: cmd, dir: dir, stderr: stderr}
	addr, err := client.c.Start()
	if err != nil {
		client.Kill()
		if errors.Is(err, plugin.ErrChecksumsDoNotMatch) {
			return nil, nil, errcode.Wrap(errcode.PluginChecksumMismatch, errors.New("sha256 mismatch; not started"))
		}
		if p.copyDir != "" && errors.Is(err, fs.ErrPermission) {
			return nil, nil, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("does not start: %w (the private copy a sha256 check runs is in %s: is it mounted noexec? set TMPDIR to a directory whose files may run)", err, filepath.Dir(p.copyDir)))
		}
		if s := stderr.String(); s != "" {
			// What the plugin said of itself (a missing module, a file it
			// cannot open) says more than go-plugin's guesses.
			return nil, nil, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("does not start: %w; its stderr ends: %s", err, s))
		}
		return nil, nil, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("does not start: %w", err))
	}
	// No server certificate in the handshake: a plugin without AutoMTLS,
	// such as one written in another language. Only a Unix socket is
	// acceptable then, and it is spoken to in plain gRPC.
	if cfg.TLSConfig != nil && cfg.TLSConfig.RootCAs == nil {
		if _, ok := addr.(*net.UnixAddr); !ok {
			client.Kill()
			return nil, nil, errcode.Wrap(errcode.PluginProtocolError, fmt.Errorf("offers %s without a TLS certificate; a plugin without mutual TLS must listen on a Unix socket", addr))
		}
		p.log.Debug("plugin offers no TLS certificate; using its Unix socket without TLS")
		cfg.TLSConfig = nil
	}
	cp, err := client.c.Client()
	if err != nil {
		client.Kill()
		return nil, nil, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("cannot connect: %w", err))
	}
	raw, err := cp.Dispense(pluginpb.PluginName)
	if err != nil {
		client.Kill()
		return nil, nil, errcode.Wrap(errcode.PluginUnavailable, fmt.Errorf("cannot connect: %w", err))
	}
	return client, raw.(pluginpb.ComparatorsClient), nil
}

// first starts the plugin for the first time and records its comparators.
func (p *proc) first() error {
	client, rpc, err := p.launch()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.h.opts.StartTimeout)
	defer cancel()
	resp, err := rpc.Describe(ctx, &pluginpb.DescribeRequest{})
	if err != nil {
		// Why it failed, as a crash's message says it: the plugin's
		// stderr (a missing module) says more than the broken
		// connection, and a deadline is the start timeout.
		var why string
		if ctx.Err() == context.DeadlineExceeded || status.Code(err) == codes.DeadlineExceeded {
			why = fmt.Sprintf("; no answer within %s (the start timeout)", p.h.opts.StartTimeout)
		}
		if how := client.crashed(); how != "" {
			why += "; " + how
		}
		client.Kill()
		return errcode.Wrap(errcode.PluginProtocolError, fmt.Errorf("describe: %w%s", err, why))
	}
	p.comps = make(map[string]*compInfo, len(resp.Comparators))
	for _, c := range resp.Comparators {
		if c.Name == "" || p.comps[c.Name] != nil {
			client.Kill()
			return errcode.Wrap(errcode.PluginProtocolError, fmt.Errorf("describe: comparator name %q is empty or repeated", c.Name))
		}
		ci := &compInfo{doc: c.Doc, schemaText: c.ParamsSchema}
		if c.ParamsSchema != "" {
			if ci.schema, err = compileSchema(p.name+"."+c.Name, c.ParamsSchema); err != nil {
				client.Kill()
				return errcode.Wrap(errcode.PluginProtocolError, fmt.Errorf("describe: comparator %s: params schema: %w", c.Name, err))
			}
		}
		p.comps[c.Name] = ci
		p.order = append(p.order, c.Name)
	}
	p.client, p.rpc = client, rpc
	return nil
}

func compileSchema(name, text string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	url := "callgrade-plugin:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// quietLogger demotes go-plugin's own Info messages ("plugin process
// exited", ...) to Debug; the plugin's lines, logged on a Named logger,
// keep their level.
type quietLogger struct{ hclog.Logger }

func (l quietLogger) Info(msg string, args ...any) { l.Logger.Debug(msg, args...) }

// Error and Warn demote go-plugin's words on a process that ended
// ("plugin process exited" with its status, "plugin failed to exit
// gracefully" when a crashed one is killed): the comparisons it failed
// say so, with the status and its stderr, where the case is named.
func (l quietLogger) Error(msg string, args ...any) {
	if msg == "plugin process exited" {
		l.Logger.Debug(msg, args...)
		return
	}
	l.Logger.Error(msg, args...)
}

func (l quietLogger) Warn(msg string, args ...any) {
	if msg == "plugin failed to exit gracefully" {
		l.Logger.Debug(msg, args...)
		return
	}
	l.Logger.Warn(msg, args...)
}

func (l quietLogger) Log(level hclog.Level, msg string, args ...any) {
	if level == hclog.Info {
		level = hclog.Debug
	}
	l.Logger.Log(level, msg, args...)
}

func (l quietLogger) With(args ...any) hclog.Logger { return quietLogger{l.Logger.With(args...)} }
