package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/callgrade/callgrade/response"
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
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(openAPI()))
	if err != nil {
		t.Fatal(err)
	}
	comp := jsonschema.NewCompiler()
	const url = "mem://openapi.json"
	if err := comp.AddResource(url, raw); err != nil {
		t.Fatal(err)
	}
	schema := func(ptr string) *jsonschema.Schema {
		t.Helper()
		s, err := comp.Compile(url + "#" + ptr)
		if err != nil {
			t.Fatalf("schema %s: %v", ptr, err)
		}
		return s
	}
	validate := func(ptr, body string) error {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
		if err != nil {
			return err
		}
		return schema(ptr).Validate(v)
	}

	const token = "t0ken"
	h := newHandler(t, Options{Token: token})
	base, _ := start(t, h)
	for _, tokened := range []bool{true, false} {
		for path, ops := range doc.Paths {
			for method, op := range ops {
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
					continue
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
					continue
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
	for _, info := range response.Formats() {
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
