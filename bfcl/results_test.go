package bfcl

import (
	"bytes"
	"strings"
	"testing"
)

func TestConvertResults(t *testing.T) {
	in := strings.Join([]string{
		`{"id": "simple_0", "result": [{"calc_area": {"base": 10, "height": 5}}]}`,
		`{"id": "simple_1", "result": "[calc_area(base=10, height=5.0), log(msg=\"x\")]"}`,
		`{"id": "simple_2", "result": ""}`,
		`{"id": "simple_3", "result": "[calc_area(base=10,"}`,
		`{"id": "simple_4", "result": ["[f(a=[1, 2], b={'k': True})]"]}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	written, undecodable, err := ConvertResults(strings.NewReader(in), "result.json", &out, ResultOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"id":"simple_0","response":[{"name":"calc_area","arguments":{"base":10,"height":5}}]}`,
		`{"id":"simple_1","response":[{"name":"calc_area","arguments":{"base":10,"height":5.0}},{"name":"log","arguments":{"msg":"x"}}]}`,
		`{"id":"simple_2","response":[]}`,
		`{"id":"simple_3","response":[{"name":"","arguments":"\"[calc_area(base=10,\""}]}`,
		`{"id":"simple_4","response":[{"name":"f","arguments":{"a":[1,2],"b":{"k":true}}}]}`,
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if written != len(want) || len(got) != len(want) {
		t.Fatalf("wrote %d (%d lines), want %d:\n%s", written, len(got), len(want), out.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
	if len(undecodable) != 1 || !strings.Contains(undecodable[0], "simple_3") || !strings.Contains(undecodable[0], "line 4") {
		t.Errorf("Undecodable = %q, want one entry naming simple_3 on line 4", undecodable)
	}

	for _, bad := range []string{`{"result": []}`, `not json`, `{"id": "a", "result": []}` + "\n" + `{"id": "a", "result": []}`} {
		if _, _, err := ConvertResults(strings.NewReader(bad+"\n"), "result.json", &out, ResultOptions{}); err == nil || !strings.Contains(err.Error(), "result.json") {
			t.Errorf("ConvertResults(%q) error = %v, want one naming the file", bad, err)
		}
	}
}
