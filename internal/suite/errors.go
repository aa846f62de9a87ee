package suite

import (
	"strings"

	"github.com/callgrade/callgrade/internal/errcode"
)

// Problem is one thing wrong with a suite, and where.
type Problem struct {
	Loc  Loc
	Msg  string
	Code errcode.Code // what kind of problem (callgrade.Code); "" for a warning and the few the engine does not code yet
	Err  error        // the underlying error (I/O, syntax, a rule's), if any; nil otherwise
}

// String returns "file: key (case id): message".
func (p Problem) String() string {
	if l := p.Loc.String(); l != "" {
		return l + ": " + p.Msg
	}
	return p.Msg
}

// Error reports every problem found in a suite at once, so that a user can
// fix them all in one pass.
type Error struct {
	Problems []Problem
}

// Error returns the problems one per line.
func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Is reports whether a problem has the code target, so that
// errors.Is(err, callgrade.UnknownKey) finds a problem among many; the
// problems' underlying errors are searched through Unwrap.
func (e *Error) Is(target error) bool {
	for i := range e.Problems {
		if e.Problems[i].Code != "" && e.Problems[i].Code == target {
			return true
		}
	}
	return false
}

// Unwrap returns the underlying errors of the problems that have one, so
// that errors.Is(err, fs.ErrNotExist) and errors.As(err, **value.Error)
// see through an *Error.
func (e *Error) Unwrap() []error {
	var errs []error
	for _, p := range e.Problems {
		if p.Err != nil {
			errs = append(errs, p.Err)
		}
	}
	return errs
}
