package plugins_test

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/rules"
	"github.com/callgrade/callgrade/value"
)

// BenchmarkPluginCompare measures the amortised cost of one comparison
// through a real plugin process (the test plugin's trivial "eq"), with
// batches of 1, 100 and 1000 items: each iteration is one batch, made of
// that many concurrent Compare calls.
func BenchmarkPluginCompare(b *testing.B) {
	tp := testPlugin(b)
	for _, n := range []int{1, 100, 1000} {
		b.Run("batch="+strconv.Itoa(n), func(b *testing.B) {
			h := open(b, map[string]suite.Plugin{"p": {Command: []string{tp}}},
				plugins.Batching(plugins.Options{}, n, 0, 20*time.Millisecond))
			c, err := h.Comparator("p.eq", value.Value{})
			if err != nil {
				b.Fatal(err)
			}
			inputs := make([]*rules.Input, n)
			for i := range inputs {
				inputs[i] = input(b, strconv.Itoa(i), `"`+strconv.Itoa(i)+`"`)
			}
			b.ResetTimer()
			for range b.N {
				var wg sync.WaitGroup
				for _, in := range inputs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if o := c.Compare(in); o.Err != nil {
							b.Error(o.Err)
						}
					}()
				}
				wg.Wait()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/item")
		})
	}
}
