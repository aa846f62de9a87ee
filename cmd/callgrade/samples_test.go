package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The fixture of report's tests: a suite with samples: 3 and its
// responses, one sample missing and one line naming no case.
const (
	samplesSuite     = "report/testdata/samples/suite.yaml"
	samplesResponses = "report/testdata/samples/responses.jsonl"
	samplesResults   = "report/testdata/samples/results.jsonl"
)

func TestScoreSamples(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("../..", samplesResults))
	if err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(t.TempDir(), "junit.xml")
	r := runCLI(t, "score", "--suite", samplesSuite, "--responses", samplesResponses, "--pass-k", "1", "--pass-k", "3", "--junit", junit)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r.stdout != string(want) {
		t.Errorf("results differ from %s:\n%s", samplesResults, r.stdout)
	}
	for _, l := range resultLines(t, r.stdout) {
		if _, ok := l["sample"].(float64); !ok {
			t.Errorf("a results line without a sample: %v", l)
		}
	}
	for _, re := range []string{`all samples +12 +7 +5 +1 +58\.3%`, `4 cases, 3 samples each`, `\n1 +58\.3% +58\.3%\n`, `\n3 +75\.0% +25\.0%\n`, `\ntool +samples `} {
		if !regexp.MustCompile(re).MatchString(r.stderr) {
			t.Errorf("summary lacks %s:\n%s", re, r.stderr)
		}
	}
	x, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`tests="5" failures="3" errors="1"`, `<testcase name="weather-paris"`, `<property name="pass^3" value="0.25">`} {
		if !strings.Contains(string(x), s) {
			t.Errorf("JUnit XML lacks %s:\n%s", s, x)
		}
	}

	// --samples wins over the suite's; --fail-under reads the share of
	// passing result lines (7 of 12).
	r = runCLI(t, "score", "--suite", samplesSuite, "--responses", samplesResponses, "--samples", "4", "-q", "--fail-under", "0.4")
	if r.code != 0 || len(resultLines(t, r.stdout)) != 17 {
		t.Errorf("--samples 4: exit %d, %d lines, want 0 and 17: %s", r.code, len(resultLines(t, r.stdout)), r.stderr)
	}
	r = runCLI(t, "score", "--suite", samplesSuite, "--responses", samplesResponses, "-q", "--fail-under", "0.6")
	if r.code != 1 || !strings.Contains(r.stderr, "pass rate 0.5833 is below --fail-under 0.6") {
		t.Errorf("--fail-under 0.6: exit %d: %s", r.code, r.stderr)
	}
}

