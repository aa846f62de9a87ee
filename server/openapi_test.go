package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

type openAPIDoc struct {
	OpenAPI string                                 `json:"openapi"`
	Paths   map[string]map[string]openAPIOperation `json:"paths"`
}

type openAPIOperation struct {
	Security    []map[string][]string `json:"security"`
	RequestBody *struct {
		Content map[string]struct {
			Example any `json:"example"`
		} `json:"content"`
	} `json:"requestBody"`
	Responses map[string]struct {
		Content map[string]json.RawMessage `json:"content"`
	} `json:"responses"`
}

// pointer escapes a JSON Pointer segment.
func pointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// openAPIValidator returns a function that validates a JSON text with the
// schema at a JSON pointer into /openapi.json.
func openAPIValidator(t *testing.T) func(ptr, body string) error {
	t.Helper()
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(openAPI()))
	if err != nil {
		t.Fatal(err)
	}
	comp := jsonschema.NewCompiler()
	const url = "mem://openapi.json"
	if err := comp.AddResource(url, raw); err != nil {
		t.Fatal(err)
	}
	return func(ptr, body string) error {
		t.Helper()
		s, err := comp.Compile(url + "#" + ptr)
		if err != nil {
			t.Fatalf("schema %s: %v", ptr, err)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
		if err != nil {
			return err
		}
		return s.Validate(v)
	}
}

// TestOpenAPI walks every operation of /openapi.json: the handler answers
// each one, with and without the token, with a status the document lists,
// and a body that its schema accepts; the example requests are valid; and
// every route the handler serves is in the document.
func TestOpenAPI(t *testing.T) {
	var doc openAPIDoc
	if err := json.Unmarshal(openAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	validate := openAPIValidator(t)

	const token = "t0ken"
	h := newHandler(t, Options{Token: token})
	base, _ := start(t, h)
	for _, tokened := range []bool{true, false} {
		for path, ops := range doc.Paths {
			for method, op := range ops {
				checkOperation(t, validate, base, token, tokened, path, method, op)
			}
		}
	}

	// Errors have their documented shape too.
	for _, c := range []struct{ path, body, code string }{
		{"/v1/score", `{"id": "nope", "response": []}`, "404"},
		{"/v1/score", `{`, "400"},
	} {
		a := do(t, "POST", base+c.path, token, "", c.body)
		if fmt.Sprint(a.status) != c.code {
			t.Errorf("%s %s: %d", c.path, c.body, a.status)
		}
		if err := validate("/paths/"+pointer(c.path)+"/post/responses/"+c.code+"/content/application~1json/schema", a.body); err != nil {
			t.Errorf("%s: %v", a.body, err)
		}
	}

	// Every route the handler serves is documented, with every method.
	checkRoutesDocumented(t, h, doc)
}

// checkOperation calls one operation of the document on the handler at
// base, with the token or without, and checks its answer against the
// document: the status is listed, the Content-Type is documented for it
// and the body matches its schema; an example request must be valid
// against its schema too.
func checkOperation(t *testing.T, validate func(ptr, body string) error, base, token string, tokened bool, path, method string, op openAPIOperation) {
	t.Helper()
	name := fmt.Sprintf("%s %s (token %v)", strings.ToUpper(method), path, tokened)
	body, contentType := "", ""
	if op.RequestBody != nil {
		for ct, media := range op.RequestBody.Content {
			contentType = ct
			if s, ok := media.Example.(string); ok {
				body = s
			} else {
				b, _ := json.Marshal(media.Example)
				body = string(b)
				reqPtr := "/paths/" + pointer(path) + "/" + method + "/requestBody/content/" + pointer(ct) + "/schema"
				if err := validate(reqPtr, body); err != nil {
					t.Errorf("%s: the example request is not valid against its schema: %v", name, err)
				}
			}
		}
	}
	tok := ""
	if tokened {
		tok = token
	}
	a := do(t, strings.ToUpper(method), base+path, tok, contentType, body)
	code := fmt.Sprint(a.status)
	resp, ok := op.Responses[code]
	if !ok {
		t.Errorf("%s: status %s is not in the document: %s", name, code, a.body)
		return
	}
	secured := len(op.Security) > 0
	if tokened && a.status != 200 {
		t.Errorf("%s: %d with the token: %s", name, a.status, a.body)
	}
	if !tokened && secured != (a.status == 401) {
		t.Errorf("%s: secured %v in the document, but %d without the token", name, secured, a.status)
	}
	ct, _, _ := strings.Cut(a.header.Get("Content-Type"), ";")
	if _, ok := resp.Content[ct]; !ok {
		t.Errorf("%s: Content-Type %s is not documented for %s", name, ct, code)
		return
	}
	ptr := "/paths/" + pointer(path) + "/" + method + "/responses/" + code + "/content/" + pointer(ct) + "/schema"
	switch ct {
	case "application/json":
		if err := validate(ptr, a.body); err != nil {
			t.Errorf("%s: the answer does not match its schema: %v\n%s", name, err, a.body)
		}
	case "application/x-ndjson":
		for line := range strings.SplitSeq(strings.TrimSuffix(a.body, "\n"), "\n") {
			if err := validate(ptr, line); err != nil {
				t.Errorf("%s: a line does not match its schema: %v\n%s", name, err, line)
			}
		}
	}
}

// checkRoutesDocumented checks that every route h serves is in the
// document, with every method, and nothing else is.
func checkRoutesDocumented(t *testing.T, h *Handler, doc openAPIDoc) {
	t.Helper()
	for _, rt := range h.routes {
		ops, ok := doc.Paths[rt.path]
		if !ok {
			t.Errorf("%s is served but not in the document", rt.path)
			continue
		}
		var methods []string
		for m := range rt.methods {
			methods = append(methods, strings.ToLower(m))
			if _, ok := ops[strings.ToLower(m)]; !ok {
				t.Errorf("%s %s is served but not in the document", m, rt.path)
			}
		}
		for m := range ops {
			if !slices.Contains(methods, m) {
				t.Errorf("%s %s is documented but not served", m, rt.path)
			}
		}
	}
	if len(h.routes) != len(doc.Paths) {
		t.Errorf("%d routes served, %d documented", len(h.routes), len(doc.Paths))
	}
}

// The served document lists the formats of package response's table, in
// its order, each described; openapi.json itself leaves the list empty,
// so that adding a format needs no edit there.
func TestOpenAPIFormats(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas struct {
				Format struct {
					Enum         []string          `json:"enum"`
					Descriptions map[string]string `json:"x-enumDescriptions"`
				}
			}
		}
	}
	if err := json.Unmarshal(openAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	f := doc.Components.Schemas.Format
	var want []string
	for _, info := range format.All() {
		want = append(want, info.Name)
		if d := f.Descriptions[info.Name]; d != info.Description {
			t.Errorf("%s is described as %q, want %q", info.Name, d, info.Description)
		}
	}
	if !slices.Equal(f.Enum, want) || len(f.Descriptions) != len(want) {
		t.Errorf("Format enum = %q, %d descriptions; want %q", f.Enum, len(f.Descriptions), want)
	}
	if !bytes.Contains(openAPISource, []byte(`"enum": [],`)) {
		t.Errorf("openapi.json lists formats of its own; the server fills them in")
	}
	if bytes.Contains(openAPI(), []byte(`"enum": [],`)) {
		t.Errorf("the served document has an empty enum")
	}
}

