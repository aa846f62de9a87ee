package response

import (
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// What the producer keeps out of the answer is not the answer: the final
// answer of harmony text is its final channel's message, and a <think>
// block that begins a text is neither answer nor calls.
func TestTextFinalAnswer(t *testing.T) {
	const hermesCall = `<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>`
	for _, tt := range []struct {
		name  string
		f     format.Format
		in    string // a JSON response
		calls []string
		final string // "" for none
	}{
		{name: "harmony final channel", f: format.Auto,
			in:    quote(`<|channel|>analysis<|message|>User asks 2+2. Simple.<|end|><|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>`),
			final: "2 + 2 = 4."},
		{name: "harmony preamble then final", f: format.Harmony,
			in:    quote(`<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>commentary<|message|>Let me see.<|end|><|start|>assistant<|channel|>final<|message|>It is 4.`),
			final: "It is 4."},
		{name: "harmony analysis alone", f: format.Harmony,
			in: quote(`<|channel|>analysis<|message|>The answer must be 4, I should say so.<|end|>`)},
		{name: "harmony final cut before its message", f: format.Harmony,
			in:    quote(`<|channel|>analysis<|message|>Say 4.<|end|><|start|>assistant<|channel|>final`),
			calls: []string{`!: text[43:77] "<|start|>assistant<|channel|>final": never reaches <|message|>`}},
		{name: "think then answer", f: format.Auto, in: quote("<think>\nThe user wants 4.\n</think>\n\nThe answer is 4."), final: "The answer is 4."},
		{name: "think twice then answer", f: format.Auto, in: quote("<think>a</think> <think>b</think>4"), final: "4"},
		{name: "think cut off", f: format.Auto, in: quote("<think>\nThe user wants")},
		{name: "think cut off, forced", f: format.Hermes, in: quote("<think>\nThe user wants")},
		{name: "think after the answer is the answer's", f: format.Auto, in: quote("It is 4. <think>sure</think>"), final: "It is 4. <think>sure</think>"},
		{name: "think in a message, forced", f: format.Hermes, in: `{"role": "assistant", "content": "<think>hmm</think>It is 4."}`, final: "It is 4."},
		{name: "think in a message, openai", f: format.Auto, in: `{"role": "assistant", "content": "<think>hmm</think>It is 4."}`, final: "<think>hmm</think>It is 4."},
		// A call written while thinking is not a call.
		{name: "hermes call in think", f: format.Hermes, in: quote("<think>I could " + hermesCall + "</think>No call needed."), final: "No call needed."},
		{name: "hermes call in think, auto", f: format.Auto, in: quote("<think>I could " + hermesCall + "</think>No call needed."), final: "No call needed."},
		{name: "hermes call after think", f: format.Auto, in: quote("<think>call f</think>\n" + hermesCall), calls: []string{`f {"x":1}`}},
		{name: "qwen call in think", f: format.QwenCoder, in: quote("<think><tool_call><function=f></function></tool_call></think>no"), final: "no"},
		{name: "llama call in think", f: format.LlamaJSON, in: quote(`<think><|python_tag|>{"name": "f", "parameters": {}}</think>no`), final: "no"},
		{name: "mistral call in think", f: format.Mistral, in: quote(`<think>[TOOL_CALLS]f[ARGS]{}</think>no`), final: "no"},
		{name: "deepseek call in think", f: format.DeepSeek, in: quote(`<think><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜></think>no`), final: "no"},
		{name: "pythonic call in think", f: format.Pythonic, in: quote(`<think><|python_start|>[f()]<|python_end|></think>no`), final: "no"},
		{name: "pythonic bare call after think", f: format.Pythonic, in: quote("<think>hmm</think>\n[f(x=1)]"), calls: []string{`f {"x":1}`}},
		// An unclosed <think> bounds nothing: the calls after it are read,
		// and there is no answer.
		{name: "think never closed, then a call", f: format.Auto, in: quote("<think>I will call f\n" + hermesCall), calls: []string{`f {"x":1}`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := value.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			run, _, err := readRun(r, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			checkCalls(t, run.Calls(), tt.calls)
			if run.Final != tt.final || run.HasFinal != (tt.final != "") {
				t.Errorf("final = %q, %v; want %q", run.Final, run.HasFinal, tt.final)
			}
			if calls, _, err := readCalls(r, tt.f, value.Limits{}); err != nil || !sameCalls(calls, run.Calls()) {
				t.Errorf("Extract = %v, %v; the run's calls %v", calls, err, run.Calls())
			}
		})
	}
}
