package results

import "fmt"

// InputError is a responses file that cannot be read: a line that is not a
// JSON object with an id, or two lines for one case (for one case and
// sample, in a run with samples), or in a run with samples a line without
// a "sample" from 0 to the number of samples less one. A run stops at the
// first.
type InputError struct {
	File string
	Line int // 1-based; 0 when the error is not about one line
	Msg  string
	Err  error
}

// Error returns "file:line: message", or "line N: message" without a
// file.
func (e *InputError) Error() string {
	loc := e.File
	switch {
	case e.Line > 0 && e.File == "":
		loc = fmt.Sprintf("line %d", e.Line)
	case e.Line > 0:
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Err != nil {
		return loc + ": " + e.Msg + ": " + e.Err.Error()
	}
	return loc + ": " + e.Msg
}

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }
