package server

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/tidwall/gjson"
)

//go:embed openapi.json
var openAPISource []byte

// openAPI is the document /openapi.json serves: openapi.json with the
// response formats filled in from package response's table, so that the
// document and the engine cannot disagree on them.
var openAPI = sync.OnceValue(func() []byte {
	formats := format.All()
	enum := make([]string, len(formats))
	about := make(map[string]string, len(formats))
	for i, f := range formats {
		enum[i], about[f.Name] = f.Name, f.Description
	}
	doc := setJSON(openAPISource, "components.schemas.Format.enum", enum)
	return setJSON(doc, "components.schemas.Format.x-enumDescriptions", about)
})

// setJSON returns doc with the value at path, which must be there,
// replaced by v; the rest of doc stays as written.
func setJSON(doc []byte, path string, v any) []byte {
	old := gjson.GetBytes(doc, path)
	if old.Index == 0 {
		panic("server: openapi.json has nothing at " + path)
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	out := make([]byte, 0, len(doc)+len(b))
	out = append(out, doc[:old.Index]...)
	out = append(out, b...)
	return append(out, doc[old.Index+len(old.Raw):]...)
}

func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openAPI())
}
