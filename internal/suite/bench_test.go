package suite

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// corpus200k is written by /work/shared/bench/gen_corpus.py.
const corpus200k = "/tmp/callgrade-bench/corpus-200000/suite.json"

func BenchmarkLoad200k(b *testing.B) {
	st, err := os.Stat(corpus200k)
	if err != nil {
		b.Skipf("no corpus at %s (write it with gen_corpus.py %s)", corpus200k, strings.TrimSuffix(corpus200k, "/suite.json"))
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		s, err := Load(corpus200k)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Cases) != 200000 {
			b.Fatalf("%d cases", len(s.Cases))
		}
	}
}

// genSuite writes a suite of n cases in the shape gen_corpus.py writes, as
// JSON or as YAML flow mappings (which are YAML too).
func genSuite(n int) string {
	rnd := rand.New(rand.NewPCG(1, 2))
	cities := []string{"Berlin", "Paris", "Lisbon", "Osaka", "Toronto", "Nairobi"}
	var b strings.Builder
	b.WriteString(`{"version": 1, "defaults": {"extra_fields": "reject"}, "cases": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"id": "c%d", "expected": `, i)
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `{"name": "get_weather", "arguments": {"city": %q, "unit": "celsius", "days": %d}, "rules": {"unit": "case_insensitive"}}`,
				cities[rnd.IntN(len(cities))], rnd.IntN(14)+1)
		case 1:
			fmt.Fprintf(&b, `{"name": "search_flights", "arguments": {"origin": "BER", "destination": "SFO", "max_price": %d, "cabins": ["economy", "business"], "passengers": %d}, "rules": {"cabins": "unordered", "origin": "case_insensitive"}}`,
				rnd.IntN(1900)+100, rnd.IntN(6)+1)
		case 2:
			fmt.Fprintf(&b, `{"name": "create_order", "arguments": {"customer_id": "C%d", "items": [{"sku": "SKU-%d", "qty": %d}, {"sku": "SKU-%d", "qty": 1}], "shipping": {"method": "air", "insured": true}}}`,
				rnd.IntN(99000)+1000, rnd.IntN(999), rnd.IntN(5)+1, rnd.IntN(999))
		default:
			fmt.Fprintf(&b, `{"name": "search_places", "arguments": {"query": "vegan food", "tags": ["cheap", "near", "quiet"], "limit": %d}, "rules": {"tags": "unordered", "query": "case_insensitive"}}`,
				rnd.IntN(45)+5)
		}
		if i%7 == 3 {
			b.WriteString(`, "extra_fields": "allow"`)
		}
		b.WriteString("}")
	}
	b.WriteString("]}\n")
	return b.String()
}

func benchmarkGenerated(b *testing.B, name string) {
	src := []byte(genSuite(10000))
	fsys := fstest.MapFS{name: {Data: src}}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := LoadFS(fsys, name)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Cases) != 10000 {
			b.Fatalf("%d cases", len(s.Cases))
		}
	}
}

func BenchmarkLoad10kJSON(b *testing.B) { benchmarkGenerated(b, "suite.json") }

func BenchmarkLoad10kYAML(b *testing.B) { benchmarkGenerated(b, "suite.yaml") }

func TestGeneratedSuiteLoads(t *testing.T) {
	src := []byte(genSuite(100))
	for _, name := range []string{"suite.json", "suite.yaml"} {
		s, err := LoadFS(fstest.MapFS{name: {Data: src}}, name)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Cases) != 100 || s.Cases[99].ID != "c99" || len(s.Cases[1].Expected[0].Rules) != 2 {
			t.Errorf("%s: %d cases", name, len(s.Cases))
		}
	}
}

// BenchmarkParseOnly200k is the baseline for BenchmarkLoad200k: the time
// value.Parse alone takes over the whole corpus, building one tree and
// checking nothing.
func BenchmarkParseOnly200k(b *testing.B) {
	src, err := os.ReadFile(corpus200k)
	if err != nil {
		b.Skipf("no corpus at %s", corpus200k)
	}
	s := string(src)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseJSON(s, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLayerRules layers two files that each write n rules under
// defaults.rules: the second merges into every rule of the first, which
// costs time in proportion to n (it was n squared: 60,000 rules took 50 s).
func BenchmarkLayerRules(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			var sb strings.Builder
			sb.WriteString(`{"defaults": {"rules": {`)
			for i := range n {
				if i > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, `"p%d": {"exact": true}`, i)
			}
			sb.WriteString(`}}}`)
			src := []byte(sb.String())
			cases := []byte(`{"cases": [{"id": "a", "expected": []}]}`)
			fsys := fstest.MapFS{"a.json": {Data: src}, "b.json": {Data: src}, "c.json": {Data: cases}}
			b.SetBytes(int64(2 * len(src)))
			for b.Loop() {
				if _, err := LoadFS(fsys, "a.json", "b.json", "c.json"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
