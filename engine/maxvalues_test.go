package engine

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/value"
)

// TestRunMaxValues: a response line of more values than
// Options.Limits.MaxValues fails its case, named by the id the line
// starts with, with the limit in the diff; the lines around it are scored
// as ever. A call list of many values fails the same way, however the
// values are split between calls and arguments.
func TestRunMaxValues(t *testing.T) {
	small := func(id string) string {
		return `{"id":"` + id + `","response":[{"name":"f","arguments":{"city":"x"}}]}` + "\n"
	}
	many := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"k`)
			b.WriteString(strings.Repeat("1", i%5+1))
			b.WriteString(`x`)
			b.WriteString(strings.Repeat("2", i/5))
			b.WriteString(`":1`)
		}
		return b.String()
	}
	for _, tt := range []struct {
		name, line string
		max        int
		fail       bool
	}{
		{"arguments within", `{"id":"b","response":[{"name":"f","arguments":{"city":"x",` + many(30) + `}}]}`, 100, false},
		{"arguments past", `{"id":"b","response":[{"name":"f","arguments":{"city":"x",` + many(300) + `}}]}`, 100, true},
		{"calls past", `{"id":"b","response":[` + strings.Repeat(`{"name":"f","arguments":{}},`, 40) + `{"name":"f","arguments":{"city":"x"}}]}`, 100, true},
		{"arguments string past", `{"id":"b","response":{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"city\":\"x\",` + strings.ReplaceAll(many(300), `"`, `\"`) + `}"}}]}}]}}`, 100, true},
		{"default limit, within", `{"id":"b","response":[{"name":"f","arguments":{"city":"x",` + many(3000) + `}}]}`, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := loadWith(t, capSuite, Options{})
			if tt.max > 0 {
				e = loadWith(t, capSuite, Options{Limits: valueLimits(tt.max)})
			}
			var out bytes.Buffer
			in := small("a") + tt.line + "\n" + small("c")
			if _, err := e.Run(context.Background(), strings.NewReader(in), &out, RunOptions{Name: "r.jsonl"}); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != 3 {
				t.Fatalf("%d result lines, want 3:\n%s", len(lines), out.String())
			}
			for _, i := range []int{0, 2} {
				if !strings.Contains(lines[i], `"pass":true`) {
					t.Errorf("line %d: %s, want a pass", i+1, lines[i])
				}
			}
			b := lines[1]
			if !strings.HasPrefix(b, `{"id":"b"`) {
				t.Fatalf("second result %s, want case b", b)
			}
			if tt.fail {
				if !strings.Contains(b, `"pass":false`) || !regexp.MustCompile(`more than 100 (JSON )?values`).MatchString(b) {
					t.Errorf("got %s, want b failed naming the limit of 100 values", b)
				}
			} else if !strings.Contains(b, `"pass":false`) || strings.Contains(b, "values") && strings.Contains(b, "more than") {
				// Extra arguments fail the call (extra_fields: reject),
				// but not for the limit.
				t.Errorf("got %s, want b failed for its extra arguments, not the limit", b)
			}
		})
	}
}

func valueLimits(maxValues int) value.Limits { return value.Limits{MaxValues: maxValues} }
