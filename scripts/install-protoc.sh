#!/usr/bin/env bash
# Installs what `go generate ./plugins/...` needs: protoc (Debian's
# protobuf-compiler) and the Go generators at the versions the committed code
# was made with. protoc-gen-go follows go.mod's google.golang.org/protobuf;
# protoc-gen-go-grpc v1.3.0 writes code for google.golang.org/grpc >= 1.52.
# The generated code for the Python example plugin needs only protoc.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v protoc >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq protobuf-compiler >/dev/null
  else
    echo "install protoc (package protobuf-compiler, or https://github.com/protocolbuffers/protobuf/releases) and run again" >&2
    exit 1
  fi
fi

pbver=$(go list -m -f '{{.Version}}' google.golang.org/protobuf)
go install "google.golang.org/protobuf/cmd/protoc-gen-go@${pbver}"
go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.3.0

echo "protoc: $(protoc --version); generators in $(go env GOPATH)/bin (put it on PATH)"
