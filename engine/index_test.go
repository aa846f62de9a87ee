package engine

import (
	"fmt"
	"testing"

	"github.com/callgrade/callgrade/internal/suite"
)

// idIndex answers as a map filled in case order does, duplicates included.
func TestIDIndex(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		cases := make([]suite.Case, n)
		want := map[string]int{}
		for i := range cases {
			cases[i].ID = fmt.Sprintf("c%d", i%(n/3+1))
			if i%5 == 0 {
				cases[i].ID = ""
			}
			want[cases[i].ID] = i
		}
		x, unique := newIndex(cases)
		compiled := make([]compiledCase, n)
		for i := range cases {
			compiled[i].id = cases[i].ID
		}
		if unique != (len(want) == n) {
			t.Errorf("n=%d: unique %v", n, unique)
		}
		for id, i := range want {
			if got, ok := x.get(id, compiled); !ok || got != i {
				t.Errorf("n=%d: get(%q) = %d, %v; want %d", n, id, got, ok, i)
			}
		}
		for _, id := range []string{"nope", "c", fmt.Sprintf("c%d", n)} {
			if _, ok := want[id]; ok {
				continue
			}
			if i, ok := x.get(id, compiled); ok {
				t.Errorf("n=%d: get(%q) = %d", n, id, i)
			}
		}
	}
}
