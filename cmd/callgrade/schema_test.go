package main

import (
	"os"
	"testing"
)

// TestSchemaCommand: `callgrade schema` prints docs/suite.schema.json, which
// suite's TestSchemaFile holds to suite.Schema.
func TestSchemaCommand(t *testing.T) {
	r := runCLI(t, "schema")
	want, err := os.ReadFile("../../docs/suite.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if r.code != 0 || r.stdout != string(want) || r.stderr != "" {
		t.Errorf("callgrade schema: exit %d, stderr %q, stdout not docs/suite.schema.json: %v", r.code, r.stderr, r.stdout != string(want))
	}
	if r := runCLI(t, "schema", "extra"); r.code != 2 {
		t.Errorf("callgrade schema extra: exit %d, want 2", r.code)
	}
}
