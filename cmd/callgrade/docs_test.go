package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocumentedCommandsWork runs every callgrade command that README.md and
// docs/*.md show in a sh block, as written, from the repository root: a
// command in the docs that does not work is a bug.
//
// `go run ./cmd/callgrade ARGS` runs as the built binary with ARGS, and
// `go build` commands (which build what a later command needs) run as
// written. Other commands in sh blocks (go test, bash .ci/run, benchmarks)
// are run by CI itself or are too slow to repeat here; they are listed in
// notRunHere so that a new kind of command has to be looked at.
func TestDocumentedCommandsWork(t *testing.T) {
	// curl: serve_test.go runs docs/service.md's against the server it starts.
	// time bin/floor: needs the corpus bench-vs-seed generates; internal/floor's test runs the program.
	notRunHere := []string{"go test", "bash .ci/run", "python3 ../shared/bin/", "benchstat", "go install", "curl ", "time bin/floor "}
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	ran := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range shCommands(string(data)) {
			if strings.HasPrefix(cmd, "go build ") {
				build := exec.Command("go", strings.Fields(cmd)[1:]...)
				build.Dir = "../.."
				if out, err := build.CombinedOutput(); err != nil {
					t.Errorf("%s: %q: %v\n%s", f, cmd, err, out)
				}
				continue
			}
			args, ok := strings.CutPrefix(cmd, "go run ./cmd/callgrade ")
			if !ok {
				args, ok = strings.CutPrefix(cmd, "callgrade ")
			}
			if !ok {
				known := false
				for _, p := range notRunHere {
					known = known || strings.HasPrefix(cmd, p)
				}
				if !known {
					t.Errorf("%s: sh block command %q is neither run by this test nor listed as run elsewhere", f, cmd)
				}
				continue
			}
			if strings.HasPrefix(args, "serve ") {
				continue // runs until stopped: serve_test.go runs it
			}
			wantCode := 0
			if body, comment, found := strings.Cut(args, "#"); found {
				args = strings.TrimSpace(body)
				if strings.Contains(comment, "exits 1") {
					wantCode = 1
				}
			}
			r := callgrade(t, strings.Fields(args)...)
			ran++
			if r.code != wantCode {
				t.Errorf("%s: %q exited %d, want %d:\n%s", f, cmd, r.code, wantCode, r.stderr)
			}
		}
	}
	if ran == 0 {
		t.Fatal("found no callgrade command in the docs")
	}
}

// shCommands returns the lines of ```sh blocks, with continuation lines joined.
func shCommands(md string) []string {
	var out []string
	in := false
	cur := ""
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in:
			line = strings.TrimSpace(line)
			if strings.HasSuffix(line, "\\") {
				cur += strings.TrimSuffix(line, "\\") + " "
				continue
			}
			line = strings.TrimSpace(cur + line)
			cur = ""
			if line != "" && !strings.HasPrefix(line, "#") {
				out = append(out, line)
			}
		}
	}
	return out
}
