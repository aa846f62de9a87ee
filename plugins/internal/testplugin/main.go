// Command testplugin is a comparator plugin that misbehaves on request, for
// the plugins package's fault tests. Its comparator "eq" compares by
// value.Equal, except that an actual value of "crash!" makes the process
// exit, "hang!" makes it never answer, "long!" and "huge!" make it answer
// a message of 100 KiB and of 20 MiB, and "slow!" makes it answer after a
// minute, or at once when the comparison is cancelled: it then appends a
// line to the file of -cancelled. -mode changes the whole plugin:
//
//	ok          behave (the default)
//	unavailable answer a batch holding the actual value "unavailable!"
//	            with the gRPC status UNAVAILABLE, as a plugin whose own
//	            back end is down may
//	describe-exit
//	            write a line to its stderr and exit when asked Describe
//	wrongcount  answer one result more than asked
//	garbage     answer CompareBatch with bytes that are not a message
//	exit        exit before the handshake
//
// -pidfile writes the process id to a file.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/callgrade/callgrade/plugins/internal/pluginpb"
	"github.com/callgrade/callgrade/plugins/sdk"
	"github.com/callgrade/callgrade/value"
)

func main() {
	mode := flag.String("mode", "ok", "ok, unavailable, describe-exit, wrongcount, garbage or exit")
	pidfile := flag.String("pidfile", "", "write the process id here")
	cancelled := flag.String("cancelled", "", "append a line here for each \"slow!\" comparison cancelled")
	flag.Parse()
	if *pidfile != "" {
		if err := os.WriteFile(*pidfile, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	eq := sdk.Comparator("eq", "equal values; \"crash!\" crashes, \"hang!\" hangs",
		func(ctx context.Context, in sdk.Input, _ map[string]any) (sdk.Result, error) {
			switch in.Actual.Str() {
			case "crash!":
				os.Exit(7)
			case "hang!":
				<-make(chan struct{})
			case "long!":
				return sdk.Result{Message: strings.Repeat("é", 50<<10)}, nil
			case "huge!":
				return sdk.Result{Message: strings.Repeat("x", 20<<20)}, nil
			case "slow!":
				select {
				case <-time.After(time.Minute):
				case <-ctx.Done():
					if *cancelled != "" {
						f, err := os.OpenFile(*cancelled, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
						if err == nil {
							fmt.Fprintln(f, "cancelled")
							f.Close()
						}
					}
					return sdk.Result{}, ctx.Err()
				}
			}
			return sdk.Result{Equal: value.Equal(in.Expected, in.Actual)}, nil
		})
	switch *mode {
	case "ok":
		sdk.Serve(eq)
	case "unavailable":
		serve(eq, grpc.ChainUnaryInterceptor(unavailable))
	case "describe-exit":
		serve(eq, grpc.ChainUnaryInterceptor(describeExit))
	case "exit":
		os.Exit(1)
	case "wrongcount":
		serve(eq, grpc.ChainUnaryInterceptor(oneMoreResult))
	case "garbage":
		serve(eq, grpc.ForceServerCodec(garbageCodec{}))
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", *mode)
		os.Exit(2)
	}
}

// serve serves def as sdk.Serve does, on a gRPC server with opt added: the
// way a plugin author adjusts the server, and the way this plugin breaks it.
func serve(def sdk.Def, opt grpc.ServerOption) {
	cfg := sdk.ServeConfig(def)
	cfg.GRPCServer = func(opts []grpc.ServerOption) *grpc.Server {
		return grpc.NewServer(append(opts, opt)...)
	}
	plugin.Serve(cfg)
}

// unavailable answers a CompareBatch holding the actual value
// "unavailable!" with the status UNAVAILABLE.
func unavailable(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if r, ok := req.(*pluginpb.CompareBatchRequest); ok {
		for _, it := range r.Items {
			if it.Actual == `"unavailable!"` {
				return nil, status.Error(codes.Unavailable, "back end down")
			}
		}
	}
	return handler(ctx, req)
}

// describeExit writes why to the process's stderr itself (go-plugin has
// os.Stderr go over its stdio stream, which may not arrive before the
// exit) and exits, when asked Describe.
func describeExit(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if _, ok := req.(*pluginpb.DescribeRequest); ok {
		syscall.Write(2, []byte("FATAL: cannot open model file /x.db\n"))
		os.Exit(3)
	}
	return handler(ctx, req)
}

// oneMoreResult answers every CompareBatch with one result more than asked.
func oneMoreResult(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if r, ok := resp.(*pluginpb.CompareBatchResponse); ok && err == nil {
		r.Results = append(r.Results, &pluginpb.CompareResult{Equal: true})
	}
	return resp, err
}

// garbageCodec encodes every CompareBatchResponse as bytes that do not
// decode, and everything else as protobuf.
type garbageCodec struct{}

func (garbageCodec) Marshal(v any) ([]byte, error) {
	if _, ok := v.(*pluginpb.CompareBatchResponse); ok {
		return []byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 'g', 'a', 'r', 'b', 'a', 'g', 'e'}, nil
	}
	return proto.Marshal(v.(proto.Message))
}

func (garbageCodec) Unmarshal(data []byte, v any) error {
	return proto.Unmarshal(data, v.(proto.Message))
}

func (garbageCodec) Name() string { return "proto" }
