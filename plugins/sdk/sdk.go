// Package sdk is for writing callgrade comparator plugins in Go. A plugin is
// a program whose main declares its comparators and calls Serve:
//
//	type params struct {
//		Km float64 `json:"km"`
//	}
//
//	func main() {
//		sdk.Serve(sdk.Comparator("within_km", "points at most km apart",
//			func(ctx context.Context, in sdk.Input, p params) (sdk.Result, error) {
//				d, err := distance(in.Expected, in.Actual)
//				if err != nil {
//					return sdk.Result{}, err
//				}
//				return sdk.Result{Equal: d <= p.Km, Message: fmt.Sprintf("%.1f km apart", d)}, nil
//			}))
//	}
//
// The params JSON Schema is derived from the params type (see Comparator)
// or declared with Def.WithSchema; callgrade checks every rule's params
// against it before scoring, and the comparator receives them decoded
// with encoding/json.
//
// Serve speaks hashicorp/go-plugin's gRPC protocol with automatic mutual
// TLS, forwards the standard logger (package log) to the host, which shows
// each line under the plugin's name, and exits by itself when the process
// that started it goes away.
package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/callgrade/callgrade/plugins/internal/pluginpb"
	"github.com/callgrade/callgrade/value"
)

// Input is one comparison, as a built-in rule would see it.
type Input struct {
	Path     string      // the field's path, e.g. "stops.0.location"
	Expected value.Value // the expected value, after normalisers
	Actual   value.Value // the actual value, after normalisers
	Tool     string      // the call's name
	// Args and ExpectedArgs are every actual and expected argument of the
	// call as JSON objects; parse them with value.Parse when needed.
	Args, ExpectedArgs string
}

// Result is a comparator's verdict.
type Result struct {
	Equal   bool
	Message string   // why the values differ; shown in the diff
	Score   *float64 // optional partial credit in [0, 1]
}

// Def is a comparator a plugin serves. Make one with Comparator.
type Def struct {
	name, doc, schema string
	compare           func(ctx context.Context, in Input, params string) (Result, error)
}

// Comparator declares a comparator named name (the part after the dot in
// `plugin: geo.within_km`) with a one-line doc. Its params, a JSON object
// in the suite, are decoded into P with encoding/json. Unless WithSchema
// says otherwise, the params schema is derived from P: a struct is an
// object whose properties are its exported fields (named by their json
// tags, described by a `doc` tag), each required unless tagged omitempty,
// and no others; a map or interface is any object.
//
// An error from fn, or a panic, makes that one comparison a plugin_error.
func Comparator[P any](name, doc string, fn func(ctx context.Context, in Input, p P) (Result, error)) Def {
	var cache sync.Map // params JSON -> P: a suite has few distinct params
	return Def{
		name:   name,
		doc:    doc,
		schema: schemaOf[P](),
		compare: func(ctx context.Context, in Input, params string) (Result, error) {
			var p P
			if c, ok := cache.Load(params); ok {
				p = c.(P)
			} else {
				if err := json.Unmarshal([]byte(params), &p); err != nil {
					return Result{}, fmt.Errorf("params: %w", err)
				}
				cache.Store(params, p)
			}
			return fn(ctx, in, p)
		},
	}
}

// WithSchema returns d with its params declared by a JSON Schema document
// instead of derived from the params type.
func (d Def) WithSchema(schema string) Def {
	d.schema = schema
	return d
}

// Serve serves the comparators to callgrade and returns only when the host
// ends the plugin. Run outside callgrade it prints a notice and exits 1.
func Serve(defs ...Def) {
	logger := hclog.New(&hclog.LoggerOptions{
		Level:      hclog.Trace,
		Output:     os.Stderr,
		JSONFormat: true,
	})
	log.SetFlags(0)
	log.SetOutput(logger.StandardWriter(&hclog.StandardLoggerOptions{InferLevels: true}))
	go exitWithParent(os.Getppid(), 250*time.Millisecond)
	cfg := ServeConfig(defs...)
	cfg.Logger = logger
	plugin.Serve(cfg)
	os.Exit(0)
}

