package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/callgrade/callgrade/results"
)

// TableOptions configure WriteTable.
type TableOptions struct {
	// Color adds ANSI colours. The caller decides: callgrade sets it only
	// when the output is a terminal and NO_COLOR is not set.
	Color bool
}

// ANSI styles.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
)

// WriteTable writes s for a person as three aligned tables: the totals
// (cases, passed, failed, errored, pass rate, mean score), then one row per
// tool, worst pass rate first, then the number of diffs of each kind, most
// frequent first.
//
// A summary with samples (Summary.Samples) counts samples where the others
// count cases, and has a fourth table after the totals: pass@k and pass^k
// for each k, means over the cases.
//
// With colour, a pass rate is green from 90%, yellow from 50% and red
// below; a non-zero failed count is red, a non-zero errored count and the
// kinds that mean a case could not be scored (results.IsError) are yellow;
// headers are bold.
func WriteTable(w io.Writer, s *results.Summary, opts TableOptions) error {
	bw := bufio.NewWriter(w)
	t := table{color: opts.Color}
	what, all := "cases", "all cases"
	if s.Samples > 0 {
		what, all = "samples", "all samples"
	}
	t.header("", what, "passed", "failed", "errored", "pass rate", "mean score")
	t.row(cell{text: all}, cell{text: strconv.Itoa(s.Cases)},
		cell{text: strconv.Itoa(s.Passed)},
		countCell(s.Failed, ansiRed),
		countCell(s.Errored, ansiYellow),
		rateCell(s.Passed, s.Cases),
		cell{text: fmt.Sprintf("%.3f", s.MeanScore())})
	t.write(bw)
	if s.Missing > 0 || s.Unknown > 0 {
		names := " name no case"
		if s.Unknown == 1 {
			names = " names no case"
		}
		fmt.Fprintf(bw, "responses missing for %s; %s%s\n", countOf(s.Missing, strings.TrimSuffix(what, "s")), countOf(s.Unknown, "response"), names)
	}
	if s.Samples > 0 {
		writePassK(bw, s, opts.Color)
	}

	if len(s.ByTool) > 0 {
		tools := make([]string, 0, len(s.ByTool))
		for name := range s.ByTool {
			tools = append(tools, name)
		}
		sort.Slice(tools, func(a, b int) bool {
			ta, tb := s.ByTool[tools[a]], s.ByTool[tools[b]]
			ra, rb := rate(ta.Passed, ta.Cases), rate(tb.Passed, tb.Cases)
			if ra != rb {
				return ra < rb
			}
			if ma, mb := mean(ta), mean(tb); ma != mb {
				return ma < mb
			}
			return tools[a] < tools[b]
		})
		fmt.Fprintln(bw)
		t = table{color: opts.Color}
		t.header("tool", what, "passed", "failed", "pass rate", "mean score")
		for _, name := range tools {
			ta := s.ByTool[name]
			if name == "" {
				name = "(no call)"
			}
			t.row(cell{text: name}, cell{text: strconv.Itoa(ta.Cases)}, cell{text: strconv.Itoa(ta.Passed)},
				countCell(ta.Cases-ta.Passed, ansiRed), rateCell(ta.Passed, ta.Cases),
				cell{text: fmt.Sprintf("%.3f", mean(ta))})
		}
		t.write(bw)
	}

	if len(s.ByKind) > 0 {
		kinds := make([]results.Kind, 0, len(s.ByKind))
		for k := range s.ByKind {
			kinds = append(kinds, k)
		}
		sort.Slice(kinds, func(a, b int) bool {
			if s.ByKind[kinds[a]] != s.ByKind[kinds[b]] {
				return s.ByKind[kinds[a]] > s.ByKind[kinds[b]]
			}
			return kinds[a] < kinds[b]
		})
		fmt.Fprintln(bw)
		t = table{color: opts.Color}
		t.header("diff kind", "diffs")
		for _, k := range kinds {
			style := ansiRed
			if results.IsError(k) {
				style = ansiYellow
			}
			t.row(cell{text: string(k), style: style}, cell{text: strconv.Itoa(s.ByKind[k])})
		}
		t.write(bw)
	}
	return bw.Flush()
}

func rate(passed, cases int) float64 {
	if cases == 0 {
		return 0
	}
	return float64(passed) / float64(cases)
}

func mean(t *results.Tally) float64 {
	if t.Cases == 0 {
		return 0
	}
	return t.ScoreSum / float64(t.Cases)
}

// cell is one table cell: its text and an ANSI style used only with colour.
type cell struct {
	text, style string
}

func countCell(n int, style string) cell {
	c := cell{text: strconv.Itoa(n)}
	if n > 0 {
		c.style = style
	}
	return c
}

func rateCell(passed, cases int) cell {
	if cases == 0 {
		return cell{text: fmt.Sprintf("%.1f%%", 0.0)}
	}
	return shareCell(rate(passed, cases))
}

// table aligns cells in columns: the first left-aligned, the others right.
// Styles are applied after padding, so colour never changes the widths.
type table struct {
	color bool
	rows  [][]cell
}

func (t *table) header(names ...string) {
	row := make([]cell, len(names))
	for i, n := range names {
		row[i] = cell{text: n, style: ansiBold}
	}
	t.rows = append(t.rows, row)
}

// row adds a row, its texts made safe for a terminal (printable): ids,
// tool names and paths come from suites and model output.
func (t *table) row(cells ...cell) {
	for i := range cells {
		cells[i].text = printable(cells[i].text)
	}
	t.rows = append(t.rows, cells)
}

// printable is s with what a terminal would act on instead of showing
// escaped as Go escapes it: control characters (ESC, CR, LF, BEL, the C1
// set), the marks that reorder text (U+202A–U+202E, U+2066–U+2069), the
// line and paragraph separators, and bytes that are not UTF-8. A model's
// argument name such as "\x1b[2J" then cannot clear the screen or forge
// a line of a report.
func printable(s string) string {
	i := strings.IndexFunc(s, unsafeRune)
	if i < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case unsafeRune(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029
}

func (t *table) write(w io.Writer) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c.text)))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		b.Reset()
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c.text)))
			if i > 0 {
				b.WriteString("  ")
			}
			text := c.text
			if t.color && c.style != "" && text != "" {
				text = c.style + text + ansiReset
			}
			if i == 0 {
				b.WriteString(text)
				if len(r) > 1 {
					b.WriteString(pad)
				}
			} else {
				b.WriteString(pad + text)
			}
		}
		fmt.Fprintln(w, b.String())
	}
}

// countOf is n and noun, in the plural unless n is 1: "1 case", "2 cases".
// noun is a regular one, whose plural adds an s.
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
