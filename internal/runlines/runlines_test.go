package runlines

import (
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
