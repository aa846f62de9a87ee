package results

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// LineError is a line of a results file that is not a results line (spec
// section 3, as Result.UnmarshalJSON reads one): not JSON, or not an
// object with a string "id", a bool "pass", a number "score" and "calls"
// and "diffs" lists, or a case's line whose id is empty, or a second line
// for one case.
type LineError struct {
	File string // the name given to Read
	Line int    // 1-based
	Err  error  // what is wrong with the line
}

// Error returns "FILE:LINE: not a results line: " and what is wrong.
func (e *LineError) Error() string {
	return fmt.Sprintf("%s:%d: not a results line: %v", e.File, e.Line, e.Err)
}

// Unwrap returns what is wrong with the line.
func (e *LineError) Unwrap() error { return e.Err }

// Read reads a results file, a result per line; blank lines are skipped.
// name is used in error messages. A line that is not a results line is a
// *LineError: read leniently, a responses file would pass for a run in
// which every case failed.
//
// A case (or, with samples, a case's sample) has one line: a second one
// is a *LineError too, since a run never writes it, and which of the two
// to count or compare would be a guess. Lines of responses that name no
// case (Unknown) may repeat their id.
func Read(r io.Reader, name string) ([]Result, error) {
	var out []Result
	type key struct {
		id     string
		sample int
	}
	first := map[key]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		var res Result
		if err := readLine(&res, text); err != nil {
			return nil, &LineError{File: name, Line: line, Err: err}
		}
		if !unknown(&res) {
			k := key{res.ID, res.Sample}
			if at, ok := first[k]; ok {
				what := fmt.Sprintf("case %q", res.ID)
				if res.Sampled {
					what = fmt.Sprintf("sample %d of case %q", res.Sample, res.ID)
				}
				return nil, &LineError{File: name, Line: line, Err: fmt.Errorf("a second line for %s (the first is line %d)", what, at)}
			}
			first[k] = line
		}
		out = append(out, res)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// readLine reads one results line as UnmarshalJSON does, and checks that
// a case's line has an id.
func readLine(r *Result, text []byte) error {
	if err := r.UnmarshalJSON(text); err != nil {
		return err
	}
	// A case's id is never empty; a response's can be, and its
	// unknown_case line carries it.
	if r.ID == "" && !unknown(r) {
		return errors.New(`"id" is empty`)
	}
	return nil
}

// unknown reports whether r is the line of a response whose id names no
// case of the suite: one with an unknown_case diff. Summaries count such
// lines apart (Summary.Unknown), never as cases.
func unknown(r *Result) bool {
	for i := range r.Diffs {
		if r.Diffs[i].Kind == UnknownCase {
			return true
		}
	}
	return false
}
