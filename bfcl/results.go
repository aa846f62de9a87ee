package bfcl

import (
	"errors"
	"io"
)

// ConvertResults is written below.
func ConvertResults(r io.Reader, name string, w io.Writer) (int, error) {
	return 0, errors.New("not yet")
}
