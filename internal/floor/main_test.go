package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	suite := write("suite.json", `{"cases":[{"id":"a","expected":{"name":"f"}}]}`)
	var lines strings.Builder
	for _, args := range []string{`"{\"x\":1}"`, `"{\"x\":"`, `{"x":1}`} {
		lines.WriteString(`{"id":"a","response":{"name":"f","arguments":` + args + "}}\n")
	}
	resp := write("responses.jsonl", lines.String())
	out := filepath.Join(dir, "out.jsonl")
	if err := run(suite, resp, out); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if n := bytes.Count(got, []byte("\n")); n != 3 {
		t.Fatalf("%d results lines, want 3:\n%s", n, got)
	}
	if n := bytes.Count(got, []byte(`{"id":"a","pass":false`)); n != 1 {
		t.Errorf("%d failing lines, want 1 (the broken arguments string):\n%s", n, got)
	}

	if err := run(write("bad.json", `{"cases":[`), resp, out); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("broken suite: err = %v, want one naming bad.json", err)
	}
	if err := run(suite, write("bad.jsonl", "{\"id\":\n"), out); err == nil {
		t.Error("broken responses line: no error")
	}
}

func TestSplit(t *testing.T) {
	data := []byte("a\nbb\nccc\ndddd\n")
	for n := 1; n <= 6; n++ {
		parts := split(data, n)
		if got := bytes.Join(parts, nil); !bytes.Equal(got, data) {
			t.Errorf("n=%d: parts join to %q", n, got)
		}
		for _, p := range parts {
			if len(p) == 0 || p[len(p)-1] != '\n' {
				t.Errorf("n=%d: part %q is not whole lines", n, p)
			}
		}
	}
}
