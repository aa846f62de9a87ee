package idtable

import (
	"hash/maphash"
	"strconv"
	"testing"
)

func TestTable(t *testing.T) {
	ids := []string{"a", "b", "", "c", "b", "weather-berlin", "a"}
	tab := New(len(ids), maphash.MakeSeed())
	var prevs []int
	for i, id := range ids {
		prevs = append(prevs, tab.Add(tab.Hash(id), i, func(k int) bool { return ids[k] == id }))
	}
	want := []int{-1, -1, -1, -1, 1, -1, 0}
	wantAt := map[string]int{"a": 0, "b": 1, "c": 3, "": 2, "weather-berlin": 5}
	for i := range want {
		if prevs[i] != want[i] {
			t.Errorf("Add(%q) = %d, want %d", ids[i], prevs[i], want[i])
		}
	}
	for id, wantI := range wantAt {
		i, ok := tab.Find(tab.Hash(id), func(k int) bool { return ids[k] == id })
		if !ok || i != wantI {
			t.Errorf("Find(%q) = %d, %v, want %d", id, i, ok, wantI)
		}
	}
	if _, ok := tab.Find(tab.Hash("z"), func(k int) bool { return ids[k] == "z" }); ok {
		t.Error("found z")
	}
	var empty Table
	if _, ok := empty.Find(0, func(int) bool { return true }); ok {
		t.Error("found in the zero Table")
	}
}

// BenchmarkBuild builds an index of 200,000 ids and looks each up once,
// against a map of the strings.
func BenchmarkBuild(b *testing.B) {
	ids := make([]string, 200000)
	for i := range ids {
		ids[i] = "case-" + strconv.Itoa(i*7919%1000003)
	}
	b.Run("table", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tab := New(len(ids), maphash.MakeSeed())
			for i, id := range ids {
				tab.Add(tab.Hash(id), i, func(k int) bool { return ids[k] == id })
			}
			for _, id := range ids {
				if _, ok := tab.Find(tab.Hash(id), func(k int) bool { return ids[k] == id }); !ok {
					b.Fatal(id)
				}
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m := make(map[string]int32, len(ids))
			for i, id := range ids {
				m[id] = int32(i)
			}
			for _, id := range ids {
				if _, ok := m[id]; !ok {
					b.Fatal(id)
				}
			}
		}
	})
}
