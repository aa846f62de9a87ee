package bfcl

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ConvertResults reads a BFCL results file of model outputs (JSON Lines,
// {"id", "result"}, as BFCL writes result/<model>/BFCL_v4_<category>_result.json)
// and writes the responses file for it: {"id", "response"} lines whose
// response is a list of {name, arguments} calls. A result is a list of
// {function_name: {arguments}} dicts, or a string of Python call syntax
// such as `[f(a=1, b="x")]` (ParsePythonCalls), or a list of such strings.
// An empty result (or an empty string) is no call.
//
// A result the model wrote so badly that it cannot be decoded fails its
// case, as in BFCL, instead of stopping the conversion: its response is one
// call whose arguments are the result's text, which scores as
// invalid_arguments, and Converted.Undecodable says why. A line of the file
// that is not a result at all (no id, not JSON, an id twice) is an error
// naming the file and the line.
func ConvertResults(r io.Reader, name string, w io.Writer) (Converted, error) {
	bw := bufio.NewWriter(w)
	var conv Converted
	seen := map[string]int{}
	err := jsonLines(r, name, func(line *node, no int) error {
		id, err := stringField(line, "id")
		if err != nil {
			return err
		}
		if first, dup := seen[id]; dup {
			return fmt.Errorf("result id %q appears twice; first on line %d", id, first)
		}
		seen[id] = no
		res, ok := line.Get("result")
		if !ok {
			return fmt.Errorf("result %s has no \"result\"", id)
		}
		calls, err := resultCalls(res)
		if err != nil {
			conv.Undecodable = append(conv.Undecodable, fmt.Sprintf("%s line %d: result %s: %v", name, no, id, err))
			calls = []pyCall{{Name: "", Args: str(string(res.AppendJSON(nil)))}}
		}
		resp := arr()
		for _, c := range calls {
			resp.Vals = append(resp.Vals, obj().Set("name", str(c.Name)).Set("arguments", c.Args))
		}
		out := obj().Set("id", str(id)).Set("response", resp)
		bw.Write(out.AppendJSON(nil))
		bw.WriteByte('\n')
		conv.Written++
		return nil
	})
	if err != nil {
		return Converted{}, err
	}
	return conv, bw.Flush()
}

// Converted says what ConvertResults wrote.
type Converted struct {
	Written     int      // responses written, one per result
	Undecodable []string // why each undecodable result fails its case
}

// resultCalls reads the calls of one result.
func resultCalls(res *node) ([]pyCall, error) {
	switch res.Kind {
	case kindNull:
		return nil, nil
	case kindString:
		if strings.TrimSpace(res.Text) == "" {
			return nil, nil
		}
		return parsePython(res.Text)
	case kindObject:
		return dictCalls(arr(res))
	case kindArray:
		var out []pyCall
		for i, e := range res.Vals {
			var calls []pyCall
			var err error
			switch e.Kind {
			case kindString:
				calls, err = parsePython(e.Text)
			case kindObject:
				calls, err = dictCalls(arr(e))
			default:
				err = fmt.Errorf("want {function_name: {arguments}} or a string of calls, got %s", kindName(e))
			}
			if err != nil {
				return nil, fmt.Errorf("result[%d]: %w", i, err)
			}
			out = append(out, calls...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a list of calls or a string of Python calls, got %s", kindName(res))
}

// dictCalls reads [{function_name: {arguments}}, ...]. Arguments given as
// a JSON string are read as JSON.
func dictCalls(list *node) ([]pyCall, error) {
	var out []pyCall
	for _, d := range list.Vals {
		if len(d.Keys) != 1 {
			return nil, fmt.Errorf("want {function_name: {arguments}} with one function name, got %s", short(d))
		}
		args := d.Vals[0]
		if args.Kind == kindString {
			parsed, err := parseJSON([]byte(args.Text))
			if err != nil {
				return nil, fmt.Errorf("arguments of %s: %w", d.Keys[0], err)
			}
			args = parsed
		}
		if args.Kind != kindObject {
			return nil, fmt.Errorf("arguments of %s: want an object, got %s", d.Keys[0], kindName(args))
		}
		out = append(out, pyCall{Name: d.Keys[0], Args: args})
	}
	return out, nil
}
