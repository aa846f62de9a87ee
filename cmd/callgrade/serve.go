package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/callgrade/callgrade/response"
	"github.com/callgrade/callgrade/server"
)

type serveFlags struct {
	suites          []string
	addr            string
	token           string
	format          string
	maxBody         int64
	maxBatchBody    int64
	timeout         time.Duration
	batchTimeout    time.Duration
	shutdownTimeout time.Duration
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
"Authorization: Bearer TOKEN". SIGHUP reloads the suite, keeping the old one
when the new one does not load; SIGINT and SIGTERM stop accepting connections
and finish the requests in flight before exiting.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.suites, "suite", nil, "suite file (repeat to layer files; later ones override earlier ones)")
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0: any free port)")
	fl.StringVar(&f.token, "token", "", "bearer token required by /v1/ and /metrics (default: $CALLGRADE_TOKEN)")
	fl.StringVar(&f.format, "format", "", "response format: openai, responses, anthropic, gemini or calls (default: detect each)")
	fl.Int64Var(&f.maxBody, "max-body", 8<<20, "largest /v1/score request body, in bytes")
	fl.Int64Var(&f.maxBatchBody, "max-batch-body", 1<<30, "largest /v1/score/batch request body, in bytes")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "time allowed for a request other than a batch")
	fl.DurationVar(&f.batchTimeout, "batch-timeout", 30*time.Minute, "time allowed for a batch")
	fl.DurationVar(&f.shutdownTimeout, "shutdown-timeout", time.Minute, "time allowed for the requests in flight on SIGINT or SIGTERM")
	cmd.MarkFlagRequired("suite")
	return cmd
}

func runServe(cmd *cobra.Command, f *serveFlags) error {
	format, err := response.ParseFormat(f.format)
	if err != nil {
		return usageErr("--format: %w", err)
	}
	token := f.token
	if token == "" {
		token = os.Getenv("CALLGRADE_TOKEN")
	}
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
	// The same recipe as score: expressions, and the suite's plugins, which
	// the handler stops once a reload replaced the suite and its last
	// request is done.
	load := func() (*server.Suite, error) {
		c, err := open(f.suites, format)
		if err != nil {
			return nil, err
		}
		return &server.Suite{Suite: c.suite, Engine: c.engine, Options: c.opts, Close: c.Close}, nil
	}
	h, err := server.New(load, server.Options{
		Token: token, MaxBody: f.maxBody, MaxBatchBody: f.maxBatchBody,
		Timeout: f.timeout, BatchTimeout: f.batchTimeout, Logger: log,
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
	go func() { served <- srv.Serve(ln) }()
	log.Info("serving", "addr", "http://"+ln.Addr().String(), "auth", token != "")

	for {
		select {
		case err := <-served:
			return &exitError{code: 2, err: err}
		case sig := <-sigs:
			if sig == syscall.SIGHUP {
				// Reload logs how it went; when it fails the old suite is
				// served on.
				h.Reload()
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
