package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/server"
)

type serveFlags struct {
	suites          []string
	addr            string
	token           string
	format          string
	maxBody         int64
	maxBatchBody    int64
	maxBatchLines   int
	timeout         time.Duration
	batchTimeout    time.Duration
	shutdownTimeout time.Duration
	tlsCert         string
	tlsKey          string
	watch           time.Duration
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve --suite SUITE [--addr 127.0.0.1:8080] [--token T]",
		Short: "Serve a suite over HTTP (docs/service.md)",
		Long: `Serve scores responses over HTTP against a suite: POST /v1/score,
POST /v1/score/batch, GET /v1/cases, GET /healthz, GET /metrics and the OpenAPI
document at GET /openapi.json (see docs/service.md).

With --token or CALLGRADE_TOKEN set, /v1/ and /metrics need
"Authorization: Bearer TOKEN". With --tls-cert and --tls-key it serves HTTPS.
SIGHUP reloads the suite and the certificate, keeping the old ones when the
new ones do not load (--watch reloads the suite when its files change); SIGINT and SIGTERM stop accepting connections and
finish the requests in flight before exiting.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.suites, "suite", nil, "suite file (repeat to layer files; later ones override earlier ones)")
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0: any free port)")
	fl.StringVar(&f.token, "token", "", "bearer token required by /v1/ and /metrics (default: $CALLGRADE_TOKEN)")
	formatFlag(fl, &f.format, "response format")
	fl.Int64Var(&f.maxBody, "max-body", 8<<20, "largest /v1/score request body, and longest batch line, in bytes")
	fl.Int64Var(&f.maxBatchBody, "max-batch-body", 1<<30, "largest /v1/score/batch request body, in bytes, as sent and once decompressed")
	fl.IntVar(&f.maxBatchLines, "max-batch-lines", 1_000_000, "most lines in a /v1/score/batch request body")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "time allowed for a request other than a batch; past it, a 503 and its work stopped")
	fl.DurationVar(&f.batchTimeout, "batch-timeout", 30*time.Minute, "time allowed for a batch")
	fl.DurationVar(&f.shutdownTimeout, "shutdown-timeout", time.Minute, "time allowed for the requests in flight on SIGINT or SIGTERM")
	fl.StringVar(&f.tlsCert, "tls-cert", "", "serve HTTPS with this PEM certificate (chain), with --tls-key; SIGHUP reloads both")
	fl.StringVar(&f.tlsKey, "tls-key", "", "the PEM private key of --tls-cert")
	fl.DurationVar(&f.watch, "watch", 0, "check the suite's files this often and reload once a change has held this long (0: only on SIGHUP)")
	cmd.MarkFlagRequired("suite")
	return cmd
}

func runServe(cmd *cobra.Command, f *serveFlags) error {
	format, err := parseFormat(cmd, f.format)
	if err != nil {
		return err
	}
	token := f.token
	if token == "" {
		token = os.Getenv("CALLGRADE_TOKEN")
	}
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return usageErr("--tls-cert and --tls-key go together")
	}
	var certs *certificate
	if f.tlsCert != "" {
		certs = &certificate{certFile: f.tlsCert, keyFile: f.tlsKey}
		if err := certs.load(); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
	// The same recipe as score: expressions, and the suite's plugins, which
	// the handler stops once a reload replaced the suite and its last
	// request is done.
	// Each load logs check's warnings once, as score prints them, so that
	// a reload that brings a call that cannot pass says so too.
	load := func() (*callgrade.Grader, error) {
		g, err := open(f.suites, format.options())
		if err == nil {
			for _, p := range g.Warnings() {
				log.Warn("the suite has a call that cannot pass (callgrade check says the same)", "warning", fmt.Sprint(p))
			}
		}
		return g, err
	}
	h, err := server.New(load, server.Options{
		Token: token, MaxBody: f.maxBody, MaxBatchBody: f.maxBatchBody, MaxBatchLines: f.maxBatchLines,
		Timeout: f.timeout, BatchTimeout: f.batchTimeout, Logger: log, Watch: f.watch,
	})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer h.Close()

	// Signals are caught before the address is announced, so that a
	// supervisor that reads it can signal at once.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)

	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	srv := h.HTTPServer(f.addr)
	served := make(chan error, 1)
	scheme := "http://"
	if certs != nil {
		scheme = "https://"
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certs.get}
		go func() { served <- srv.ServeTLS(ln, "", "") }()
	} else {
		go func() { served <- srv.Serve(ln) }()
	}
	log.Info("serving", "addr", scheme+ln.Addr().String(), "auth", token != "")

	for {
		select {
		case err := <-served:
			return &exitError{code: 2, err: err}
		case sig := <-sigs:
			if sig == syscall.SIGHUP {
				// Reload logs how it went; when it fails the old suite is
				// served on, and so is the old certificate.
				h.Reload()
				if certs != nil {
					if err := certs.load(); err != nil {
						log.Error("certificate not reloaded; serving the old one", "err", err)
					} else {
						log.Info("certificate reloaded", "cert", f.tlsCert)
					}
				}
				continue
			}
			log.Info("shutting down: finishing the requests in flight", "signal", sig.String())
			ctx, cancel := context.WithTimeout(context.Background(), f.shutdownTimeout)
			defer cancel()
			if err := srv.Shutdown(ctx); err != nil {
				srv.Close()
				return &exitError{code: 1, err: fmt.Errorf("requests still in flight after %v: %w", f.shutdownTimeout, err)}
			}
			if err := <-served; !errors.Is(err, http.ErrServerClosed) {
				return &exitError{code: 2, err: err}
			}
			log.Info("stopped")
			return nil
		}
	}
}

// certificate is the server's TLS certificate, read again on SIGHUP so that
// a renewed one is served without a restart; connections made before keep
// the one they began with.
type certificate struct {
	certFile, keyFile string
	cur               atomic.Pointer[tls.Certificate]
}

// load reads the key pair; on failure the one loaded before stays.
func (c *certificate) load() error {
	pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("--tls-cert %s, --tls-key %s: %w", c.certFile, c.keyFile, err)
	}
	c.cur.Store(&pair)
	return nil
}

func (c *certificate) get(*tls.ClientHelloInfo) (*tls.Certificate, error) { return c.cur.Load(), nil }
