package bfcl

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/value"
)

// Dir names a whole BFCL run for ScoreDir: BFCL's data directory (its
// BFCL_v4_<category>.json question files and possible_answer/ beside
// them) and a model's results directory (result/<model>/, its
// BFCL_v4_<category>_result.json files as BFCL's handlers write them).
type Dir struct {
	Data, Results string
	// Semantics is the semantics of every suite imported.
	Semantics Semantics
	// Out, when not "", is a directory that ScoreDir writes each
	// category's suite (<question category>.yaml), responses
	// (<category>_responses.jsonl) and results (<category>_results.jsonl)
	// into, creating it if need be.
	Out string
}

// DirScore is what ScoreDir found and scored.
type DirScore struct {
	// Categories are the scores of the results categories, in the order
	// of BFCL's overall formula, others after by name.
	Categories []CategoryScore
	// Overall is BFCL v4's overall accuracy (0 to 1) over the categories
	// of its formula that were scored: every mean of BFCL's formula is
	// taken over the parts of it that have a score, so a missing
	// category's weight is shared among the others instead of counting as
	// 0, as BFCL's leaderboard counts it. Valid only when some category
	// of the formula was scored (Missing does not list them all).
	Overall float64
	// Missing lists the categories of the formula that were not scored,
	// in the formula's order.
	Missing []string
	// Skipped says, for each results file not scored, why: a multi_turn
	// category (callgrade imports no multi-turn category), or no
	// question file for it in the data directory.
	Skipped []string
	// Warnings are the results that could not be decoded (they fail
	// their cases) and the responses whose id names no question.
	Warnings []string
}

const resultSuffix = "_result.json"

// ScoreDir scores a whole BFCL run: for each results file of d.Results it
// imports the category's questions from d.Data under d.Semantics,
// converts the results into responses (ConvertResults; an agentic
// variant's [[step, ...]] runs as its questions' final answers), and
// scores them with a callgrade.Grader, as callgrade score would. A
// question with no result fails (missing_response), as in BFCL. The
// prerequisite conversations of memory (..._prereq_result.json) are not
// scored, as BFCL does not score them. A file that cannot be read, or a
// line of one that is not what BFCL writes, is an error naming the file
// (and the line).
func ScoreDir(ctx context.Context, d Dir) (*DirScore, error) {
	c := newDirCache()
	defer c.close()
	return scoreDir(ctx, d, c)
}

// dirCache holds what scoreDir reads and compiles from the questions of a
// data directory under one semantics, by question category, so that the
// variants of an agentic category (and the rounds of a test) share it.
type dirCache struct {
	suites  map[string]*Suite
	graders map[string]*callgrade.Grader
	params  map[string]map[string]map[string]value.Value
}

func newDirCache() *dirCache {
	return &dirCache{suites: map[string]*Suite{}, graders: map[string]*callgrade.Grader{},
		params: map[string]map[string]map[string]value.Value{}}
}

// close stops the graders' plugins, of which BFCL's suites declare none.
func (c *dirCache) close() {
	for _, g := range c.graders {
		g.Close()
	}
}

