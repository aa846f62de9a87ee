package results

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestRead: Read reads a results file strictly, a result per line, blank
// lines skipped; a line that is not a results line, a case's line of an
// empty id and a second line for a case (or for a sample of one) are a
// *LineError naming the file and the line; unknown_case lines may repeat
// their id, and have an empty one.
func TestRead(t *testing.T) {
	const good = `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}` + "\n"
	unknown := func(id string) string {
		return `{"id":"` + id + `","pass":false,"score":0,"calls":[],"diffs":[{"kind":"unknown_case","call":null,"path":"","rule":"","message":"m"}]}` + "\n"
	}
	sample := func(k int) string {
		return fmt.Sprintf(`{"id":"s","sample":%d,"pass":true,"score":1,"calls":[],"diffs":[]}`+"\n", k)
	}
	tests := []struct {
		name, text string
		ids        string // of the results read, space-separated
		err        string // "" for none
	}{
		{"empty", "", "", ""},
		{"blank lines", "\n" + good + "  \n" + strings.Replace(good, `"a"`, `"b"`, 1), "a b", ""},
		{"unknown lines repeat", good + unknown("zz") + unknown("zz") + unknown(""), "a zz zz ", ""},
		{"samples", sample(0) + sample(1), "s s", ""},
		{"not json", good + "nope\n", "", `r.jsonl:2: not a results line: invalid JSON`},
		{"a responses line", `{"id":"a","response":[]}` + "\n", "", `r.jsonl:1: not a results line: no "pass" (is this a responses file?)`},
		{"empty id", `{"id":"","pass":true,"score":1,"calls":[],"diffs":[]}` + "\n", "", `r.jsonl:1: not a results line: "id" is empty`},
		{"a second line", good + unknown("zz") + good, "", `r.jsonl:3: not a results line: a second line for case "a" (the first is line 1)`},
		{"a second sample", sample(0) + sample(1) + sample(1), "", `r.jsonl:3: not a results line: a second line for sample 1 of case "s" (the first is line 2)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Read(strings.NewReader(tt.text), "r.jsonl")
			if tt.err != "" {
				var le *LineError
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) || !errors.As(err, &le) || le.File != "r.jsonl" || le.Line == 0 {
					t.Fatalf("error %#v, want a *LineError beginning %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]string, len(rs))
			for i := range rs {
				ids[i] = rs[i].ID
			}
			if got := strings.Join(ids, " "); got != tt.ids {
				t.Errorf("ids %q, want %q", got, tt.ids)
			}
		})
	}
}
