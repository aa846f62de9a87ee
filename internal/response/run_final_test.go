package response

import (
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// TestReadAs reads the final answer of runs as FinalJoined and FinalBFCL
// read it: several text blocks, a run that ends in a call whose arguments
// do not parse, and the runs whose answer both readings take alike.
func TestReadAs(t *testing.T) {
	const (
		user   = `{"role":"user","content":"Who?"}`
		call   = `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\": \"who\"}"}}]}`
		result = `{"role":"tool","tool_call_id":"c1","content":"[]"}`
	)
	tests := []struct {
		name         string
		run          string
		joined, bfcl string // "" for none
		steps        int    // the steps FinalBFCL keeps
	}{
		{"one string", `[` + user + `,` + call + `,` + result + `,{"role":"assistant","content":"It is X."}]`,
			"It is X.", "It is X.", 1},
		{"anthropic blocks", `[{"role":"user","content":"Who?"},{"role":"assistant","content":[{"type":"text","text":"It is X."},{"type":"text","text":"Hope this helps."}]}]`,
			"It is X.Hope this helps.", "It is X.", 0},
		{"gemini parts", `[{"role":"user","parts":[{"text":"Who?"}]},{"role":"model","parts":[{"text":"Here is what I found."},{"text":"It is X."}]}]`,
			"Here is what I found.It is X.", "Here is what I found.", 0},
		{"a single message's blocks", `{"role":"assistant","content":[{"type":"text","text":"A"},{"type":"text","text":"B"}]}`,
			"AB", "A", 0},
		{"a first block that is empty", `[{"role":"user","content":"Who?"},{"role":"assistant","content":[{"type":"text","text":""},{"type":"text","text":"X"}]}]`,
			"X", "", 0},
		{"ends in a call that does not parse", `[` + user + `,` + call + `,` + result +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{\"q\": \"X's conf"}}]}]`,
			"", `{'search': '{"q": "X\'s conf'}`, 1},
		{"the first call's repr when the second does not parse", `[` + user +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"a","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"b","arguments":"{"}}]}]`,
			"", `{'a': '{}'}`, 1},
		{"ends in a good call", `[` + user + `,` + call + `,` + result + `]`, "", "", 1},
		{"a bad call, then an answer", `[` + user +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{"}}]},{"role":"assistant","content":"X"}]`,
			"X", "X", 0},
		{"a bad call, then null content", `[` + user +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{"}}]},{"role":"assistant","content":null}]`,
			"", "", 0},
		{"text beside an empty tool_calls list", `[` + user + `,{"role":"assistant","content":"X","tool_calls":[]}]`,
			"X", "", 0},
		{"an answer, then an empty message", `[` + user + `,{"role":"assistant","content":"X"},{"role":"assistant","content":""}]`,
			"X", "", 0},
		{"an answer, then a call with NaN", `[` + user + `,{"role":"assistant","content":"X"}` +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{\"n\": NaN}"}}]}]`,
			"", "X", 0},
		{"an answer, then a call with a key twice", `[` + user + `,{"role":"assistant","content":"X"}` +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{\"q\": 1, \"q\": 2}"}}]}]`,
			"", "X", 0},
		{"an answer, then a call with a lone surrogate", `[` + user + `,{"role":"assistant","content":"X"}` +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{\"q\": \"\\ud800\"}"}}]}]`,
			"", "X", 0},
		{"a bad call, then a good one", `[` + user +
			`,{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{\"q\": \"X"}}]},` + call + `,` + result + `]`,
			"", `{'search': '{"q": "X'}`, 1},
		{"an answer, then a good call", `[` + user + `,{"role":"assistant","content":"X"},` + call + `,` + result + `]`,
			"", "X", 1},
		{"a single message that calls with broken arguments", `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\": \"X"}}]}`,
			"", `{'search': '{"q": "X'}`, 0},
		{"a single completion whose second call is broken", `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[` +
			`{"id":"c1","type":"function","function":{"name":"a","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"b","arguments":"{"}}]}}]}`,
			"", `{'a': '{}'}`, 1},
		{"a single message with an empty tool_calls list", `{"role":"assistant","content":"X","tool_calls":[]}`,
			"X", "", 0},
		{"a single message that calls with NaN", `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"n\": NaN}"}}]}`,
			"", "", 0},
		{"a string with thinking", `"<think>Not X.</think>It is Y."`, "It is Y.", "<think>Not X.</think>It is Y.", 0},
		{"a string holding a call in a model's text form", `"<tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": \"X\"}}\n</tool_call>"`,
			"", "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": \"X\"}}\n</tool_call>", 1},
		{"text beside a call", `[` + user + `,{"role":"assistant","content":"X","tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{}"}}]}]`,
			"", "", 1},
	}
	var kept Run
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := value.Parse(tt.run)
			if err != nil {
				t.Fatal(err)
			}
			run, _, err := readRun(v, format.Auto)
			if err != nil {
				t.Fatal(err)
			}
			if j := run.ReadAs(format.FinalJoined); j != &run || run.Final != tt.joined || run.HasFinal != (tt.joined != "") {
				t.Errorf("joined: %q (%v), want %q", run.Final, run.HasFinal, tt.joined)
			}
			b := run.ReadAs(format.FinalBFCL)
			if b.Final != tt.bfcl || b.HasFinal != (tt.bfcl != "") || len(b.Steps) != tt.steps {
				t.Errorf("bfcl: %q (%v), %d steps, want %q, %d steps", b.Final, b.HasFinal, len(b.Steps), tt.bfcl, tt.steps)
			}
			// Into a Run kept from one reading to the next, as a Scorer
			// reads: the same reading, and the copy, when there is one,
			// is the Run given.
			into := run.ReadAsInto(format.FinalBFCL, &kept)
			if into.Final != b.Final || into.HasFinal != b.HasFinal || len(into.Steps) != len(b.Steps) || into != &run && into != &kept {
				t.Errorf("bfcl into a kept Run: %q (%v), %d steps, want %q (%v), %d steps", into.Final, into.HasFinal, len(into.Steps), b.Final, b.HasFinal, len(b.Steps))
			}
			if len(run.Steps) < len(b.Steps) {
				t.Errorf("bfcl reading has more steps (%d) than the run (%d)", len(b.Steps), len(run.Steps))
			}
		})
	}
}

