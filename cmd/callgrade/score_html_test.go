package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestScoreHTMLActualCalls: score --html shows the calls the model made
// from the scoring pass itself, so that responses on standard input show
// them too, and the page is the one `callgrade report --responses` makes
// from the responses file (which reads them as score did before).
func TestScoreHTMLActualCalls(t *testing.T) {
	tests := []struct {
		example string
		want    string // in every page: an actual call, or a run's step
	}{
		{"weather", `"a":[{"name":"get_weather","arguments":{"city":"Berlin","days":3.0,"unit":"celsius"}}]`},
		{"agent", `"r":{"s":[{"n":"find_order","a":{"email":"ana@example.com"},"id":"call_1","t":0,"r":{"id":"A-1001","total":25}}`},
		{"samples", `"k":1,"c":[[0,0]],"d":[],"x":[{"name":"get_weather","arguments":{"city":"Berlin","unit":"celsius"}}],"a":[`},
		{"dsl", `"a":[{"name":"set_thermostat","arguments":{"celsius":21.4,"room":"living"}}]`},
	}
	for _, tt := range tests {
		t.Run(tt.example, func(t *testing.T) {
			dir := t.TempDir()
			suite, responses := "examples/"+tt.example+"/suite.yaml", "examples/"+tt.example+"/responses.jsonl"
			results := filepath.Join(dir, "results.jsonl")
			fromFile, fromStdin, reported := filepath.Join(dir, "file.html"), filepath.Join(dir, "stdin.html"), filepath.Join(dir, "report.html")
			if r := runCLI(t, "score", "--suite", suite, "--responses", responses, "--out", results, "--html", fromFile, "-q"); r.code != 0 {
				t.Fatalf("score --responses FILE: exit %d: %s", r.code, r.stderr)
			}
			in, err := os.Open(filepath.Join("../..", responses))
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			cmd := exec.Command(bin, "score", "--suite", suite, "--responses", "-", "--out", filepath.Join(dir, "stdin.jsonl"), "--html", fromStdin, "-q")
			cmd.Stdin = in
			errb := startCLI(t, cmd)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("score --responses -: %v: %s", err, errb)
			}
			if r := runCLI(t, "report", results, "--suite", suite, "--responses", responses, "--html", reported); r.code != 0 {
				t.Fatalf("report: exit %d: %s", r.code, r.stderr)
			}
			file, stdin, report := readPage(t, fromFile), readPage(t, fromStdin), readPage(t, reported)
			if file != report {
				t.Errorf("score --html and report --html differ:\n%s", firstDiff(file, report))
			}
			// From standard input the page names no responses file, and is
			// otherwise the same.
			named := `"responses":"` + responses + `",`
			if !strings.Contains(file, named) {
				t.Errorf("the page of a file does not name it (%s)", named)
			}
			if noName := strings.Replace(file, named, "", 1); stdin != noName {
				t.Errorf("score --html from a file and from standard input differ:\n%s", firstDiff(noName, stdin))
			}
			for name, page := range map[string]string{"file": file, "stdin": stdin} {
				if !strings.Contains(page, tt.want) {
					t.Errorf("the page from %s lacks %s", name, tt.want)
				}
			}
		})
	}
}

// pageDate is the page's date, which is the time it is written.
var pageDate = regexp.MustCompile(`"date":"[^"]*"`)

// readPage reads an HTML page without its date.
func readPage(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return pageDate.ReplaceAllString(string(b), `"date":""`)
}

// firstDiff shows where a and b first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return "…" + a[lo:min(len(a), i+80)] + "\n…" + b[lo:min(len(b), i+80)]
}
