package suitedoc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// ReadLines reads a JSON Lines file of objects that each have a unique,
// non-empty string "id", and calls fn for each non-blank line with its id,
// the object and its line number. name is the file's name in errors,
// which begin with it and the line; what names its lines ("question",
// "answer") in the error of an id written twice.
func ReadLines(r io.Reader, name, what string, fn func(id string, n *Node, line int) error) error {
	seen := map[string]int{}
	return jsonLines(r, name, func(n *Node, line int) error {
		id, err := stringField(n, "id")
		if err != nil {
			return err
		}
		if first, dup := seen[id]; dup {
			return fmt.Errorf("%s id %q appears twice; first on line %d", what, id, first)
		}
		seen[id] = line
		return fn(id, n, line)
	})
}

// jsonLines calls fn for each non-blank line of r with its number.
func jsonLines(r io.Reader, name string, fn func(n *Node, line int) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		n, err := Parse(b)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if n.Kind != Object {
			return fmt.Errorf("%s:%d: want a JSON object, got %s", name, line, n.KindName())
		}
		if err := fn(n, line); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func stringField(n *Node, key string) (string, error) {
	v, ok := n.Get(key)
	if !ok || v.Kind != String || v.Text == "" {
		return "", fmt.Errorf("want a non-empty string %q", key)
	}
	return v.Text, nil
}

// Question is one line of a question file.
type Question struct {
	ID    string
	Line  int
	Funcs []*Node // the functions it offers, each with a non-empty "name"
}

// ReadQuestions reads a question file, JSON Lines of questions each with
// a unique "id". funcs returns the functions of the question on one line,
// or says why it has none that can be read; each must have a non-empty
// string "name". A file without a question is an error.
func ReadQuestions(r io.Reader, name string, funcs func(id string, q *Node) ([]*Node, error)) ([]Question, error) {
	var qs []Question
	err := ReadLines(r, name, "question", func(id string, n *Node, line int) error {
		fs, err := funcs(id, n)
		if err != nil {
			return err
		}
		for i, f := range fs {
			if _, err := stringField(f, "name"); err != nil {
				return fmt.Errorf("question %s: function %d: %w", id, i, err)
			}
		}
		qs = append(qs, Question{ID: id, Line: line, Funcs: fs})
		return nil
	})
	if err == nil && len(qs) == 0 {
		err = fmt.Errorf("%s: no questions", name)
	}
	return qs, err
}

// ReadAnswers reads the possible-answer file of the questions qs (read
// from the file qname), JSON Lines of answers each with a unique "id" and
// a "ground_truth", and returns what ground reads of each answer's
// ground truth, by id. The files must correspond: a question without an
// answer or an answer without a question is an error, which lists them.
func ReadAnswers[T any](r io.Reader, name string, qs []Question, qname string, ground func(id string, gt *Node) (T, error)) (map[string]T, error) {
	answers := map[string]T{}
	known := map[string]bool{}
	for _, q := range qs {
		known[q.ID] = true
	}
	var orphans []string
	err := ReadLines(r, name, "answer", func(id string, n *Node, line int) error {
		gt, ok := n.Get("ground_truth")
		if !ok {
			return fmt.Errorf("answer %s has no \"ground_truth\"", id)
		}
		a, err := ground(id, gt)
		if err != nil {
			return err
		}
		if !known[id] {
			orphans = append(orphans, fmt.Sprintf("%s (line %d)", id, line))
		}
		answers[id] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, q := range qs {
		if _, ok := answers[q.ID]; !ok {
			missing = append(missing, fmt.Sprintf("%s (line %d)", q.ID, q.Line))
		}
	}
	if len(missing) > 0 || len(orphans) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, fmt.Sprintf("%d question(s) of %s have no answer in %s: %s", len(missing), qname, name, list(missing)))
		}
		if len(orphans) > 0 {
			parts = append(parts, fmt.Sprintf("%d answer(s) of %s have no question in %s: %s", len(orphans), name, qname, list(orphans)))
		}
		return nil, fmt.Errorf("the questions and answers do not correspond (%d questions, %d answers): %s",
			len(qs), len(answers), strings.Join(parts, "; "))
	}
	return answers, nil
}

// list joins the first five of s and counts the rest.
func list(s []string) string {
	if len(s) > 5 {
		return strings.Join(s[:5], ", ") + fmt.Sprintf(" and %d more", len(s)-5)
	}
	return strings.Join(s, ", ")
}
