//go:build linux

package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const memSuite = "version: 1\ncases:\n  - {id: big, expected: {name: get_weather, arguments: {city: Berlin}}}\n  - {id: small, expected: {name: get_weather, arguments: {city: Berlin}}}\n"

// writeLongLine writes a responses file whose first line is head, then n
// x's, then tail, and whose second line is a short right answer for
// "small"; gzip-compressed when zip is set.
func writeLongLine(t *testing.T, path, head string, n int, tail string, zip bool) {
	t.Helper()
	chunk := strings.Repeat("x", 1<<20)
	writeLine(t, path, head, func(w *bufio.Writer) {
		for k := n; k > 0; k -= len(chunk) {
			w.WriteString(chunk[:min(k, len(chunk))])
		}
	}, tail, zip)
}

// writeMembersLine is writeLongLine with n bytes of small members in
// place of the x's: "k0000000":1, and on, each key its own.
func writeMembersLine(t *testing.T, path, head string, n int, tail string) {
	t.Helper()
	writeLine(t, path, head, func(w *bufio.Writer) {
		for i := 0; i*len(`"k0000000":1,`) < n; i++ {
			fmt.Fprintf(w, `"k%07d":1,`, i)
		}
	}, tail, false)
}

// writeLine writes a responses file whose first line is head, what body
// writes and tail, and whose second line is a short right answer for
// "small"; gzip-compressed when zip is set.
func writeLine(t *testing.T, path, head string, body func(*bufio.Writer), tail string, zip bool) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if zip {
		zw, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
		w = zw
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(head)
	body(bw)
	bw.WriteString(tail + "\n")
	bw.WriteString(`{"id":"small","response":[{"name":"get_weather","arguments":{"city":"Berlin"}}]}` + "\n")
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		zw.Close()
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// peakScore runs score and returns its peak resident set size in bytes.
//
// The test binary does not start the command itself: Linux counts in a
// child's peak (ru_maxrss) the peak of the process that forked it, since
// the child shares its parent's memory until it execs, and this test
// process holds large results files. It starts a fresh copy of itself
// instead (see init), small, which runs the command and hands back its
// rusage.
func peakScore(t *testing.T, args ...string) int64 {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "maxrss")
	cmd := exec.Command(self, append([]string{bin, "score", "-q"}, args...)...)
	cmd.Env = append(os.Environ(), "CALLGRADE_TEST_MAXRSS="+report)
	errb := startCLI(t, cmd)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, errb)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	kib, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return kib << 10 // ru_maxrss is in KiB on Linux
}

// init is, with CALLGRADE_TEST_MAXRSS set, the small process peakScore
// starts: it runs its arguments as a command and writes the command's
// peak resident set size, in KiB, to the file that names.
func init() {
	report := os.Getenv("CALLGRADE_TEST_MAXRSS")
	if report == "" {
		return
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.WriteFile(report, []byte(strconv.FormatInt(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss, 10)), 0o644)
	os.Exit(cmd.ProcessState.ExitCode())
}

// TestScorePeakMemory: a response line costs the command about twice its
// length at most (the line, and the string parsed from it or the result
// that shows it), plus a fixed base, where it cost six times: a 64 MiB
// line must not take more than 2 × 64 MiB + 64 MiB. One line is a call
// whose argument is a 64 MiB string in an object, which the result shows
// whole; the other a 64 MiB arguments string, escaped in the line.
func TestScorePeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and scores 64 MiB lines")
	}
	const n = 64 << 20
	dir := t.TempDir()
	suite := writeFile(t, dir, "suite.yaml", memSuite)
	for _, tt := range []struct {
		name, head, tail string
		members          bool // small members ("k0000001":1,…) rather than one long string
	}{
		{"object", `{"id":"big","response":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"`, `"}}]}}`, false},
		{"arguments string", `{"id":"big","response":{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"`, `\"}"}}]}}]}}`, false},
		// Five million members: their tree would be many times the
		// line; the line's count of values is capped instead
		// (callgrade.DefaultMaxValues), and the case fails naming it.
		{"small members", `{"id":"big","response":[{"name":"get_weather","arguments":{`, `"city":"Berlin"}}]}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := filepath.Join(dir, "responses.jsonl")
			out := filepath.Join(dir, "results.jsonl")
			if tt.members {
				writeMembersLine(t, resp, tt.head, n, tt.tail)
			} else {
				writeLongLine(t, resp, tt.head, n, tt.tail, false)
			}
			rss := peakScore(t, "--suite", suite, "--responses", resp, "--out", out)
			st, err := os.Stat(resp)
			if err != nil {
				t.Fatal(err)
			}
			line := st.Size()
			t.Logf("peak RSS %d MiB for a %d MiB line (%.2f×)", rss>>20, line>>20, float64(rss)/float64(line))
			if limit := 2*line + 64<<20; rss > limit {
				t.Errorf("peak RSS %d MiB, over 2 × the line + 64 MiB = %d MiB", rss>>20, limit>>20)
			}
			b, err := os.ReadFile(out)
			if err != nil || !strings.Contains(string(b), `{"id":"small","pass":true`) {
				t.Errorf("results: %v %.200s", err, b)
			}
			if tt.members && !strings.Contains(string(b), "JSON values, the limit for a line") {
				t.Errorf("results %.300s; want big failed naming the limit of values", b)
			}
		})
	}
}

// TestScoreLineCapGzip: a gzip file of a few MB that expands to a 1 GiB
// line costs no more than the line cap (256 MiB by default: the line is
// read that far, then dropped as it comes) plus the base, where it cost
// 6.3 GB; the case fails naming the line and the limit, and the others
// are scored. --max-line-bytes lowers the cap, and the cost with it.
func TestScoreLineCapGzip(t *testing.T) {
	if testing.Short() {
		t.Skip("compresses and scores a 1 GiB line")
	}
	const n = 1 << 30
	dir := t.TempDir()
	suite := writeFile(t, dir, "suite.yaml", memSuite)
	resp := filepath.Join(dir, "responses.jsonl.gz")
	head := `{"id":"big","response":[{"name":"get_weather","arguments":{"city":"`
	writeLongLine(t, resp, head, n, `"}}]}`, true)
	for _, tt := range []struct {
		flag  []string
		limit int64
	}{{nil, 256 << 20}, {[]string{"--max-line-bytes", "16MiB"}, 16 << 20}} {
		out := filepath.Join(dir, "results.jsonl")
		rss := peakScore(t, append([]string{"--suite", suite, "--responses", resp, "--out", out}, tt.flag...)...)
		t.Logf("%v: peak RSS %d MiB", tt.flag, rss>>20)
		if rss > tt.limit+64<<20 {
			t.Errorf("%v: peak RSS %d MiB, over the cap + 64 MiB", tt.flag, rss>>20)
		}
		b, _ := os.ReadFile(out)
		want := fmt.Sprintf("response line 1 is %d bytes, longer than the limit of %d bytes", len(head)+n+5, tt.limit)
		if !strings.Contains(string(b), want) || !strings.Contains(string(b), `{"id":"small","pass":true`) {
			t.Errorf("%v: results %.300s; want big failed saying %q, small passed", tt.flag, b, want)
		}
	}
}
