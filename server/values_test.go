package server

import (
	"strings"
	"testing"
)

// TestManyValues: a /v1/score body or a batch line of more JSON values
// than the engine's limit (callgrade.DefaultMaxValues) within the body limit
// fails its case naming the limit, as a line of callgrade score does,
// rather than being built into a tree many times its size; the lines
// beside it in a batch are scored.
func TestManyValues(t *testing.T) {
	base, _ := start(t, newHandler(t, Options{}))
	// 1.1 million numbers in 2.2 MB, under the 8 MiB body limit.
	body := `{"id": "unit-left-to-its-default", "response": [{"name": "get_weather", "arguments": {"city": "Berlin", "x": [` +
		strings.Repeat("1,", 1_100_000) + `1]}}]}`
	a := do(t, "POST", base+"/v1/score", "", "application/json", body)
	if a.status != 200 || !strings.Contains(a.body, `"pass":false`) || !strings.Contains(a.body, "more than 1048576 JSON values") {
		t.Errorf("/v1/score: %d %.300s; want 200, the case failed naming the limit", a.status, a.body)
	}
	ok := `{"id": "no-tool-needed", "response": []}`
	a = do(t, "POST", base+"/v1/score/batch", "", "application/x-ndjson", ok+"\n"+body+"\n")
	lines := strings.Split(strings.TrimSpace(a.body), "\n")
	if a.status != 200 || len(lines) != 2 || !strings.Contains(lines[0], `"pass":true`) ||
		!strings.Contains(lines[1], `"pass":false`) || !strings.Contains(lines[1], "more than 1048576 JSON values") {
		t.Errorf("batch: %d %.600s; want 200, the first case passed, the second failed naming the limit", a.status, a.body)
	}
}