// TestCasesOfRuns: GET /v1/cases shows a case written with steps by its
// steps' tools (not as "expected": [], which says no call is expected),
// with what else a run case says, and a case's calls mode when it is not
// ordered; the answer is valid against the document's Cases schema, for
// the agent example and for a suite with every key.
func TestCasesOfRuns(t *testing.T) {
	validate := openAPIValidator(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "suite.yaml")
	writeTestFile(t, file, `version: 1
tools:
  - {name: find_order, parameters: {type: object, properties: {email: {type: string}}}}
  - {name: refund, parameters: {type: object, properties: {order_id: {type: string}, amount: {type: number}}}}
  - {name: delete_account, parameters: {type: object, properties: {}}}
defaults:
  calls: in_order
cases:
  - id: run
    steps:
      - {name: find_order, arguments: {email: a@example.com}, result: {id: {type: string}}}
      - {name: refund, arguments: {amount: 25}}
      - {name: refund, arguments: {amount: 5}}
    never: [delete_account, {name: refund, arguments: {amount: 1000}}]
    max_calls: 0
    final: {one_of: [done, "refunded"]}
  - id: no-steps
    steps: []
    calls: ordered
  - id: never-only
    expected: {name: find_order, arguments: {email: a@example.com}}
    never: [delete_account]
    calls: unordered
  - id: plain
    expected: [{name: refund, arguments: {amount: 1}}, {name: find_order, arguments: {email: b@example.com}}]
  - id: relevance
    calls: any
    min_calls: 1
    metadata: {category: relevance, hard: true, turns: 1}
  - id: answer
    calls: any
    final: {regex: Paris}
    final_text: answer
`)
	tests := []struct {
		name, suite string
		want        string // the "cases" member
	}{
		{"every key", file, `[` +
			`{"id":"run","steps":["find_order","refund","refund"],"calls":"in_order","never":["delete_account","refund"],"max_calls":0,"final":{"one_of":["done","refunded"]}},` +
			`{"id":"no-steps","steps":[]},` +
			`{"id":"never-only","expected":["find_order"],"calls":"unordered","never":["delete_account"]},` +
			`{"id":"plain","expected":["refund","find_order"],"calls":"in_order"},` +
			`{"id":"relevance","expected":[],"calls":"any","min_calls":1,"metadata":{"category":"relevance","hard":true,"turns":1}},` +
			`{"id":"answer","expected":[],"calls":"any","final":{"regex":"Paris"},"final_text":"answer"}]`},
		{"the agent example", "../examples/agent/suite.yaml", `[` +
			`{"id":"refund-pass","steps":["find_order","refund"],"calls":"in_order","never":["delete_account"],"max_calls":4,"final":{"regex":"(?i)refund"}},` +
			`{"id":"refund-wrong-reference","steps":["find_order","refund"],"calls":"in_order","never":["delete_account"],"max_calls":4,"final":{"regex":"(?i)refund"}},` +
			`{"id":"refund-forbidden-call","steps":["find_order","refund"],"calls":"in_order","never":["delete_account"],"max_calls":4,"final":{"regex":"(?i)refund"}}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, _ := start(t, newHandler(t, Options{}, tt.suite))
			a := do(t, "GET", base+"/v1/cases", "", "", "")
			if a.status != 200 {
				t.Fatalf("status %d: %s", a.status, a.body)
			}
			var got struct{ Cases json.RawMessage }
			if err := json.Unmarshal([]byte(a.body), &got); err != nil {
				t.Fatal(err)
			}
			if string(got.Cases) != tt.want {
				t.Errorf("cases\n%s\nwant\n%s", got.Cases, tt.want)
			}
			if err := validate("/components/schemas/Cases", a.body); err != nil {
				t.Errorf("the answer does not match the Cases schema: %v\n%s", err, a.body)
			}
		})
	}
}

func writeTestFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenAPIResultsOfRuns: the answers for agents' runs (diffs with a
// step and a turn, and the kinds only runs have) and for suites with
// samples (a "sample" on each line) match the document's schemas, from
// /v1/score and from a batch.
func TestOpenAPIResultsOfRuns(t *testing.T) {
	validate := openAPIValidator(t)
	// A run with the kinds of diffs only runs have.
	dir := t.TempDir()
	runSuite, runResponses := filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "responses.jsonl")
	writeTestFile(t, runSuite, `version: 1
cases:
  - id: r
    steps: [{name: f, result: {id: {type: string}}}]
    never: [g]
    max_calls: 1
    final: {regex: done}
`)
	writeTestFile(t, runResponses, `{"id": "r", "response": [{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}]}`+"\n"+
		`{"id": 5, "response": []}`+"\n") // a number id, as a responses file may have
	for _, ex := range []struct{ suite, responses string }{
		{"../examples/agent/suite.yaml", "../examples/agent/responses.jsonl"},
		{"../report/testdata/runs/suite.yaml", "../report/testdata/runs/responses.jsonl"},
		{"../examples/samples/suite.yaml", "../examples/samples/responses.jsonl"},
		{runSuite, runResponses},
	} {
		t.Run(ex.suite, func(t *testing.T) {
			base, _ := start(t, newHandler(t, Options{}, ex.suite))
			data, err := os.ReadFile(ex.responses)
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[string]bool{}
			check := func(what, ptr, line string) {
				t.Helper()
				if err := validate(ptr, line); err != nil {
					t.Errorf("%s: the answer does not match its schema: %v\n%s", what, err, line)
				}
				var r struct{ Diffs []struct{ Kind string } }
				json.Unmarshal([]byte(line), &r)
				for _, d := range r.Diffs {
					kinds[d.Kind] = true
				}
			}
			for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
				if err := validate("/paths/~1v1~1score/post/requestBody/content/application~1json/schema", line); err != nil {
					t.Errorf("the request is not valid against its schema: %v\n%s", err, line)
				}
				a := do(t, "POST", base+"/v1/score", "", "application/json", line)
				check("/v1/score", fmt.Sprintf("/paths/~1v1~1score/post/responses/%d/content/application~1json/schema", a.status), a.body)
			}
			a := do(t, "POST", base+"/v1/score/batch", "", "application/x-ndjson", string(data))
			for line := range strings.SplitSeq(strings.TrimSuffix(a.body, "\n"), "\n") {
				check("/v1/score/batch", "/paths/~1v1~1score~1batch/post/responses/200/content/application~1x-ndjson/schema", line)
			}
			if ex.suite == runSuite {
				for _, k := range []string{"forbidden_call", "too_many_calls", "missing_result", "missing_final"} {
					if !kinds[k] {
						t.Errorf("no %s diff among the answers: the test no longer shows that its kind is documented", k)
					}
				}
			}
		})
	}
}