// scoreDir is ScoreDir with what c holds of d.Data under d.Semantics.
func scoreDir(ctx context.Context, d Dir, c *dirCache) (*DirScore, error) {
	for _, dir := range []string{d.Data, d.Results} {
		if _, err := os.ReadDir(dir); err != nil {
			return nil, err
		}
	}
	names, err := resultFiles(d.Results)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no BFCL_v4_<category>%s file", d.Results, resultSuffix)
	}
	if d.Out != "" {
		if err := os.MkdirAll(d.Out, 0o777); err != nil {
			return nil, err
		}
	}
	var out DirScore
	written := map[string]bool{}
	for _, name := range names {
		cat := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(name), "BFCL_v4_"), resultSuffix)
		questions, agentic := agenticVariant(cat)
		switch {
		case strings.HasSuffix(cat, "_prereq"):
			continue
		case strings.HasPrefix(cat, "multi_turn"):
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: multi_turn categories are not imported", name))
			continue
		case !agentic:
			questions = cat
		}
		qfile := filepath.Join(d.Data, "BFCL_v4_"+questions+".json")
		if _, err := os.Stat(qfile); err != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: no questions for it: %v", name, err))
			continue
		}
		s := c.suites[questions]
		if s == nil {
			if s, err = importFiles(qfile, filepath.Join(d.Data, "possible_answer", "BFCL_v4_"+questions+".json"), d.Semantics); err != nil {
				return nil, err
			}
			c.suites[questions] = s
		}
		if !written[questions] { // once for all its variants
			if err := writeOut(d.Out, questions+".yaml", s.YAML); err != nil {
				return nil, err
			}
			written[questions] = true
		}
		sc, warns, err := c.scoreCategory(ctx, name, cat, questions, qfile, agentic, d.Out)
		if err != nil {
			return nil, err
		}
		out.Categories = append(out.Categories, sc)
		out.Warnings = append(out.Warnings, warns...)
	}
	order := leaderboardOrder
	slices.SortStableFunc(out.Categories, func(a, b CategoryScore) int {
		ia, ib := slices.Index(order, a.Category), slices.Index(order, b.Category)
		switch {
		case ia < 0 && ib < 0:
			return strings.Compare(a.Category, b.Category)
		case ia < 0:
			return 1
		case ib < 0:
			return -1
		}
		return ia - ib
	})
	o := overallAccuracy(out.Categories)
	out.Overall, out.Missing = o.accuracy, o.missing
	return &out, nil
}

// resultFiles returns the BFCL_v4_<category>_result.json files in dir
// and the directories below it, in lexical order: BFCL v4's handlers
// write them by group (non_live/, live/, multi_turn/, agentic/ and
// agentic/memory/<back-end>/), earlier versions all in dir. A category
// found twice is an error that names both files.
func resultFiles(dir string) ([]string, error) {
	var names []string
	where := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := e.Name()
		if e.IsDir() || !strings.HasPrefix(base, "BFCL_v4_") || !strings.HasSuffix(base, resultSuffix) {
			return nil
		}
		if first, ok := where[base]; ok {
			return fmt.Errorf("%s: the results of its category are also in %s; keep one", path, first)
		}
		where[base] = path
		names = append(names, path)
		return nil
	})
	return names, err
}

// leaderboardOrder is the order of BFCL's score files and leaderboard
// columns, in which the summary lists the categories: live_relevance,
// which is in no part of the overall figure, beside live_irrelevance.
var leaderboardOrder = []string{"simple_python", "simple_java", "simple_javascript", "multiple", "parallel",
	"parallel_multiple", "irrelevance", "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple",
	"live_irrelevance", "live_relevance", "multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param",
	"multi_turn_long_context", "web_search_base", "web_search_no_snippet", "memory_kv", "memory_vector", "memory_rec_sum"}

// importFiles imports a question file and its possible answers, when
// there is such a file.
func importFiles(qfile, afile string, sem Semantics) (*Suite, error) {
	q, err := os.Open(qfile)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	in := Input{Questions: q, QuestionsName: qfile}
	if a, err := os.Open(afile); err == nil {
		defer a.Close()
		in.Answers, in.AnswersName = a, afile
	} else if !os.IsNotExist(err) {
		return nil, err
	}
	return Import(in, sem)
}

