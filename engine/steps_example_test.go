package engine

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
)

// TestAgentExample scores examples/agent as docs/trajectories.md shows it:
// a pass, a wrong reference, a forbidden call.
func TestAgentExample(t *testing.T) {
	s, err := suite.Load("../examples/agent/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEngine(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open("../examples/agent/responses.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	if _, err := e.Run(context.Background(), in, &out, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		`{"id":"refund-pass","pass":true,"score":1,`,
		`"diffs":[{"kind":"mismatch","call":1,"step":1,"turn":1,"path":"order_id","expected":"A-1001","actual":"A-1002"`,
		`"diffs":[{"kind":"forbidden_call","call":null,"step":1,"turn":1,"path":"","actual":"delete_account","rule":"never"`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d = %s\nwant ...%s...", i, lines[i], w)
		}
	}
}
