#!/usr/bin/python3
"""callgrade-duration: a callgrade comparator plugin written in Python.

Its comparator same_duration accepts two durations that are equal whatever
their units: "1 hour" == "60 minutes" == "PT1H" == "1h" == 3600 (a bare
number counts in params.number_unit, seconds by default). params.tolerance_seconds
allows a difference.

It speaks hashicorp/go-plugin's gRPC protocol without go-plugin: it checks
the magic cookie, listens on a Unix socket, prints the handshake line, and
serves the Comparators service with go-plugin's health, controller and stdio
services. It does not do go-plugin's automatic mutual TLS: callgrade accepts
that on a Unix socket only (see docs/plugins.md).

Needs python3 with grpcio and protobuf (Debian: python3-grpcio python3-protobuf).
"""

import datetime
import json
import os
import re
import signal
import sys
import tempfile
import threading
import time
from concurrent import futures

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))

import grpc  # noqa: E402
import comparator_pb2 as pb  # noqa: E402
import goplugin_pb2  # noqa: E402
import health_pb2  # noqa: E402

MAGIC_COOKIE_KEY = "CALLGRADE_PLUGIN"
MAGIC_COOKIE_VALUE = "e6c0f4f1-comparator-plugin"
APP_PROTOCOL_VERSION = 1  # plugins/internal/pluginpb: ProtocolVersion
CORE_PROTOCOL_VERSION = 1  # go-plugin's

# ---------------------------------------------------------------- comparator

UNITS = {
    "ms": 0.001, "msec": 0.001, "millisecond": 0.001,
    "s": 1, "sec": 1, "second": 1,
    "m": 60, "min": 60, "minute": 60,
    "h": 3600, "hr": 3600, "hour": 3600,
    "d": 86400, "day": 86400,
    "w": 604800, "wk": 604800, "week": 604800,
}
WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "half an": 0.5, "half a": 0.5}
TERM = re.compile(r"\s*(\d+(?:\.\d+)?|\.\d+|half an?|an?|one|two|three)\s*([a-z]+)\s*(?:,|and)?", re.I)
ISO = re.compile(r"^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?"
                 r"(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$", re.I)

PARAMS_SCHEMA = {
    "type": "object",
    "properties": {
        "tolerance_seconds": {"type": "number", "minimum": 0,
                              "description": "the largest difference accepted, in seconds"},
        "number_unit": {"enum": sorted(set(UNITS)),
                        "description": "the unit of a bare number (default s)"},
    },
    "additionalProperties": False,
}


def seconds(v, number_unit):
    """Returns the duration v (a JSON value) in seconds, or raises ValueError."""
    if isinstance(v, bool) or v is None:
        raise ValueError("%s is not a duration" % json.dumps(v))
    if isinstance(v, (int, float)):
        return v * UNITS[number_unit]
    if not isinstance(v, str):
        raise ValueError("%s is not a duration" % json.dumps(v))
    s = v.strip()
    m = ISO.match(s)
    if m and s.upper() not in ("P", "PT"):
        w, d, h, mi, se = (float(x) if x else 0 for x in m.groups())
        return w * 604800 + d * 86400 + h * 3600 + mi * 60 + se
    try:
        return float(s) * UNITS[number_unit]
    except ValueError:
        pass
    total, pos, n = 0.0, 0, 0
    for t in TERM.finditer(s):
        if t.start() != pos:
            break
        qty, unit = t.group(1).lower(), t.group(2).lower()
        if unit not in UNITS and unit.endswith("s"):
            unit = unit[:-1]  # plurals
        if unit not in UNITS:
            raise ValueError("%s: unknown unit %r" % (json.dumps(v), t.group(2)))
        total += (WORDS[qty] if qty in WORDS else float(qty)) * UNITS[unit]
        pos, n = t.end(), n + 1
    if n == 0 or s[pos:].strip():
        raise ValueError("%s is not a duration" % json.dumps(v))
    return total


def same_duration(expected, actual, params):
    unit = params.get("number_unit", "s")
    tol = params.get("tolerance_seconds", 0)
    try:
        e = seconds(expected, unit)
    except ValueError as err:
        return pb.CompareResult(error="expected value: %s" % err)  # the suite's mistake
    try:
        a = seconds(actual, unit)
    except ValueError as err:
        return pb.CompareResult(equal=False, message=str(err))  # the model's mistake
    if abs(a - e) <= tol + 1e-9 * max(abs(a), abs(e)):
        return pb.CompareResult(equal=True)
    return pb.CompareResult(equal=False, message="%gs is not %gs" % (a, e))


COMPARATORS = {
    "same_duration": ("durations equal whatever their units: \"1 hour\" == \"60 minutes\" == \"PT1H\"",
                      PARAMS_SCHEMA, same_duration),
}

# ------------------------------------------------------------------ services


