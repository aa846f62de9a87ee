package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The corpora merge is held to: the weather example shuffled, with a case
// dropped, a line without "response" (its message names its line), a
// line that is not JSON but names its case (so does this one's), blank
// lines and ids that name no case; and the samples fixture shuffled, a
// sample missing, a line naming no case.
func mergeCorpora(t *testing.T) map[string]struct{ suite, responses string } {
	t.Helper()
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(30, 1))
	read := func(p string) []string {
		b, err := os.ReadFile(filepath.Join("../..", p))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	w := read("examples/weather/responses.jsonl")
	var lines []string
	for _, l := range w {
		switch {
		case strings.Contains(l, `"forecast-also-fine"`):
			continue // dropped: missing_response
		case strings.Contains(l, `"city-spelled-loosely"`):
			l = `{"id": "city-spelled-loosely"}`
		case strings.Contains(l, `"no-tool-needed"`):
			l = `{"id": "no-tool-needed", "response": [{"name": "x", "arguments": {"a": 1,}}]}`
		}
		lines = append(lines, l)
	}
	lines = append(lines, `{"id": "nobody", "response": []}`, "", `{"id": 17, "response": []}`, "   ", `{"id": "nobody", "response": []}`)
	rnd.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	plain := writeFile(t, dir, "weather.jsonl", strings.Join(lines, "\n")+"\n")

	s := read(samplesResponses)
	s = append(s, `{"id": "stranger", "sample": 1, "response": []}`, "")
	rnd.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	sampled := writeFile(t, dir, "samples.jsonl", strings.Join(s, "\n")) // no newline at the end
	// Runs of an agent: the summary counts a steps case under each tool
	// of its steps, from the calls of its line.
	a := read("examples/agent/responses.jsonl")
	a = append(a, `{"id": "nobody", "response": []}`)
	rnd.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
	agent := writeFile(t, dir, "agent.jsonl", strings.Join(a[1:], "\n")+"\n") // one run dropped
	return map[string]struct{ suite, responses string }{
		"plain":   {"examples/weather/suite.yaml", plain},
		"samples": {samplesSuite, sampled},
		"agent":   {"examples/agent/suite.yaml", agent},
	}
}

// splitAt writes the lines of text into len(cuts)+1 files, cut before the
// given line indexes.
func splitAt(t *testing.T, dir, text string, cuts []int) []string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	var parts []string
	prev := 0
	for k, c := range append(cuts, len(lines)) {
		parts = append(parts, writeFile(t, dir, "part"+string(rune('a'+k)), strings.Join(lines[prev:c], "")))
		prev = c
	}
	return parts
}

// mergeParts scores each part with --partial and merges the parts; extra
// flags go to both, and then mergeOnly to merge alone.
func mergeParts(t *testing.T, suite string, parts []string, extra []string, mergeOnly ...string) run {
	t.Helper()
	var shards []string
	for _, p := range parts {
		out := p + ".partial"
		r := runCLI(t, append([]string{"score", "--partial", "--suite", suite, "--responses", p, "--out", out}, extra...)...)
		if r.code != 0 {
			t.Fatalf("score --partial %s: exit %d: %s", p, r.code, r.stderr)
		}
		shards = append(shards, out)
	}
	return runCLI(t, append(append(append([]string{"merge", "--suite", suite}, extra...), mergeOnly...), shards...)...)
}

func TestMergeIsOneRun(t *testing.T) {
	for name, c := range mergeCorpora(t) {
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(c.responses)
			if err != nil {
				t.Fatal(err)
			}
			want := runCLI(t, "score", "--suite", c.suite, "--responses", c.responses, "--fail-under", "0.7")
			if want.code != 1 || want.stdout == "" || !strings.Contains(want.stderr, "tool") {
				t.Fatalf("one run: exit %d, want 1: %s", want.code, want.stderr)
			}
			check := func(parts []string, what string) {
				got := mergeParts(t, c.suite, parts, nil, "--fail-under", "0.7")
				if got.code != want.code || got.stdout != want.stdout || got.stderr != want.stderr {
					t.Errorf("%s: merge differs from one run: exit %d (want %d)\n%s\n%s\nwant\n%s\n%s", what, got.code, want.code, got.stdout, got.stderr, want.stdout, want.stderr)
				}
			}
			// --junit too: the same XML.
			jdir := t.TempDir()
			oneXML, mergedXML := filepath.Join(jdir, "one.xml"), filepath.Join(jdir, "merged.xml")
			runCLI(t, "score", "--suite", c.suite, "--responses", c.responses, "--junit", oneXML, "-q")
			mergeParts(t, c.suite, splitAt(t, t.TempDir(), string(text), []int{2}), nil, "--junit", mergedXML, "-q")
			if a, b := readOrEmpty(t, oneXML), readOrEmpty(t, mergedXML); a == "" || a != b {
				t.Errorf("merge --junit differs from score --junit:\n%s\nwant\n%s", b, a)
			}
			n := strings.Count(string(text), "\n") + 1
			// Cut at every line, in two.
			for cut := 0; cut <= n; cut++ {
				check(splitAt(t, t.TempDir(), string(text), []int{cut}), fmt.Sprint("cut at line ", cut))
			}
			// Cut at arbitrary lines, in up to six parts, some of them
			// empty, and with a worker each.
			rnd := rand.New(rand.NewPCG(uint64(n), 2))
			for range 6 {
				cuts := make([]int, 1+rnd.IntN(5))
				for k := range cuts {
					cuts[k] = rnd.IntN(n + 1)
				}
				slices.Sort(cuts)
				check(splitAt(t, t.TempDir(), string(text), cuts), fmt.Sprint("cuts ", cuts))
			}
		})
	}
}

