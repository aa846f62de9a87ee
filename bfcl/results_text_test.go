package bfcl

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/results"
)

// localTests are results of local models, whose outputs BFCL keeps as the
// model's raw text, each written as that family writes it (the shapes of
// response's text tests and docs, and of BFCL's handlers in
// bfcl_eval/model_handler/local_inference: qwen_fc.py's <tool_call>
// blocks, llama_3_1.py's <|python_tag|> calls joined by ";"), for the
// questions of testdata/local. want is the converted response; verdict
// is "pass", or the kinds of the diffs the case fails with.
var localTests = []struct {
	name    string
	id      string
	result  string // the result, a string
	list    string // or the result as JSON, when it is not a string
	format  format.Format
	typed   bool // ResultOptions.Params from the questions
	want    string
	verdict string
	failed  string // what ConvertResults says is undecodable, "" for nothing
}{
	// Hermes and Qwen 2.5/3: JSON calls in <tool_call> blocks, the
	// answer's words around them.
	{name: "hermes", id: "simple_python_0",
		result:  "<tool_call>\n{\"name\": \"calculate_triangle_area\", \"arguments\": {\"base\": 10, \"height\": 5, \"unit\": \"units\"}}\n</tool_call>",
		want:    `[{"name":"calculate_triangle_area","arguments":{"base":10,"height":5,"unit":"units"}}]`,
		verdict: "pass"},
	{name: "hermes parallel, words around", id: "parallel_0",
		result: "I'll play both.\n<tool_call>\n{\"name\": \"spotify.play\", \"arguments\": {\"artist\": \"Taylor Swift\", \"duration\": 20}}\n</tool_call>\n" +
			"<tool_call>\n{\"name\": \"spotify.play\", \"arguments\": {\"artist\": \"Maroon 5\", \"duration\": 15}}\n</tool_call>\nEnjoy!",
		want:    `[{"name":"spotify.play","arguments":{"artist":"Taylor Swift","duration":20}},{"name":"spotify.play","arguments":{"artist":"Maroon 5","duration":15}}]`,
		verdict: "pass"},
	{name: "hermes unclosed", id: "simple_python_0",
		result:  "<tool_call>\n{\"name\": \"calculate_triangle_area\", \"arguments\": {\"base\": 10, \"height\": 5}}\n",
		want:    `[{"name":"","arguments":"hermes: call 0: text[0:88] \"\u003ctool_call\u003e\\n{\\\"name\\\": \\\"calculate_triangle_area\\\", …, \\\"height\\\": 5}}\\n\": never closed: no \u003c/tool_call\u003e follows"}]`,
		verdict: "invalid_arguments", failed: `result simple_python_0: hermes: call 0: text[0:88] "<tool_call>\n{\"name\": \"calculate_triangle_area\"`},
	{name: "hermes second call broken", id: "parallel_0",
		result: "<tool_call>\n{\"name\": \"spotify.play\", \"arguments\": {\"artist\": \"Taylor Swift\", \"duration\": 20}}\n</tool_call>\n" +
			"<tool_call>\n{\"name\": \"spotify.play\", \"arguments\": {\"artist\": \"Maroon 5\", \"duration\": 15,}}\n</tool_call>",
		want:    `[{"name":"spotify.play","arguments":{"artist":"Taylor Swift","duration":20}},{"name":"","arguments":"hermes: call 1: text[119:197] \"{\\\"name\\\": \\\"spotify.play\\\", \\\"arguments\\\": {\\\"artist\\\":…duration\\\": 15,}}\": not a usable JSON object: invalid JSON at byte 195: expected a string key, found '}'"}]`,
		verdict: "invalid_arguments", failed: "invalid JSON at byte 195"},

	// Qwen3-Coder: XML parameters, each value text that the question's
	// schema types.
	{name: "qwen-coder typed", id: "parallel_2", typed: true,
		result: "<tool_call>\n<function=calculate_resistance>\n<parameter=length>\n5\n</parameter>\n<parameter=area>\n0.01\n</parameter>\n<parameter=resistivity>\ncopper\n</parameter>\n</function>\n</tool_call>\n" +
			"<tool_call>\n<function=calculate_resistance>\n<parameter=length>\n5\n</parameter>\n<parameter=area>\n0.01\n</parameter>\n<parameter=resistivity>\naluminum\n</parameter>\n</function>\n</tool_call>",
		want:    `[{"name":"calculate_resistance","arguments":{"area":0.01,"length":5,"resistivity":"copper"}},{"name":"calculate_resistance","arguments":{"area":0.01,"length":5,"resistivity":"aluminum"}}]`,
		verdict: "pass"},
	{name: "qwen-coder typed boolean", id: "parallel_3", typed: true,
		result: "<tool_call>\n<function=protein_info.get_sequence_and_3D>\n<parameter=protein_name>\nhuman HbA1c\n</parameter>\n<parameter=model_3d>\ntrue\n</parameter>\n</function>\n</tool_call>\n" +
			"<tool_call>\n<function=protein_info.get_sequence_and_3D>\n<parameter=protein_name>\nnormal hemoglobin\n</parameter>\n</function>\n</tool_call>\n" +
			"<tool_call>\n<function=protein_info.get_sequence_and_3D>\n<parameter=protein_name>\nrat hemoglobin\n</parameter>\n<parameter=model_3d>\nTrue\n</parameter>\n</function>\n</tool_call>",
		want:    `[{"name":"protein_info.get_sequence_and_3D","arguments":{"model_3d":true,"protein_name":"human HbA1c"}},{"name":"protein_info.get_sequence_and_3D","arguments":{"protein_name":"normal hemoglobin"}},{"name":"protein_info.get_sequence_and_3D","arguments":{"model_3d":true,"protein_name":"rat hemoglobin"}}]`,
		verdict: "pass"},
	// Without the questions the values are text, and "5" is no integer.
	{name: "qwen-coder untyped", id: "simple_python_1",
		result:  "<tool_call>\n<function=math.factorial>\n<parameter=number>\n5\n</parameter>\n</function>\n</tool_call>",
		want:    `[{"name":"math.factorial","arguments":{"number":"5"}}]`,
		verdict: "mismatch"},
	{name: "qwen-coder typed integer", id: "simple_python_1", typed: true,
		result:  "<tool_call>\n<function=math.factorial>\n<parameter=number>\n5\n</parameter>\n</function>\n</tool_call>",
		want:    `[{"name":"math.factorial","arguments":{"number":5}}]`,
		verdict: "pass"},
	{name: "qwen-coder unclosed parameter", id: "simple_python_1", typed: true,
		result:  "<tool_call>\n<function=math.factorial>\n<parameter=number>\n5\n</function>\n</tool_call>",
		want:    `[{"name":"math.factorial","arguments":"qwen-coder: call 0: text[38:59] \"\u003cparameter=number\u003e\\n5\\n\": never closed: no \u003c/parameter\u003e follows"}]`,
		verdict: "invalid_arguments", failed: "never closed: no </parameter> follows"},

	// Llama 3.1-3.3: JSON calls after <|python_tag|>, several joined by
	// ";", as llama_3_1.py's docstring shows them.
	{name: "llama-json", id: "simple_python_0",
		result:  `<|python_tag|>{"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}}<|eom_id|>`,
		want:    `[{"name":"calculate_triangle_area","arguments":{"base":10,"height":5}}]`,
		verdict: "pass"},
	{name: "llama-json parallel", id: "parallel_0",
		result:  `<|python_tag|>{"name": "spotify.play", "parameters": {"artist": "Taylor Swift", "duration": 20}}; {"name": "spotify.play", "parameters": {"artist": "Maroon 5", "duration": 15}}`,
		want:    `[{"name":"spotify.play","arguments":{"artist":"Taylor Swift","duration":20}},{"name":"spotify.play","arguments":{"artist":"Maroon 5","duration":15}}]`,
		verdict: "pass"},
	{name: "llama-json unclosed", id: "simple_python_0",
		result:  `<|python_tag|>{"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}`,
		want:    `[{"name":"","arguments":"llama-json: call 0: text[14:89] \"{\\\"name\\\": \\\"calculate_triangle_area\\\", \\\"parameters\\\"…10, \\\"height\\\": 5}\": never closed: the text ends inside the JSON object"}]`,
		verdict: "invalid_arguments", failed: "llama-json: call 0: text[14:89]"},

	// Mistral: a JSON list after [TOOL_CALLS] (tokenizers v2-v7), and
	// NAME[ARGS]{...} (v11 on).
	{name: "mistral", id: "parallel_0",
		result:  `[TOOL_CALLS][{"name": "spotify.play", "arguments": {"artist": "Taylor Swift", "duration": 20}}, {"name": "spotify.play", "arguments": {"artist": "Maroon 5", "duration": 15}}]`,
		want:    `[{"name":"spotify.play","arguments":{"artist":"Taylor Swift","duration":20}},{"name":"spotify.play","arguments":{"artist":"Maroon 5","duration":15}}]`,
		verdict: "pass"},
	{name: "mistral v11", id: "simple_python_0",
		result:  `[TOOL_CALLS]calculate_triangle_area[ARGS]{"base": 10, "height": 5}</s>`,
		want:    `[{"name":"calculate_triangle_area","arguments":{"base":10,"height":5}}]`,
		verdict: "pass"},
	{name: "mistral no arguments", id: "simple_python_0",
		result:  `[TOOL_CALLS][{"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}}]`,
		want:    `[{"name":"calculate_triangle_area","arguments":"mistral: call 0: text[12:90] \"[{\\\"name\\\": \\\"calculate_triangle_area\\\", \\\"parameters…, \\\"height\\\": 5}}]\": element 0: \"arguments\" is missing"}]`,
		verdict: "invalid_arguments", failed: `element 0: "arguments" is missing`},

	// DeepSeek V3/R1 and V3.1, after the chain of thought BFCL cuts off
	// at </think>.
	{name: "deepseek v3", id: "simple_python_1",
		result:  "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>math.factorial\n```json\n{\"number\": 5}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>",
		want:    `[{"name":"math.factorial","arguments":{"number":5}}]`,
		verdict: "pass"},
	{name: "deepseek v3.1", id: "simple_python_1",
		result:  `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>math.factorial<｜tool▁sep｜>{"number": 5}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
		want:    `[{"name":"math.factorial","arguments":{"number":5}}]`,
		verdict: "pass"},
	{name: "deepseek bad JSON", id: "simple_python_1",
		result:  `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>math.factorial<｜tool▁sep｜>{"number": five}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
		want:    `[{"name":"math.factorial","arguments":"deepseek: call 0: text[87:103] \"{\\\"number\\\": five}\": not a usable JSON object: invalid JSON at byte 98: unexpected 'f'"}]`,
		verdict: "invalid_arguments", failed: "deepseek: call 0: text[87:103]"},

	// gpt-oss: the harmony format, the call a commentary message to
	// functions.NAME after the analysis.
	{name: "harmony", id: "simple_python_1",
		result:  `<|channel|>analysis<|message|>Need factorial of 5.<|end|><|start|>assistant<|channel|>commentary to=functions.math.factorial <|constrain|>json<|message|>{"number":5}<|call|>`,
		want:    `[{"name":"math.factorial","arguments":{"number":5}}]`,
		verdict: "pass"},
	{name: "harmony cut short", id: "simple_python_1",
		result:  `<|channel|>analysis<|message|>Need factorial of 5.<|end|><|start|>assistant<|channel|>commentary to=functions.math.factorial <|constrain|>json<|message|>{"number":`,
		want:    `[{"name":"math.factorial","arguments":"harmony: call 0: text[153:163] \"{\\\"number\\\":\": not a usable JSON object: invalid JSON at byte 163: unexpected end of input"}]`,
		verdict: "invalid_arguments", failed: "harmony: call 0: text[153:163]"},
	// A marker and no call: an answer, no call.
	{name: "harmony final answer", id: "simple_python_1",
		result:  `<|channel|>analysis<|message|>No tool needed.<|end|><|start|>assistant<|channel|>final<|message|>5! = 120.<|return|>`,
		want:    `[]`,
		verdict: "missing_call"},

	// Llama 4: Python calls between <|python_start|> and <|python_end|>.
	{name: "pythonic", id: "simple_python_1",
		result:  `<|python_start|>[math.factorial(number=5)]<|python_end|>`,
		want:    `[{"name":"math.factorial","arguments":{"number":5}}]`,
		verdict: "pass"},
	{name: "pythonic positional", id: "simple_python_1",
		result:  `<|python_start|>[math.factorial(5)]<|python_end|>`,
		want:    `[{"name":"","arguments":"pythonic: call 0: text[16:35] \"[math.factorial(5)]\": not Python calls: at byte 32: call of math.factorial: expected a keyword argument name=value (positional arguments are not supported)"}]`,
		verdict: "invalid_arguments", failed: "pythonic: call 0: text[16:35]"},

	// Python call syntax, and what is neither, as they always were read.
	{name: "python", id: "simple_python_1", result: `[math.factorial(number=5)]`,
		want: `[{"name":"math.factorial","arguments":{"number":5}}]`, verdict: "pass"},
	{name: "python with a marker in a string", id: "simple_python_0",
		result: `[calculate_triangle_area(base=10, height=5, unit="<tool_call>{")]`,
		want:   `[{"name":"calculate_triangle_area","arguments":{"base":10,"height":5,"unit":"\u003ctool_call\u003e{"}}]`, verdict: "mismatch"},
	{name: "words", id: "simple_python_1", result: `The factorial of 5 is 120.`,
		want:    `[{"name":"","arguments":"\"The factorial of 5 is 120.\""}]`,
		verdict: "invalid_arguments", failed: `line 1, column 1: expected a call name(...), found "The"`},
	{name: "empty", id: "simple_python_1", result: ``, want: `[]`, verdict: "missing_call"},

	// A list of strings, each read on its own.
	{name: "list of texts", id: "parallel_0",
		list:    `["<tool_call>\n{\"name\": \"spotify.play\", \"arguments\": {\"artist\": \"Taylor Swift\", \"duration\": 20}}\n</tool_call>", "[spotify.play(artist='Maroon 5', duration=15)]"]`,
		want:    `[{"name":"spotify.play","arguments":{"artist":"Taylor Swift","duration":20}},{"name":"spotify.play","arguments":{"artist":"Maroon 5","duration":15}}]`,
		verdict: "pass"},
	{name: "list with a broken text", id: "simple_python_1",
		list:    `["<|python_tag|>{\"name\": \"math.factorial\", \"parameters\": {\"number\": 5}"]`,
		want:    `[{"name":"","arguments":"result[0]: llama-json: call 0: text[14:68] \"{\\\"name\\\": \\\"math.factorial\\\", \\\"parameters\\\": {\\\"number\\\": 5}\": never closed: the text ends inside the JSON object"}]`,
		verdict: "invalid_arguments", failed: "result simple_python_1: result[0]: llama-json: call 0"},

	// A forced format reads every string in it: Hermes reads Python as
	// an answer, and Qwen3-Coder's text as a block that is not JSON.
	{name: "forced hermes, Python", id: "simple_python_1", format: format.Hermes,
		result: `[math.factorial(number=5)]`, want: `[]`, verdict: "missing_call"},
	{name: "forced hermes, Qwen3-Coder", id: "simple_python_1", format: format.Hermes,
		result:  "<tool_call>\n<function=math.factorial>\n<parameter=number>\n5\n</parameter>\n</function>\n</tool_call>",
		want:    `[{"name":"","arguments":"hermes: call 0: text[12:83] \"\u003cfunction=math.factorial\u003e\\n\u003cparameter=number\u003e\\n5\\n\u003c…ter\u003e\\n\u003c/function\u003e\": not a usable JSON object: invalid JSON at byte 12: unexpected '\u003c'"}]`,
		verdict: "invalid_arguments", failed: "hermes: call 0: text[12:83]"},
	{name: "forced llama-json, no tag", id: "simple_python_1", format: format.LlamaJSON,
		result: `{"name": "math.factorial", "parameters": {"number": 5}}`,
		want:   `[{"name":"math.factorial","arguments":{"number":5}}]`, verdict: "pass"},
}