func TestScoreSamplesErrors(t *testing.T) {
	dir := t.TempDir()
	n := 0
	lines := func(ls ...string) string {
		n++
		sub := filepath.Join(dir, strconv.Itoa(n))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		return writeFile(t, sub, "r.jsonl", strings.Join(ls, "\n")+"\n")
	}
	ok := `{"id": "weather-berlin", "sample": 0, "response": []}`
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"a line without sample", []string{"--responses", lines(ok, `{"id": "weather-paris", "response": []}`)},
			`r.jsonl:2: the line has no "sample"; with 3 samples per case, each line needs one, from 0 to 2`},
		{"a sample out of range", []string{"--responses", lines(ok, `{"id": "weather-paris", "sample": 3, "response": []}`)},
			`r.jsonl:2: "sample" must be an integer from 0 to 2 (3 samples per case), not 3`},
		{"the same case and sample twice", []string{"--responses", lines(ok, `{"id": "weather-paris", "sample": 0, "response": []}`, ok)},
			`r.jsonl:3: a second response for case "weather-berlin" sample 0 (lines 1 and 3)`},
		{"--samples 0 turns samples off", []string{"--responses", samplesResponses, "--samples", "0"},
			`responses.jsonl:2: a second response for case "weather-berlin" (lines 1 and 2); the lines carry "sample"`},
		{"--pass-k beyond the samples", []string{"--responses", samplesResponses, "--pass-k", "4"},
			`--pass-k: pass@k needs k from 1 to the number of samples, 3; got 4`},
		{"--pass-k without samples", []string{"--responses", samplesResponses, "--samples", "0", "--pass-k", "1"},
			`--pass-k needs samples`},
		{"--samples below 0", []string{"--responses", samplesResponses, "--samples", "-1"},
			`--samples: want 1 to 10000 samples per case, or 0 for one line per case; got -1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "results.jsonl")
			os.Remove(out)
			r := runCLI(t, append([]string{"score", "--suite", samplesSuite, "--out", out}, tt.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.msg) {
				t.Errorf("exit %d, want 2 with %q:\n%s", r.code, tt.msg, r.stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a results file was written on exit 2")
			}
		})
	}
}

func TestReportSamples(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "junit.xml")
	r := runCLI(t, "report", samplesResults, "--suite", samplesSuite, "--pass-k", "1,3", "--junit", junit)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, re := range []string{`all samples +12 +7`, `\n3 +75\.0% +25\.0%\n`,
		`case +samples +passed +pass@1 +pass\^1 +pass@3 +pass\^3 +failed samples\n`,
		`\nweather-paris +3 +2 +66\.7% +66\.7% +100\.0% +0\.0% +1\n`, `\nflights +3 +0 +0\.0% +0\.0% +0\.0% +0\.0% +0 1 2\n`} {
		if !regexp.MustCompile(re).MatchString(r.stdout) {
			t.Errorf("report lacks %s:\n%s", re, r.stdout)
		}
	}
	if x, err := os.ReadFile(junit); err != nil || !strings.Contains(string(x), `<property name="pass@1" value="0.5833333333333333">`) {
		t.Errorf("JUnit XML: %v\n%s", err, x)
	}
	if r := runCLI(t, "report", samplesResults, "--pass-k", "4"); r.code != 2 || !strings.Contains(r.stderr, "got 4") {
		t.Errorf("--pass-k 4: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, "report", "report/testdata/results.jsonl", "--pass-k", "1"); r.code != 2 || !strings.Contains(r.stderr, "has no samples") {
		t.Errorf("--pass-k on a run without samples: exit %d: %s", r.code, r.stderr)
	}
	// Without samples the report is as before: no per-case table.
	if r := runCLI(t, "report", "report/testdata/results.jsonl"); r.code != 0 || strings.Contains(r.stdout, "pass@") || strings.Contains(r.stdout, "samples") {
		t.Errorf("a run without samples: exit %d:\n%s", r.code, r.stdout)
	}
}

func TestDiffSamples(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("../..", samplesResponses))
	if err != nil {
		t.Fatal(err)
	}
	// The new run: weather-berlin's sample 2 is wrong, flights' sample 0 right.
	text := strings.Replace(string(data), `"sample": 2, "response": [{"name": "get_weather", "arguments": {"city": "Berlin"`, `"sample": 2, "response": [{"name": "get_weather", "arguments": {"city": "Bern"`, 1)
	text = strings.Replace(text, `"max_price": 700`, `"max_price": 500`, 1)
	responses := writeFile(t, dir, "new.jsonl", text)
	results := filepath.Join(dir, "new-results.jsonl")
	if r := runCLI(t, "score", "--suite", samplesSuite, "--responses", responses, "--out", results, "-q"); r.code != 0 {
		t.Fatalf("score: exit %d: %s", r.code, r.stderr)
	}
	r := runCLI(t, "diff", samplesResults, results, "--suite", samplesSuite, "--fail-on-regression")
	if r.code != 1 {
		t.Errorf("exit %d, want 1 (weather-berlin regressed): %s", r.code, r.stderr)
	}
	for _, s := range []string{"a case with samples passes when all its samples pass", "pass@3 75.0% -> 100.0% (+25.0 pts), pass^3 25.0% -> 0.0% (-25.0 pts)",
		"1 regressed, 0 fixed", "weather-berlin  score 1.000 -> 0.833  passed 3/3 -> 2/3  mismatch city"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("diff lacks %q:\n%s", s, r.stdout)
		}
	}
}
