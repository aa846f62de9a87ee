// Floor measures the least work that any scorer of a suite and a responses
// file has to do, so that whole-process speed figures can be read against
// it: read both files, check that the suite is valid JSON, check every
// response line and the arguments string inside it, and write one results
// line per response. It scores nothing.
//
// It uses gjson (the validator the engine's design started from) on every
// core, and its results lines are shorter than real ones, so it is a
// generous floor. docs/performance.md compares it with callgrade and with
// the reference scorer on the benchmark corpus:
//
//	go run ./internal/floor SUITE.json RESPONSES.jsonl OUT.jsonl
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"

	"github.com/tidwall/gjson"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: floor SUITE.json RESPONSES.jsonl OUT.jsonl")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(suitePath, respPath, outPath string) error {
	var wg sync.WaitGroup
	var suiteErr error
	wg.Go(func() {
		b, err := os.ReadFile(suitePath)
		switch {
		case err != nil:
			suiteErr = err
		case !gjson.ValidBytes(b):
			suiteErr = fmt.Errorf("%s: not valid JSON", suitePath)
		}
	})
	resp, err := os.ReadFile(respPath)
	if err != nil {
		wg.Wait()
		return err
	}
	parts := split(resp, runtime.GOMAXPROCS(0))
	outs := make([][]byte, len(parts))
	errs := make([]error, len(parts))
	for k, part := range parts {
		wg.Go(func() { outs[k], errs[k] = check(part) })
	}
	wg.Wait()
	if err := errors.Join(append(errs, suiteErr)...); err != nil {
		return err
	}
	f, err := os.Create(outPath)
	if err != nil {
		return err
	}
	for _, o := range outs {
		if _, err := f.Write(o); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// split cuts data into about n pieces of whole lines.
func split(data []byte, n int) [][]byte {
	var parts [][]byte
	for k := n; k > 1 && len(data) > 0; k-- {
		cut := len(data) / k
		nl := bytes.IndexByte(data[cut:], '\n')
		if nl < 0 {
			break
		}
		parts = append(parts, data[:cut+nl+1])
		data = data[cut+nl+1:]
	}
	if len(data) > 0 {
		parts = append(parts, data)
	}
	return parts
}

// check validates each line of part and the arguments string of its
// response, and returns one results line per line.
func check(part []byte) ([]byte, error) {
	var out []byte
	for n := 1; len(part) > 0; n++ {
		line, rest, _ := bytes.Cut(part, []byte{'\n'})
		part = rest
		if !gjson.ValidBytes(line) {
			return nil, fmt.Errorf("line %d of a part: not valid JSON", n)
		}
		id := gjson.GetBytes(line, "id")
		args := gjson.GetBytes(line, "response.arguments")
		pass := args.Type != gjson.String || gjson.Valid(args.Str)
		out = append(out, `{"id":`...)
		out = append(out, id.Raw...)
		// A results line of a one-call case, without its diffs.
		out = append(out, `,"pass":`...)
		out = strconv.AppendBool(out, pass)
		out = append(out, `,"score":1,"calls":[{"expected":0,"actual":0,"pass":`...)
		out = strconv.AppendBool(out, pass)
		out = append(out, ",\"score\":1}],\"diffs\":[]}\n"...)
	}
	return out, nil
}
