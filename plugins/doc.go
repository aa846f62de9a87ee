// Package plugins runs comparator plugins: programs, declared under a
// suite's `plugins`, that serve `plugin: name.comparator` rules out of
// process over hashicorp/go-plugin's gRPC transport (see plugins/proto for
// the protocol and plugins/sdk for writing one in Go).
//
// Open starts every declared plugin once and asks each for its comparators;
// Host.Comparator is the rules.Extensions.Plugin hook, so a host plugs into
// the engine with
//
//	engine.Options{Extensions: rules.Extensions{Plugin: host.Comparator}}
//
// and Close stops every plugin process.
//
// # Batching
//
// One gRPC call costs far more than one comparison, so the comparators a
// host hands out never call the plugin one value at a time. Concurrent
// Compare calls on the comparators of one plugin are queued, and the queue
// is sent as one CompareBatch when it holds 1,000 items or 200µs after its
// first item, whichever comes first; each caller blocks until its own
// result is back. A batch never exceeds gRPC's 4 MiB message limit. Since a caller blocks on I/O, the comparators report
// Blocking() true, which tells an engine to score many cases at once.
//
// # Faults
//
// A plugin that is missing, not executable, fails its checksum or does not
// start is an error of Open, naming the plugin, its command and where the
// suite declares it. Once running, nothing a plugin does fails the host: a
// comparison the plugin cannot answer (a crash, a hang past the timeout, a
// wrong number of results, bytes that are not the protocol, an error of its
// own) becomes an Outcome with ErrKind results.PluginError, for the items of
// the affected batch only; after a crash or a hang, those items are sent
// again one at a time, alone on the restarted process, so that only the
// one that brings it down again fails. A plugin that crashed or hung is
// restarted, at most Options.MaxRestarts times within any
// Options.RestartWindow (ten minutes; the second crash of an item sent
// again alone is not counted), after a backoff that doubles from 100ms; a
// plugin that needs more is given up on, and its comparisons then fail at
// once.
//
// # Security
//
// With a sha256 in the suite the executable is read once into a private
// copy (a directory only the user can enter), hashed as it is copied, and
// every start runs that copy: a mismatch never starts, and a file swapped
// in at the command's path after the check never runs. Connections use go-plugin's automatic
// mutual TLS: the host hands the plugin a client certificate and expects
// one back in the handshake line. A plugin that answers without one (the
// Python example does) is accepted only on a Unix socket, whose directory
// only the user can enter, and is then spoken to without TLS; such a
// plugin answering with a TCP address is refused.
package plugins