// ServeConfig returns the go-plugin configuration that serves defs to
// callgrade, for a program that calls plugin.Serve itself: to give the gRPC
// server options of its own, say. Unlike Serve, it leaves the standard
// logger alone and does not exit when the parent process goes away.
//
// It hands out go-plugin's types only, so that the generated protocol code
// stays internal and can be regenerated without breaking plugins.
func ServeConfig(defs ...Def) *plugin.ServeConfig {
	return &plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  pluginpb.ProtocolVersion,
			MagicCookieKey:   pluginpb.MagicCookieKey,
			MagicCookieValue: pluginpb.MagicCookieValue,
		},
		Plugins:    plugin.PluginSet{pluginpb.PluginName: &grpcPlugin{impl: newServer(defs...)}},
		GRPCServer: plugin.DefaultGRPCServer,
	}
}

// exitWithParent ends the process once its parent has gone: the process is
// then adopted by another (init or a subreaper) and its parent id changes.
// go-plugin's server does not notice a host killed with SIGKILL.
func exitWithParent(ppid int, every time.Duration) {
	for range time.Tick(every) {
		if os.Getppid() != ppid {
			os.Exit(3)
		}
	}
}

// grpcPlugin is the go-plugin Plugin that serves a Comparators server.
type grpcPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	impl pluginpb.ComparatorsServer
}

// GRPCServer registers the Comparators service.
func (p *grpcPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pluginpb.RegisterComparatorsServer(s, p.impl)
	return nil
}

// GRPCClient is not supported: a plugin is never a client.
func (p *grpcPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, fmt.Errorf("the comparator plugin sdk serves only")
}

// newServer returns the Comparators service for defs.
func newServer(defs ...Def) pluginpb.ComparatorsServer {
	s := &server{defs: make(map[string]Def, len(defs))}
	for _, d := range defs {
		s.defs[d.name] = d
		s.order = append(s.order, d.name)
	}
	return s
}

type server struct {
	pluginpb.UnimplementedComparatorsServer
	defs  map[string]Def
	order []string
}

func (s *server) Describe(context.Context, *pluginpb.DescribeRequest) (*pluginpb.DescribeResponse, error) {
	resp := &pluginpb.DescribeResponse{}
	for _, n := range s.order {
		d := s.defs[n]
		resp.Comparators = append(resp.Comparators, &pluginpb.ComparatorInfo{Name: d.name, Doc: d.doc, ParamsSchema: d.schema})
	}
	return resp, nil
}

// parallelFrom is the batch size from which items are compared on several
// goroutines.
const parallelFrom = 64

func (s *server) CompareBatch(ctx context.Context, req *pluginpb.CompareBatchRequest) (*pluginpb.CompareBatchResponse, error) {
	items := req.Items
	out := make([]*pluginpb.CompareResult, len(items))
	workers := min(runtime.GOMAXPROCS(0), (len(items)+parallelFrom-1)/parallelFrom)
	if workers <= 1 {
		for i, it := range items {
			out[i] = s.compare(ctx, it)
		}
		return &pluginpb.CompareBatchResponse{Results: out}, nil
	}
	var wg sync.WaitGroup
	chunk := (len(items) + workers - 1) / workers
	for lo := 0; lo < len(items); lo += chunk {
		hi := min(lo+chunk, len(items))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				out[i] = s.compare(ctx, items[i])
			}
		}()
	}
	wg.Wait()
	return &pluginpb.CompareBatchResponse{Results: out}, nil
}

func (s *server) compare(ctx context.Context, it *pluginpb.CompareItem) (res *pluginpb.CompareResult) {
	d, ok := s.defs[it.Comparator]
	if !ok {
		return &pluginpb.CompareResult{Error: fmt.Sprintf("no comparator %q", it.Comparator)}
	}
	if err := ctx.Err(); err != nil {
		return &pluginpb.CompareResult{Error: err.Error()}
	}
	in := Input{Path: it.Path, Tool: it.Tool, Args: it.Args, ExpectedArgs: it.ExpectedArgs}
	var err error
	if in.Expected, err = value.Parse(it.Expected); err != nil {
		return &pluginpb.CompareResult{Error: "expected value: " + err.Error()}
	}
	if in.Actual, err = value.Parse(it.Actual); err != nil {
		return &pluginpb.CompareResult{Error: "actual value: " + err.Error()}
	}
	params := it.Params
	if params == "" {
		params = "{}"
	}
	defer func() {
		if x := recover(); x != nil {
			res = &pluginpb.CompareResult{Error: fmt.Sprintf("comparator %s panicked: %v", d.name, x)}
		}
	}()
	r, err := d.compare(ctx, in, params)
	if err != nil {
		return &pluginpb.CompareResult{Error: err.Error()}
	}
	return &pluginpb.CompareResult{Equal: r.Equal, Message: r.Message, Score: r.Score}
}
