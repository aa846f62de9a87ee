package number

import "testing"

func TestIsNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-0": true, "5": true, "5.0": true, "5e0": true, "5E+3": true, "-1.5e-3": true, "123": true,
		"": false, "-": false, "01": false, "5.": false, ".5": false, "5e": false, "+5": false, "0x10": false,
		"NaN": false, "1 ": false, " 1": false, "Infinity": false, "1e5x": false,
	} {
		if got := Valid(s); got != want {
			t.Errorf("Valid(%q) = %v", s, got)
		}
	}
}

func TestSameNumber(t *testing.T) {
	lits := []string{"0", "-0", "0.0", "-0.0", "0.000", "0e0", "-0e5", "2", "2.0", "2.50", "2.5", "-2", "-2.0", "20", "2e1", "20.0",
		"0.5", "-0.5", "0.50", "5e-1", "100", "1e2", "1.00e2", "10", "1", "1.0", "9007199254740993", "9007199254740992", "0.1", "0.10", "1.5", "15e-1"}
	for _, a := range lits {
		for _, b := range lits {
			if got, want := Same(a, b), Compare(a, b) == 0; got != want {
				t.Errorf("Same(%s, %s) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// FuzzSameNumber holds Same to Compare.
func FuzzSameNumber(f *testing.F) {
	for _, p := range [][2]string{{"5", "5.000"}, {"-0.0", "0"}, {"10", "1e1"}, {"2.50", "2.5"}, {"100", "100.0"}, {"0.1", "1"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !Valid(a) || !Valid(b) {
			return
		}
		if got, want := Same(a, b), Compare(a, b) == 0; got != want {
			t.Fatalf("Same(%s, %s) = %v, Compare says %v", a, b, got, want)
		}
	})
}

// BenchmarkSameNumber compares Same with Compare on the
// spellings model output gives numbers in.
func BenchmarkSameNumber(b *testing.B) {
	pairs := [][2]string{{"2", "2"}, {"2", "2.0"}, {"0.5", "0.50"}, {"21", "21.5"}, {"350", "-350"}, {"1000", "1e3"}, {"0.3", "0.30000000000000004"}}
	fns := []struct {
		name string
		same func(a, b string) bool
	}{
		{"Same", Same},
		{"Compare", func(a, b string) bool { return Compare(a, b) == 0 }},
	}
	for _, fn := range fns {
		for _, p := range pairs {
			b.Run("fn="+fn.name+"/"+p[0]+"~"+p[1], func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					fn.same(p[0], p[1])
				}
			})
		}
	}
}

// TestCompareNumbersEmpty: an empty string is no literal, outside
// Compare' contract, and still no panic: it compares as zero, as it
// did before plain decimals took their shortcut.
func TestCompareNumbersEmpty(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "1", -1}, {"1", "", 1}, {"", "0", 0}, {"-2", "", -1}} {
		if got := Compare(tc.a, tc.b); got != tc.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