// TestConvertLocalResults converts each result of a local model, checks
// the response line, and scores it with the suite imported from the same
// questions.
func TestConvertLocalResults(t *testing.T) {
	questions, err := os.ReadFile("testdata/local/questions.json")
	if err != nil {
		t.Fatal(err)
	}
	answers, err := os.ReadFile("testdata/local/answers.json")
	if err != nil {
		t.Fatal(err)
	}
	imported, err := Import(Input{Questions: bytes.NewReader(questions), QuestionsName: "questions.json",
		Answers: bytes.NewReader(answers), AnswersName: "answers.json"}, SemanticsBFCL)
	if err != nil {
		t.Fatal(err)
	}
	s, err := imported.doc.Decode("local.json")
	if err != nil {
		t.Fatal(err)
	}
	g, err := callgrade.New(suite.ViewOf(s), callgrade.Options{Format: format.Calls})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	params, err := QuestionParams(bytes.NewReader(questions), "questions.json")
	if err != nil {
		t.Fatal(err)
	}

	for _, tt := range localTests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.list
			if res == "" {
				q, _ := json.Marshal(tt.result)
				res = string(q)
			}
			line := `{"id": "` + tt.id + `", "result": ` + res + "}\n"
			o := ResultOptions{Format: tt.format}
			if tt.typed {
				o.Params = params
			}
			var out bytes.Buffer
			_, undecodable, err := ConvertResults(strings.NewReader(line), "result.json", &out, o)
			if err != nil {
				t.Fatal(err)
			}
			want := `{"id":"` + tt.id + `","response":` + tt.want + "}\n"
			if out.String() != want {
				t.Errorf("converted\n%s\nto\n%s want\n%s", line, out.String(), want)
			}
			switch {
			case tt.failed == "" && len(undecodable) > 0:
				t.Errorf("Undecodable = %q, want none", undecodable)
			case tt.failed != "" && (len(undecodable) != 1 || !strings.Contains(undecodable[0], tt.failed) ||
				!strings.HasPrefix(undecodable[0], "result.json line 1: result "+tt.id+": ")):
				t.Errorf("Undecodable = %q, want one naming the line and %s, with %q", undecodable, tt.id, tt.failed)
			}

			var resp struct{ Response json.RawMessage }
			if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
				t.Fatal(err)
			}
			r, err := g.Score(context.Background(), tt.id, resp.Response)
			if err != nil {
				t.Fatal(err)
			}
			if got := verdict(r); got != tt.verdict {
				t.Errorf("verdict %q, want %q: %+v", got, tt.verdict, r.Diffs)
			}
		})
	}
}

