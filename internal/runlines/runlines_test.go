package runlines

import (
	"fmt"
	"slices"
	"testing"
)

func TestCheckPassK(t *testing.T) {
	for _, tt := range []struct {
		ks   []int
		n    int
		want []int
		bad  bool
	}{
		{nil, 5, []int{5}, false},
		{[]int{5, 1, 5, 3}, 5, []int{1, 3, 5}, false},
		{[]int{0}, 5, nil, true},
		{[]int{6}, 5, nil, true},
		{[]int{1, -1}, 5, nil, true},
	} {
		got, err := CheckPassK(tt.ks, tt.n)
		if (err != nil) != tt.bad || !tt.bad && !slices.Equal(got, tt.want) {
			t.Errorf("CheckPassK(%v, %d) = %v, %v", tt.ks, tt.n, got, err)
		}
	}
}

func TestSecondResponse(t *testing.T) {
	for _, tt := range []struct {
		samples       int
		carriesSample bool
		want          string
	}{
		{2, false, `a second response for case "a" sample 1 (lines 1 and 6)`},
		{0, false, `a second response for case "a" (lines 1 and 6)`},
		{0, true, `a second response for case "a" (lines 1 and 6); the lines carry "sample": for several samples per case, say how many with samples: in the suite or --samples`},
	} {
		if got := SecondResponse("a", 1, tt.samples, "lines 1 and 6", tt.carriesSample); got != tt.want {
			t.Errorf("samples %d, carries %v: %s, want %s", tt.samples, tt.carriesSample, got, tt.want)
		}
	}
	if !CarriesSample(`{"id":"a","sample":0}`) || CarriesSample(`{"id":"a"}`) {
		t.Error("CarriesSample")
	}
}

// TestSecondLine: the one message for two lines for one case, whichever
// of them a reader came to first.
func TestSecondLine(t *testing.T) {
	tests := []struct {
		first, line, sample, samples int
		text, want                   string
	}{
		{1, 6, 0, 0, `{"id":"a"}`, `line 6: a second response for case "a" (lines 1 and 6)`},
		{6, 1, 0, 0, `{"id":"a"}`, `line 6: a second response for case "a" (lines 1 and 6)`},
		{2, 3, 1, 2, `{"id":"a","sample":1}`, `line 3: a second response for case "a" sample 1 (lines 2 and 3)`},
		{2, 3, 0, 0, `{"id":"a","sample":1}`, `line 3: a second response for case "a" (lines 2 and 3); the lines carry "sample": for several samples per case, say how many with samples: in the suite or --samples`},
	}
	for _, tt := range tests {
		hi, msg := SecondLine("a", tt.sample, tt.samples, tt.first, tt.line, tt.text)
		if got := fmt.Sprintf("line %d: %s", hi, msg); got != tt.want {
			t.Errorf("lines %d and %d: %s\nwant %s", tt.first, tt.line, got, tt.want)
		}
	}
}