// scoreCategory converts the results file name of category cat and scores
// it against the suite of the questions of qfile, imported into c.
func (c *dirCache) scoreCategory(ctx context.Context, name, cat, questions, qfile string, agentic bool, outDir string) (CategoryScore, []string, error) {
	in, err := os.Open(name)
	if err != nil {
		return CategoryScore{}, nil, err
	}
	defer in.Close()
	var resp bytes.Buffer
	var warns []string
	if agentic {
		_, err = convertAgenticResults(in, name, cat, questions, &resp)
	} else {
		// BFCL reads a result of an irrelevance or relevance question
		// that does not decode as no call.
		opts := ResultOptions{undecodableNoCall: strings.HasSuffix(cat, "relevance")}
		// Java's and JavaScript's types type no text: their values
		// are source text, which the suite reads.
		if !strings.HasPrefix(cat, "simple_java") {
			if opts.Params, err = c.paramsOf(questions, qfile); err != nil {
				return CategoryScore{}, nil, err
			}
		}
		var undecodable []string
		_, undecodable, err = ConvertResults(in, name, &resp, opts)
		fails := " (the case will fail as invalid_arguments)"
		if opts.undecodableNoCall {
			fails = " (read as no call, as BFCL reads it in this category)"
		}
		for _, u := range undecodable {
			warns = append(warns, u+fails)
		}
	}
	if err != nil {
		return CategoryScore{}, nil, err
	}
	if err := writeOut(outDir, cat+"_responses.jsonl", func() ([]byte, error) { return resp.Bytes(), nil }); err != nil {
		return CategoryScore{}, nil, err
	}
	g, err := c.grader(questions, qfile)
	if err != nil {
		return CategoryScore{}, nil, err
	}
	var results bytes.Buffer
	var w io.Writer = io.Discard
	if outDir != "" {
		w = &results
	}
	sum, err := g.Run(ctx, &resp, w, callgrade.RunOptions{Name: name, Samples: -1})
	if err != nil {
		return CategoryScore{}, nil, err
	}
	if sum.Unknown > 0 {
		warns = append(warns, fmt.Sprintf("%s: %d results name no question of %s", name, sum.Unknown, qfile))
	}
	if sum.Missing > 0 {
		// An interrupted run: its figure counts what is missing as
		// failed, where BFCL refuses the file.
		warns = append(warns, fmt.Sprintf("%s: %d of the %d questions of %s have no result, and fail (missing_response); BFCL refuses a results file that lacks questions", name, sum.Missing, sum.Cases, qfile))
	}
	if err := writeOut(outDir, cat+"_results.jsonl", func() ([]byte, error) { return results.Bytes(), nil }); err != nil {
		return CategoryScore{}, nil, err
	}
	return CategoryScore{Category: cat, Cases: sum.Cases, Passed: sum.Passed}, warns, nil
}

// grader compiles the suite of the questions of qfile, once.
func (c *dirCache) grader(questions, qfile string) (*callgrade.Grader, error) {
	if g := c.graders[questions]; g != nil {
		return g, nil
	}
	doc, err := c.suites[questions].doc.Decode(qfile)
	if err != nil {
		return nil, err
	}
	g, err := callgrade.New(suite.ViewOf(doc), callgrade.Options{})
	if err != nil {
		return nil, err
	}
	c.graders[questions] = g
	return g, nil
}

// paramsOf reads the parameters schemas of a question file's functions,
// which type the values of Qwen3-Coder's text, once.
func (c *dirCache) paramsOf(questions, qfile string) (map[string]map[string]value.Value, error) {
	if p, ok := c.params[questions]; ok {
		return p, nil
	}
	q, err := os.Open(qfile)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	p, err := QuestionParams(q, qfile)
	if err != nil {
		return nil, err
	}
	c.params[questions] = p
	return p, nil
}

// writeOut writes file name of directory dir, when dir is not "".
func writeOut(dir, name string, data func() ([]byte, error)) error {
	if dir == "" {
		return nil
	}
	b, err := data()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), b, 0o666)
}

// WriteSummary writes the scores as callgrade bfcl score prints them: a
// line per category (its cases, those passed and its accuracy), the
// overall figure over the categories covered, and the categories missing
// from it.
func (s *DirScore) WriteSummary(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%-24s %6s %7s %9s\n", "category", "cases", "passed", "accuracy")
	for _, c := range s.Categories {
		fmt.Fprintf(bw, "%-24s %6d %7d %8.2f%%\n", c.Category, c.Cases, c.Passed, 100*c.accuracy())
	}
	all := len(formulaCategories())
	if covered := all - len(s.Missing); covered == 0 {
		fmt.Fprintf(bw, "overall: none of BFCL v4's overall categories was scored\n")
	} else {
		fmt.Fprintf(bw, "overall (BFCL v4's weights, over the %d of %d categories covered): %.2f%%\n",
			covered, all, 100*s.Overall)
	}
	if len(s.Missing) > 0 {
		fmt.Fprintf(bw, "missing from the overall: %s\n", strings.Join(s.Missing, ", "))
	}
	return bw.Flush()
}
