package response

import (
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

var mcpFormat = api{
	name:   format.MCP,
	emits:  emitsRequest,
	read:   readRequest,
	reader: single{},
}

func isJSONRPC(o value.Value) bool { return o.Has("jsonrpc") }

// requestPlan reads the params of a tools/call request; another JSON-RPC
// message (a notification, a response, another method) has no call.
func requestPlan(o value.Value, _ extraction) plan {
	if !isToolsCall(o) {
		return plan{}
	}
	params, ok := o.Get("params")
	if !ok {
		return plan{bad: "params is missing"}
	}
	return plan{one: params, hasOne: true, onePath: "params", oneMode: optionalObject}
}

func isToolsCall(o value.Value) bool {
	m, _ := o.Get("method")
	return m.Kind() == value.String && m.Str() == "tools/call"
}

// emitsRequest passes over the JSON-RPC messages of a batch that are not
// tools/call requests, but not an element that is no JSON-RPC message,
// which may be another API's call.
func emitsRequest(e value.Value) bool { return isToolsCall(e) || !e.Has("jsonrpc") }

func readRequest(x extraction, e value.Value, at loc, i int) Call {
	if !isToolsCall(e) {
		return fail(i, "", at.at("")+" is not a tools/call request")
	}
	params, ok := e.Get("params")
	if !ok {
		return fail(i, "", at.at("params")+" is missing")
	}
	return readCall(params, at, "params", "arguments", optionalObject, i, x)
}