// verdict is "pass", or the kinds of r's diffs, each once, in order.
func verdict(r *results.Result) string {
	if r.Pass {
		return "pass"
	}
	var kinds []string
	for _, d := range r.Diffs {
		if k := string(d.Kind); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	return strings.Join(kinds, " ")
}

// TestTextFormats: ResultOptions.Format takes the text formats of package
// response; any other name, a format that is not a text format among
// them, is an error that lists them. (The callgrade command's
// --text-format reads the same names, cmd/callgrade's
// TestParseTextFormat.)
func TestTextFormats(t *testing.T) {
	for _, f := range textFormats() {
		if _, err := format.Parse(string(f)); err != nil {
			t.Errorf("%s is no format of package response: %v", f, err)
		}
		if _, _, err := ConvertResults(strings.NewReader(""), "r.json", &bytes.Buffer{}, ResultOptions{Format: f}); err != nil {
			t.Errorf("ConvertResults refused %s: %v", f, err)
		}
	}
	for _, s := range []string{"xml", "openai", "calls"} {
		_, _, err := ConvertResults(strings.NewReader(""), "r.json", &bytes.Buffer{}, ResultOptions{Format: format.Format(s)})
		if err == nil || !strings.Contains(err.Error(), "hermes, qwen-coder, llama-json, mistral, deepseek, harmony, pythonic") {
			t.Errorf("ConvertResults with format %q: error = %v, want one listing the text formats", s, err)
		}
	}
}

// TestQuestionParams: the parameters of each question's functions, in
// JSON Schema, by question id and function name.
func TestQuestionParams(t *testing.T) {
	f, err := os.Open("testdata/local/questions.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	params, err := QuestionParams(f, "questions.json")
	if err != nil {
		t.Fatal(err)
	}
	p := params["parallel_2"]["calculate_resistance"]
	props, _ := p.Get("properties")
	area, _ := props.Get("area")
	if typ, _ := area.Get("type"); typ.Str() != "number" || len(params) != 5 {
		t.Errorf("parallel_2's calculate_resistance = %s (of %d questions); want area a number", p, len(params))
	}
	if typ, _ := p.Get("type"); typ.Str() != "object" {
		t.Errorf("parallel_2's calculate_resistance is %s, want an object", typ)
	}
	if _, err := QuestionParams(strings.NewReader(`{"id": "a"}`+"\n"), "q.json"); err == nil || !strings.Contains(err.Error(), "q.json:1") {
		t.Errorf("a question without functions: error %v, want one naming q.json:1", err)
	}
}