def log(level, message, **kv):
    """Writes one hclog JSON line to stderr; the host shows it under the plugin's name."""
    kv["@level"] = level
    kv["@message"] = message
    kv["@timestamp"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    sys.stderr.write(json.dumps(kv) + "\n")
    sys.stderr.flush()


def describe(request, context):
    return pb.DescribeResponse(comparators=[
        pb.ComparatorInfo(name=name, doc=doc, params_schema=json.dumps(schema))
        for name, (doc, schema, _) in COMPARATORS.items()])


def compare_batch(request, context):
    results = []
    params_cache = {}
    for item in request.items:
        c = COMPARATORS.get(item.comparator)
        if c is None:
            results.append(pb.CompareResult(error="no comparator %r" % item.comparator))
            continue
        try:
            params = params_cache.get(item.params)
            if params is None:
                params = params_cache[item.params] = json.loads(item.params or "{}")
            results.append(c[2](json.loads(item.expected), json.loads(item.actual), params))
        except Exception as err:  # one item's failure is that item's error
            results.append(pb.CompareResult(error="%s: %s" % (type(err).__name__, err)))
    return pb.CompareBatchResponse(results=results)


def unary(fn, req, resp):
    return grpc.unary_unary_rpc_method_handler(fn, request_deserializer=req.FromString,
                                               response_serializer=resp.SerializeToString)


def serve():
    if os.environ.get(MAGIC_COOKIE_KEY) != MAGIC_COOKIE_VALUE:
        sys.stderr.write("This program is a callgrade plugin; callgrade starts it "
                         "(declare it under `plugins` in a suite).\n")
        sys.exit(1)
    versions = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", str(APP_PROTOCOL_VERSION)).split(",")
    if str(APP_PROTOCOL_VERSION) not in versions:
        sys.stderr.write("callgrade speaks plugin protocol %s; this plugin speaks %d\n"
                         % (",".join(versions), APP_PROTOCOL_VERSION))
        sys.exit(1)
    # Ctrl-C reaches the whole process group; the host ends its plugins.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    stop = threading.Event()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8),
                         options=[("grpc.max_receive_message_length", 64 << 20)])

    def shutdown(request, context):
        stop.set()
        threading.Thread(target=lambda: (time.sleep(0.05), server.stop(grace=1))).start()
        return goplugin_pb2.Empty()

    def stream_stdio(request, context):
        # This plugin never writes to stdout after the handshake, and its
        # stderr goes to the host directly: the stream stays empty.
        stop.wait()
        return iter(())

    def health(request, context):
        return health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)

    server.add_generic_rpc_handlers((
        grpc.method_handlers_generic_handler("callgrade.plugin.v1.Comparators", {
            "Describe": unary(describe, pb.DescribeRequest, pb.DescribeResponse),
            "CompareBatch": unary(compare_batch, pb.CompareBatchRequest, pb.CompareBatchResponse),
        }),
        grpc.method_handlers_generic_handler("grpc.health.v1.Health", {
            "Check": unary(health, health_pb2.HealthCheckRequest, health_pb2.HealthCheckResponse),
        }),
        grpc.method_handlers_generic_handler("plugin.GRPCController", {
            "Shutdown": unary(shutdown, goplugin_pb2.Empty, goplugin_pb2.Empty),
        }),
        grpc.method_handlers_generic_handler("plugin.GRPCStdio", {
            "StreamStdio": grpc.unary_stream_rpc_method_handler(
                lambda req, ctx: stream_stdio(req, ctx) or iter(()),
                request_deserializer=goplugin_pb2.Empty.FromString,
                response_serializer=goplugin_pb2.StdioData.SerializeToString),
        }),
    ))

    # The host names a directory for the socket, which it removes once the
    # plugin has exited, crashed or not; without one, make our own (mode 0700).
    sock_dir = os.environ.get("PLUGIN_UNIX_SOCKET_DIR")
    own_dir = not sock_dir
    if own_dir:
        sock_dir = tempfile.mkdtemp(prefix="callgrade-plugin-")
    sock = os.path.join(sock_dir, "plugin.sock")
    server.add_insecure_port("unix:" + sock)
    server.start()

    # Exit when the host goes, even if it was killed and never said so.
    parent = os.getppid()

    def watch_parent():
        while not stop.wait(0.25):
            if os.getppid() != parent:
                log("warn", "host has gone; exiting")
                os._exit(3)
    threading.Thread(target=watch_parent, daemon=True).start()

    # The handshake: CORE-VERSION|APP-VERSION|NETWORK|ADDRESS|PROTOCOL
    sys.stdout.write("%d|%d|unix|%s|grpc\n" % (CORE_PROTOCOL_VERSION, APP_PROTOCOL_VERSION, sock))
    sys.stdout.flush()
    log("debug", "serving", socket=sock)
    try:
        server.wait_for_termination()
    finally:
        stop.set()
        # gRPC may have removed the socket already.
        try:
            os.unlink(sock)
        except OSError:
            pass
        if own_dir:
            try:
                os.rmdir(sock_dir)
            except OSError:
                pass


if __name__ == "__main__":
    serve()
