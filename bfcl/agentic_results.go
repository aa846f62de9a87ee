package bfcl

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/callgrade/callgrade/internal/suitedoc"
)

// agenticVariant returns the question file of an agentic results
// category (web_search_base, memory_kv, ...: BFCL runs each web_search
// question under two variants and each memory question under three
// back-ends), and whether it is one.
func agenticVariant(category string) (string, bool) {
	switch category {
	case "web_search_base", "web_search_no_snippet":
		return "web_search", true
	case "memory_kv", "memory_vector", "memory_rec_sum":
		return "memory", true
	}
	return "", false
}

// convertAgenticResults writes the responses of a BFCL results file of an
// agentic variant: each {"id", "result"} line, the result [[step, ...]] as
// BFCL's FC handlers write it (a single turn; a step a list of
// {name: arguments} calls, a text, a list of text blocks, or null),
// becomes an {"id", "response"} line whose response is the run as OpenAI
// messages, its id the question's (web_search_base_0 is web_search_0). A
// result that is not one turn fails its case as BFCL's
// agentic:inference_error does: its response has no answer.
func convertAgenticResults(r io.Reader, name, variant, questions string, w io.Writer) (int, error) {
	bw := bufio.NewWriter(w)
	written := 0
	err := suitedoc.ReadLines(r, name, "result", func(id string, line *suitedoc.Node, _ int) error {
		res, ok := line.Get("result")
		if !ok {
			return fmt.Errorf("result %s has no \"result\"", id)
		}
		qid, ok := strings.CutPrefix(id, variant+"_")
		if !ok {
			return fmt.Errorf("result %s is not a %s result: its id does not start with %s_", id, variant, variant)
		}
		msgs := suitedoc.ArrayOf()
		if res.Kind == suitedoc.Array && len(res.Vals) == 1 && res.Vals[0].Kind == suitedoc.Array {
			for i, step := range res.Vals[0].Vals {
				msgs.Vals = append(msgs.Vals, agenticMessage(step, i))
			}
		}
		out := suitedoc.NewObject().Set("id", suitedoc.StringOf(questions+"_"+qid)).Set("response", msgs)
		bw.Write(out.AppendJSON(nil))
		bw.WriteByte('\n')
		written++
		return nil
	})
	if err != nil {
		return 0, err
	}
	return written, bw.Flush()
}

// agenticMessage is step i of an agentic run as an OpenAI assistant
// message: a list holding a {name: arguments} object is a message of
// calls (arguments that are a string kept as the model wrote them, so
// that ones that do not parse make the message the answer, as in BFCL),
// a list of strings a content of text parts, anything else the content
// itself (null and "" are no answer).
func agenticMessage(step *suitedoc.Node, i int) *suitedoc.Node {
	msg := suitedoc.NewObject().Set("role", suitedoc.StringOf("assistant"))
	if step.Kind != suitedoc.Array {
		if step.Kind == suitedoc.Object {
			step = suitedoc.StringOf(string(step.AppendJSON(nil)))
		}
		return msg.Set("content", step)
	}
	calls, parts := suitedoc.ArrayOf(), suitedoc.ArrayOf()
	for j, e := range step.Vals {
		switch e.Kind {
		case suitedoc.Object:
			for _, k := range e.Keys {
				args, _ := e.Get(k)
				if args.Kind != suitedoc.String {
					args = suitedoc.StringOf(string(args.AppendJSON(nil)))
				}
				fn := suitedoc.NewObject().Set("name", suitedoc.StringOf(k)).Set("arguments", args)
				calls.Vals = append(calls.Vals, suitedoc.NewObject().
					Set("id", suitedoc.StringOf(fmt.Sprintf("call_%d_%d", i, j))).
					Set("type", suitedoc.StringOf("function")).Set("function", fn))
			}
		case suitedoc.String:
			parts.Vals = append(parts.Vals, suitedoc.NewObject().
				Set("type", suitedoc.StringOf("text")).Set("text", e))
		}
	}
	if len(calls.Vals) > 0 {
		return msg.Set("content", &suitedoc.Node{}).Set("tool_calls", calls)
	}
	return msg.Set("content", parts)
}
