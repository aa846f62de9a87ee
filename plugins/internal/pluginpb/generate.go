// Package pluginpb holds the protocol between callgrade and its comparator
// plugins: the gRPC service generated from plugins/proto/comparator.proto
// and the go-plugin handshake both sides must agree on.
//
// It is internal so that the generated code is not part of callgrade's API:
// Go plugins are written with plugins/sdk, and plugins in other languages
// generate their own code from the .proto, which stays in plugins/proto
// where they find it. The wire protocol is the .proto's, not this
// package's.
//
// Regenerate after editing comparator.proto (scripts/install-protoc.sh
// installs the tools):
//
//	PATH="$PATH:$(go env GOPATH)/bin" go generate ./plugins/...
package pluginpb

//go:generate protoc -I ../../proto --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative comparator.proto

// The go-plugin handshake. A plugin must find MagicCookieKey set to
// MagicCookieValue in its environment (else it is not run by callgrade)
// and answer with ProtocolVersion as the application protocol version in
// its handshake line. ProtocolVersion changes only when the service changes
// incompatibly.
const (
	MagicCookieKey   = "CALLGRADE_PLUGIN"
	MagicCookieValue = "e6c0f4f1-comparator-plugin"
	ProtocolVersion  = 1
	// PluginName is the name the Comparators service is dispensed under.
	PluginName = "comparators"
)
