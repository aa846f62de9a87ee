package rules

import (
	"slices"
	"testing"
)

// TestNormalisedOnce: a walk normalises an actual string once for all the
// possible values of a one_of, and each actual string of its own: every
// element of a list, equal in length and under the same normalisers, is
// compared as itself, and a later walk does not see the last one's.
func TestNormalisedOnce(t *testing.T) {
	set := newSet(t, Extensions{}, call("l.#", `{"one_of":["a-b","C D","xy"],"normalize":[{"delete":"- "},"lower"]}`))
	for _, tc := range []struct {
		actual string
		diffs  []string
	}{
		{`{"l":["AB","cd","X-Y"]}`, nil},
		{`{"l":["AB","ce","XY"]}`, []string{"mismatch l.1"}},
		{`{"l":["ab","AB","zz"]}`, []string{"mismatch l.2"}},
		{`{"l":["zz","AB","cd"]}`, []string{"mismatch l.0"}},
	} {
		res, diffs := compareText(t, set, nil, `{"l":["a-b","C D","xy"]}`, tc.actual)
		got := brief(diffs)
		if tc.diffs == nil {
			tc.diffs = []string{}
		}
		if !slices.Equal(got, tc.diffs) {
			t.Errorf("%s: diffs %q, want %q%s", tc.actual, got, tc.diffs, describeDiffs(diffs))
		}
		if pass := len(tc.diffs) == 0; (res.Matched == res.Total) != pass {
			t.Errorf("%s: result %+v", tc.actual, res)
		}
	}
}