// TestPyRepr writes Python 3's repr of strings, as BFCL's str() of a
// call dict quotes them.
func TestPyRepr(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, `''`},
		{`{"q": "x"}`, `'{"q": "x"}'`},
		{`it's`, `"it's"`},
		{`it's "x"`, `'it\'s "x"'`},
		{`a\b`, `'a\\b'`},
		{"tab\tnl\ncr\r", `'tab\tnl\ncr\r'`},
		{"\x00\x7f", `'\x00\x7f'`},
		{"no\u00a0break", `'no\xa0break'`},
		{"zero\u200bwidth", `'zero\u200bwidth'`},
		{"ČSSR Hyōgo ✓", `'ČSSR Hyōgo ✓'`},
		{"\U000e0001", `'\U000e0001'`},
	}
	for _, tt := range tests {
		if got := pyRepr(tt.in); got != tt.want {
			t.Errorf("pyRepr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestReadAsAnswer reads the answer of an {answer, context} object, in
// JSON or as a Python dict literal, fenced or not; other text stays.
func TestReadAsAnswer(t *testing.T) {
	tests := []struct{ final, want string }{
		{`{"answer": "Michael", "context": "You said so."}`, "Michael"},
		{`{'answer': 'I do not know', 'context': 'Michael, maybe'}`, "I do not know"},
		{"```json\n{\"answer\": \"Michael\"}\n```", "Michael"},
		{"```\n{'answer': \"it's Michael\"}\n```", "it's Michael"},
		{`{"answer": 35, "context": ""}`, "35"},
		{`{"answer": ""}`, ""},
		{`It is Michael.`, "It is Michael."},
		{`{"context": "Michael"}`, `{"context": "Michael"}`},
		{`{'answer': 'Michael'`, `{'answer': 'Michael'`},
		{`The answer: {"answer": "Michael"}`, `The answer: {"answer": "Michael"}`},
		// An object that names an answer but does not read has none:
		// its context is never judged in its place.
		{`{"answer": "I do not know", "context": [` + strings.Repeat("1,", 1<<16) + `"Michael"]}`, ""},
		{`{'answer': 'I do not know', 'answer': 'I do not know', 'context': 'Michael'}`, ""},
		{`{"answer": "I do not know", "confidence": NaN, "context": "Michael"}`, ""},
		{`{"answer" : "I do not know", "context": "Michael",}x}`, ""},
		{"~~~json\n{\"answer\": \"Michael\"}\n~~~", "Michael"},
		{"~~~\n{'answer': 'I do not know', 'context': 'Michael'}\n~~~", "I do not know"},
		// Nor does an object that names none.
		{`{"context": "Michael", "x": NaN}`, `{"context": "Michael", "x": NaN}`},
		{`{"answers": NaN}`, `{"answers": NaN}`},
		{`{answer: "Michael"}`, `{answer: "Michael"}`},
		{`{"answer": "Michael", "context": [` + strings.Repeat("1,", 1<<15) + `1]}`, "Michael"},
	}
	for _, tt := range tests {
		run := Run{Final: tt.final, HasFinal: true}
		got := run.ReadAs(format.FinalAnswer)
		if got.Final != tt.want || got.HasFinal != (tt.want != "") {
			t.Errorf("%q: %q (%v), want %q", tt.final, got.Final, got.HasFinal, tt.want)
		}
	}
	if none := (&Run{}).ReadAs(format.FinalAnswer); none.HasFinal {
		t.Errorf("a run without a final answer has one: %q", none.Final)
	}
}
