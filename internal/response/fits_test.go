package response

import (
	"errors"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/format"
	"github.com/callgrade/callgrade/value"
)

// A forced format that does not fit names the format detection reads the
// response as: in ShapeError.Fits for a response in none of its shapes,
// in each failed call's reason for one read call by call; none when the
// forced format is the one that fits or none does, nor for a call whose
// arguments do not parse.
func TestForcedFormatNamesTheFit(t *testing.T) {
	conv := `[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}]`
	for _, tt := range []struct {
		in   string
		f    format.Format
		fits format.Format // in the ShapeError; Auto for calls that fail, or none
		call string        // what each failed call's reason ends with; "" for none
	}{
		{`{"messages":` + conv + `}`, format.OpenAI, format.OpenAIMessages, ""},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]}}]}`, format.Anthropic, format.Gemini, ""},
		{conv, format.OpenAI, format.Auto, "; the response reads as openai-messages: use --format openai-messages or auto"},
		{conv, format.Hermes, format.Auto, "; the response reads as openai-messages: use --format openai-messages or auto"},
		{`{"choices":[{"message":{"tool_calls":[{"type":"function","function":{"name":"f","arguments":"{"}}]}}]}`, format.OpenAI, format.Auto, ""},
		{`{"what":1}`, format.OpenAI, format.Auto, ""},
		// A call read in the forced format's shape whose arguments do not
		// parse is a failure of its own: the shape fitted.
		{`"<tool_call>\n<function=f>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>"`, format.Hermes, format.Auto, ""},
	} {
		r, err := value.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		calls, _, err := readCalls(r, tt.f, value.Limits{})
		run, _, rerr := readRun(r, tt.f)
		var se, rse *ShapeError
		if errors.As(err, &se) != errors.As(rerr, &rse) {
			t.Errorf("%s as %s: Extract %v, ExtractRun %v", tt.in, tt.f, err, rerr)
			continue
		}
		if se != nil {
			if se.Fits != tt.fits || rse.Fits != tt.fits {
				t.Errorf("%s as %s: Fits %q (run %q), want %q: %v", tt.in, tt.f, se.Fits, rse.Fits, tt.fits, err)
			}
			if tt.fits != format.Auto && !strings.HasSuffix(err.Error(), "; it reads as "+string(tt.fits)+": use --format "+string(tt.fits)+" or auto") {
				t.Errorf("%s as %s: %v does not name %s", tt.in, tt.f, err, tt.fits)
			}
			continue
		}
		if tt.fits != format.Auto {
			t.Errorf("%s as %s: %v, want a ShapeError", tt.in, tt.f, err)
		}
		failed := 0
		for i, c := range calls {
			if c.Err == nil {
				continue
			}
			failed++
			if got := c.Err.Error(); !strings.HasSuffix(got, tt.call) || tt.call == "" && strings.Contains(got, "reads as") {
				t.Errorf("%s as %s: call %d: %q, want it to end %q", tt.in, tt.f, i, got, tt.call)
			}
			if run.Steps[i].Err.Error() != c.Err.Error() {
				t.Errorf("%s as %s: step %d says %q, call %q", tt.in, tt.f, i, run.Steps[i].Err, c.Err)
			}
		}
		if tt.call != "" && failed == 0 {
			t.Errorf("%s as %s: no call failed, want them to end %q", tt.in, tt.f, tt.call)
		}
	}
}
