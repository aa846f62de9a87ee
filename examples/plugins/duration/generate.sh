#!/usr/bin/env bash
# Regenerates gen/*_pb2.py, the protobuf messages the plugin uses, with
# protoc (Debian: protobuf-compiler; scripts/install-protoc.sh installs it).
# The gRPC services are wired by hand in plugin.py, so no grpc_tools plugin
# is needed.
set -euo pipefail
cd "$(dirname "$0")"
protoc -I ../../../plugins/proto -I proto --python_out=gen comparator.proto goplugin.proto health.proto