func TestMergeSecondResponse(t *testing.T) {
	dir := t.TempDir()
	suite := "examples/weather/suite.yaml"
	a := writeFile(t, dir, "a.jsonl", `{"id": "no-tool-needed", "response": []}`+"\n")
	b := writeFile(t, dir, "b.jsonl", `{"id": "city-spelled-loosely", "response": []}`+"\n"+`{"id": "no-tool-needed", "response": []}`+"\n")
	r := mergeParts(t, suite, []string{a, b}, nil)
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, `b.jsonl.partial:2: a second response for case "no-tool-needed" (`+a+`.partial:1 and `+b+`.partial:2)`) {
		t.Errorf("a case in two parts: exit %d, want 2 naming both: %q %s", r.code, r.stdout, r.stderr)
	}
	// The same part twice, by one name or by a link: said as such, where
	// its cases were each a second response at the same place twice.
	link := filepath.Join(dir, "a-again.partial")
	if err := os.Link(a+".partial", link); err != nil {
		t.Fatal(err)
	}
	for _, twice := range [][]string{{a + ".partial", b + ".partial", a + ".partial"}, {a + ".partial", link}} {
		r := runCLI(t, append([]string{"merge", "--suite", suite}, twice...)...)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "is given twice (parts 1 and ") {
			t.Errorf("merge %v: exit %d, want 2 saying a part is given twice: %s", twice, r.code, r.stderr)
		}
	}
	// Within one part, --partial says what score says.
	both := writeFile(t, dir, "both.jsonl", `{"id": "no-tool-needed", "response": []}`+"\n\n"+`{"id": "no-tool-needed", "response": []}`+"\n")
	want := runCLI(t, "score", "--suite", suite, "--responses", both)
	got := runCLI(t, "score", "--partial", "--suite", suite, "--responses", both, "--out", filepath.Join(dir, "out"))
	if got.code != 2 || got.stderr != want.stderr || !strings.Contains(got.stderr, "(lines 1 and 3)") {
		t.Errorf("a case twice in one part: exit %d, %s; score says %s", got.code, got.stderr, want.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("score --partial --out wrote its file on exit 2")
	}
	// Samples across parts: the same case and sample twice.
	s1 := writeFile(t, dir, "s1.jsonl", `{"id": "flights", "sample": 1, "response": []}`+"\n")
	s2 := writeFile(t, dir, "s2.jsonl", `{"id": "flights", "sample": 0, "response": []}`+"\n"+`{"id": "flights", "sample": 1, "response": []}`+"\n")
	r = mergeParts(t, samplesSuite, []string{s1, s2}, nil)
	if r.code != 2 || !strings.Contains(r.stderr, `a second response for case "flights" sample 1 (`) {
		t.Errorf("a sample in two parts: exit %d: %s", r.code, r.stderr)
	}
	// A part scored with other samples than the merge's.
	r = mergeParts(t, samplesSuite, []string{s1}, []string{"--samples", "2"})
	if r.code != 0 {
		t.Fatalf("--samples 2: exit %d: %s", r.code, r.stderr)
	}
	r = runCLI(t, "merge", "--suite", samplesSuite, "--samples", "0", s1+".partial")
	if r.code != 2 || !strings.Contains(r.stderr, `carries "sample"`) {
		t.Errorf("merged without the samples it was scored with: exit %d: %s", r.code, r.stderr)
	}
	// A results file is no partial one.
	res := writeFile(t, dir, "results.jsonl", runCLI(t, "score", "--suite", suite, "--responses", a, "-q").stdout)
	r = runCLI(t, "merge", "--suite", suite, res)
	if r.code != 2 || !strings.Contains(r.stderr, "results.jsonl:1: not a partial result line (a results file") {
		t.Errorf("a results file merged: exit %d: %s", r.code, r.stderr)
	}
}

// A worker that keeps one callgrade open, writes a line and waits for its
// result before writing the next, gets every result without closing the
// pipe, blank lines included.
func TestPartialPipe(t *testing.T) {
	cmd := exec.Command(bin, "score", "--partial", "--suite", "examples/weather/suite.yaml", "--responses", "-")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errb := startCLI(t, cmd)
	out := bufio.NewReader(stdout)
	for k, line := range []string{``, `{"id": "no-tool-needed", "response": []}`, `{"id": "nobody", "response": []}`, `{"id": "city-spelled-loosely"}`} {
		got := make(chan string, 1)
		go func() { l, _ := out.ReadString('\n'); got <- l }()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case l := <-got:
			if !strings.HasPrefix(l, `{"partial":1,"line":`+strconv.Itoa(k+1)) {
				t.Errorf("line %d: got %q", k+1, l)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("line %d: no result while the pipe stays open", k+1)
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, errb)
	}
}

func readOrEmpty(t *testing.T, path string) string {
	t.Helper()
	b, _ := os.ReadFile(path)
	return string(b)
}
