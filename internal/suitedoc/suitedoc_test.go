package suitedoc

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestParse(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: `{"b": 1.0, "a": [5, "x", true, null]}`, want: `{"b":1.0,"a":[5,"x",true,null]}`},
		{in: `  "s"  `, want: `"s"`},
		{in: ``, err: "invalid JSON: unexpected end of input"},
		{in: `{`, err: "invalid JSON: unexpected end of input"},
		{in: `[1,`, err: "invalid JSON: unexpected end of input"},
		{in: `{"a":1`, err: "invalid JSON: unexpected end of input"},
		{in: `{"a":[}`, err: "invalid JSON: invalid character '}' looking for beginning of value"},
		{in: `{} x`, err: "invalid JSON: text after the value at byte 3"},
		{in: `{"a":1,"a":2}`, err: `invalid JSON: key "a" appears twice in one object`},
		{in: `{"a":1,"a":}`, err: `invalid JSON: key "a" appears twice in one object`},
	}
	for _, tt := range tests {
		n, err := Parse([]byte(tt.in))
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Parse(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || n.String() != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %s", tt.in, n, err, tt.want)
		}
	}
}

func TestEscapeKey(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a", "a"}, {"*", `\*`}, {"#", `\#`}, {"a.b", `a\.b`}, {`a\b`, `a\\b`}, {"a*", "a*"},
	} {
		if got := EscapeKey(tt.in); got != tt.want {
			t.Errorf("EscapeKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A string YAML 1.1 reads as a boolean or null is written quoted, as a
// key and as a value, so that a YAML 1.1 reader reads the string back; a
// YAML 1.2 reader (yaml.v3, which package suite reads with) reads it back
// quoted or not.
func TestYAMLQuotesYAML11Words(t *testing.T) {
	quoted := []string{"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
		"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "~", ""}
	plain := []string{"yesterday", "none", "one", "x", "nil"}
	for _, s := range append(quoted, plain...) {
		doc := NewObject().Set(s, StringOf(s))
		b, err := (&Suite{Doc: doc, Header: "# h\n"}).YAML()
		if err != nil {
			t.Fatal(err)
		}
		got := strings.TrimPrefix(string(b), "# h\n")
		want := s + ": " + s + "\n"
		for _, q := range quoted {
			if s == q {
				want = `"` + s + `": "` + s + `"` + "\n"
			}
		}
		if got != want {
			t.Errorf("YAML of {%q: %q} = %q, want %q", s, s, got, want)
		}
		var back map[string]string
		if err := yaml.Unmarshal(b, &back); err != nil || len(back) != 1 || back[s] != s {
			t.Errorf("YAML of {%q: %q} reads back as %v, %v", s, s, back, err)
		}
	}
}

func TestYAMLFlowAndNumbers(t *testing.T) {
	args := NewObject().Set("f", NumberOf("5.0")).Set("i", NumberOf("5")).Set("l", ArrayOf(BoolOf(true), &Node{})).SetFlow()
	doc := NewObject().Set("version", NumberOf("1")).Set("arguments", args)
	b, err := (&Suite{Doc: doc, Header: "# Imported.\n"}).YAML()
	if err != nil {
		t.Fatal(err)
	}
	want := "# Imported.\nversion: 1\narguments: {f: 5.0, i: 5, l: [true, null]}\n"
	if string(b) != want {
		t.Errorf("YAML = %q, want %q", b, want)
	}
	if got, want := string((&Suite{Doc: doc}).JSON()), `{"version":1,"arguments":{"f":5.0,"i":5,"l":[true,null]}}`+"\n"; got != want {
		t.Errorf("JSON = %q, want %q", got, want)
	}
}

func TestReadQuestionsAndAnswers(t *testing.T) {
	funcs := func(id string, q *Node) ([]*Node, error) {
		f, _ := q.Get("function")
		return f.Vals, nil
	}
	ground := func(id string, gt *Node) (*Node, error) { return gt, nil }
	q1 := `{"id": "a", "function": [{"name": "f"}]}` + "\n"
	q2 := `{"id": "b", "function": [{"name": "g"}]}` + "\n"
	a1 := `{"id": "a", "ground_truth": 1}` + "\n"
	tests := []struct{ questions, answers, err string }{
		{questions: q1 + "\n" + q2, answers: a1 + `{"id": "b", "ground_truth": 2}`},
		{questions: q1 + q1, err: `q:2: question id "a" appears twice; first on line 1`},
		{questions: `{"id": "a", "function": [{"name": ""}]}`, err: `q:1: question a: function 0: want a non-empty string "name"`},
		{questions: `[1]`, err: "q:1: want a JSON object, got a list"},
		{questions: `{"function": []}`, err: `q:1: want a non-empty string "id"`},
		{questions: "\n", err: "q: no questions"},
		{questions: q1, answers: `{"id": "a"}`, err: `a:1: answer a has no "ground_truth"`},
		{questions: q1, answers: a1 + a1, err: `a:2: answer id "a" appears twice; first on line 1`},
		{questions: q1 + q2, answers: a1 + `{"id": "c", "ground_truth": 3}`,
			err: "the questions and answers do not correspond (2 questions, 2 answers): 1 question(s) of q have no answer in a: b (line 2); 1 answer(s) of a have no question in q: c (line 2)"},
	}
	for _, tt := range tests {
		qs, err := ReadQuestions(strings.NewReader(tt.questions), "q", funcs)
		if err == nil && tt.answers != "" {
			var as map[string]*Node
			as, err = ReadAnswers(strings.NewReader(tt.answers), "a", qs, "q", ground)
			if err == nil && (len(as) != 2 || as["b"].Text != "2" || qs[1].Line != 3 || qs[1].Funcs[0].String() != `{"name":"g"}`) {
				t.Errorf("read %v and %v", qs, as)
			}
		}
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("error %q, want %q", got, tt.err)
		}
	}
}

func TestBuild(t *testing.T) {
	qs := []Question{{ID: "a", Line: 1}, {ID: "b", Line: 3}}
	s, err := Build("# h\n", "q", qs, func(q Question) (*Node, error) { return NewObject().Set("id", StringOf(q.ID)), nil })
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(s.JSON()), `{"version":1,"cases":[{"id":"a"},{"id":"b"}]}`+"\n"; got != want {
		t.Errorf("Build = %q, want %q", got, want)
	}
	_, err = Build("# h\n", "q", qs, func(q Question) (*Node, error) {
		if q.ID == "b" {
			return nil, errors.New("no answer")
		}
		return NewObject(), nil
	})
	if want := "q:3: question b: no answer"; err == nil || err.Error() != want {
		t.Errorf("Build error %v, want %q", err, want)
	}
}
