package bfcl

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/internal/response"
	"github.com/callgrade/callgrade/internal/suitedoc"
	"github.com/callgrade/callgrade/value"
)

// ConvertResults reads a BFCL results file of model outputs (JSON Lines,
// {"id", "result"}, as BFCL writes result/<model>/BFCL_v4_<category>_result.json)
// and writes the responses file for it: {"id", "response"} lines whose
// response is a list of {name, arguments} calls. It returns the number of
// responses written, one per result, and why each undecodable result, or
// call of a model's text, fails its case.
//
// A result is a list of {function_name: {arguments}} dicts, or a string,
// or a list of such strings. A string is Python call syntax such as
// `[f(a=1, b="x")]` or, when it is not and holds a special token of a
// text format (<tool_call>, <|python_tag|>, [TOOL_CALLS], ...), a local
// model's raw text, read in that format; o says otherwise (the zero
// ResultOptions read strings so). An empty result (or an empty string) is
// no call.
//
// A result the model wrote so badly that it cannot be decoded fails its
// case, as in BFCL, instead of stopping the conversion: its response is one
// call whose arguments are the result's text, which scores as
// invalid_arguments, and undecodable says why. A call of a model's text
// that does not read (a <tool_call> never closed, JSON that does not
// parse, a syntax its format does not have) is not left out either: it is
// a call, with the name it was given if any, whose arguments are the
// string that says why (not JSON, so that it scores as invalid_arguments):
// the format, and the message of the format's reader, which names the
// call's span in the text as text[from:to] (byte offsets) and quotes it;
// undecodable has the same message. The calls around it that read are
// kept. The text around the calls (the answer's words, a chain of
// thought) is no call, and a text with a marker and no call (an answer)
// is no call either.
//
// A line of the file that is not a result at all (no id, not JSON, an id
// twice) is an error naming the file and the line, as is an o.Format that
// is not a text format.
func ConvertResults(r io.Reader, name string, w io.Writer, o ResultOptions) (written int, undecodable []string, err error) {
	texts := textFormats()
	if o.Format != format.Auto && !slices.Contains(texts, o.Format) {
		return 0, nil, textFormatError(o.Format)
	}
	bw := bufio.NewWriter(w)
	err = suitedoc.ReadLines(r, name, "result", func(id string, line *suitedoc.Node, no int) error {
		res, ok := line.Get("result")
		if !ok {
			return fmt.Errorf("result %s has no \"result\"", id)
		}
		rd := resultReader{format: o.Format, texts: texts, params: o.Params[id]}
		calls, err := rd.calls(res)
		if err != nil {
			undecodable = append(undecodable, fmt.Sprintf("%s line %d: result %s: %v", name, no, id, err))
			calls = []pyCall{{Name: "", Args: suitedoc.StringOf(string(res.AppendJSON(nil)))}}
			if o.undecodableNoCall {
				calls = nil
			}
		} else {
			for _, f := range rd.failed {
				undecodable = append(undecodable, fmt.Sprintf("%s line %d: result %s: %s", name, no, id, f))
			}
		}
		resp := suitedoc.ArrayOf()
		for _, c := range calls {
			resp.Vals = append(resp.Vals, suitedoc.NewObject().Set("name", suitedoc.StringOf(c.Name)).Set("arguments", c.Args))
		}
		out := suitedoc.NewObject().Set("id", suitedoc.StringOf(id)).Set("response", resp)
		bw.Write(out.AppendJSON(nil))
		bw.WriteByte('\n')
		written++
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	return written, undecodable, bw.Flush()
}

// ResultOptions say how ConvertResults reads the results that are
// strings. The zero ResultOptions read Python call syntax, and a text
// format's text by its special token.
type ResultOptions struct {
	// Format, when not Auto, is the text format (one of those
	// callgrade.Formats marks Text; callgrade.ParseFormat reads a name)
	// that every string result is read in, Python call syntax included:
	// "pythonic" reads that. Auto, the zero value, reads a string that is
	// Python call syntax as Python, as it always was (a marker inside one
	// of its string literals is the argument's text); any other string
	// that holds a text format's special token in that format (the
	// response formats' detection: the first marker in the text decides);
	// and what is left as Python, which fails it.
	Format format.Format
	// Params gives, by result id, the parameters schemas of the
	// question's functions, by function name, in JSON Schema
	// (QuestionParams reads them from a question file). A text format
	// whose parameters are text, Qwen3-Coder's, types them with these:
	// the "5" of an integer parameter is 5. Without them such values are
	// strings.
	Params map[string]map[string]value.Value

	// undecodableNoCall makes a result that cannot be decoded no call,
	// as BFCL's irrelevance and relevance checkers read it, instead of a
	// failing call (ScoreDir sets it for those categories).
	undecodableNoCall bool
}

// textFormats returns the text formats that ResultOptions.Format may
// name, in the order format.All lists them. The slice is the
// caller's.
func textFormats() []format.Format {
	var out []format.Format
	for _, f := range format.All() {
		if f.Text {
			out = append(out, format.Format(f.Name))
		}
	}
	return out
}

// textFormatError is a ResultOptions.Format that is not a text format.
// The callgrade command words its --text-format the same way, checking
// the flag before it reads a file.
type textFormatError string

func (e textFormatError) Error() string {
	var names []string
	for _, f := range textFormats() {
		names = append(names, string(f))
	}
	return fmt.Sprintf("unknown text format %q: want one of %s (or auto)", string(e), strings.Join(names, ", "))
}

// resultReader reads the calls of one result.
type resultReader struct {
	format format.Format          // a text format for every string; Auto: by marker, else Python
	texts  []format.Format        // the text formats, which Auto may read a string in
	params map[string]value.Value // the question's parameters schemas, by function name
	failed []string               // why each call of a text that did not read failed
}

// calls reads the calls of one result; an error means none of it is
// decodable.
func (rd *resultReader) calls(res *suitedoc.Node) ([]pyCall, error) {
	switch res.Kind {
	case suitedoc.Null:
		return nil, nil
	case suitedoc.String:
		if strings.TrimSpace(res.Text) == "" {
			return nil, nil
		}
		return rd.text(res.Text, "")
	case suitedoc.Object:
		return dictCalls(suitedoc.ArrayOf(res))
	case suitedoc.Array:
		var out []pyCall
		for i, e := range res.Vals {
			var calls []pyCall
			var err error
			switch e.Kind {
			case suitedoc.String:
				calls, err = rd.text(e.Text, fmt.Sprintf("result[%d]: ", i))
			case suitedoc.Object:
				calls, err = dictCalls(suitedoc.ArrayOf(e))
			default:
				err = fmt.Errorf("want {function_name: {arguments}} or a string of calls, got %s", e.KindName())
			}
			if err != nil {
				return nil, fmt.Errorf("result[%d]: %w", i, err)
			}
			out = append(out, calls...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a list of calls or a string of Python calls, got %s", res.KindName())
}

// text reads a string of the result, found at the place at names ("" for
// the result itself, else "result[i]: "): Python call syntax, or a model's
// text in a text format. A call of the text that does not read is a call
// whose arguments, a string, say why; rd.failed says so too.
func (rd *resultReader) text(s, at string) ([]pyCall, error) {
	f := rd.format
	var pyErr error
	if f == format.Auto {
		calls, err := parsePython(s)
		if err == nil {
			return calls, nil
		}
		pyErr = err
	}
	opts := response.Options{Params: rd.params}
	got, read, err := opts.ReadCalls(value.StringOf(s), f)
	if f == format.Auto && (err != nil || !slices.Contains(rd.texts, read)) {
		// No text format's marker: Python it was meant to be.
		return nil, pyErr
	}
	if err != nil {
		return nil, err // a string is never in no shape for a text format
	}
	out := make([]pyCall, 0, len(got))
	for _, c := range got {
		if c.Err == nil {
			args, perr := suitedoc.Parse(c.Args.AppendJSON(nil))
			if perr == nil {
				out = append(out, pyCall{Name: c.Name, Args: args})
				continue
			}
			c.Err = fmt.Errorf("call %d: the arguments read are not JSON here: %w", len(out), perr)
		}
		msg := fmt.Sprintf("%s%s: %v", at, read, c.Err)
		rd.failed = append(rd.failed, msg)
		// Arguments that are not JSON (the message starts with a word
		// that no JSON value does): invalid_arguments, and the response
		// line says why.
		out = append(out, pyCall{Name: c.Name, Args: suitedoc.StringOf(msg)})
	}
	return out, nil
}

// QuestionParams reads a BFCL question file (JSON Lines, as for Import)
// and returns, by question id, the parameters schema of each of its
// functions by name, in JSON Schema as the imported suite's tools have
// them ("dict" is "object", "float" "number", ...): ResultOptions.Params
// for the results of those questions. A function without parameters has
// no entry. The file's errors are Import's.
func QuestionParams(r io.Reader, name string) (map[string]map[string]value.Value, error) {
	qs, err := readQuestions(r, name)
	if err != nil {
		return nil, err
	}
	out := make(map[string]map[string]value.Value, len(qs))
	for _, q := range qs {
		byName := map[string]value.Value{}
		for _, f := range q.Funcs {
			fn, _ := f.Get("name")
			params, ok := f.Get("parameters")
			if _, dup := byName[fn.Text]; dup || !ok {
				continue // the first of a name, as the suite's expected calls take it
			}
			m, err := mapSchema(params, "function "+fn.Text+": parameters")
			if err != nil {
				return nil, fmt.Errorf("%s:%d: question %s: %w", name, q.Line, q.ID, err)
			}
			v, err := value.Parse(string(m.AppendJSON(nil)))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: question %s: function %s: %w", name, q.Line, q.ID, fn.Text, err)
			}
			byName[fn.Text] = v
		}
		out[q.ID] = byName
	}
	return out, nil
}

// dictCalls reads [{function_name: {arguments}}, ...]. Arguments given as
// a JSON string are read as JSON.
func dictCalls(list *suitedoc.Node) ([]pyCall, error) {
	var out []pyCall
	for _, d := range list.Vals {
		if len(d.Keys) != 1 {
			return nil, fmt.Errorf("want {function_name: {arguments}} with one function name, got %s", d.Short())
		}
		args := d.Vals[0]
		if args.Kind == suitedoc.String {
			parsed, err := suitedoc.Parse([]byte(args.Text))
			if err != nil {
				return nil, fmt.Errorf("arguments of %s: %w", d.Keys[0], err)
			}
			args = parsed
		}
		if args.Kind != suitedoc.Object {
			return nil, fmt.Errorf("arguments of %s: want an object, got %s", d.Keys[0], args.KindName())
		}
		out = append(out, pyCall{Name: d.Keys[0], Args: args})
	}
	return out, nil
}
