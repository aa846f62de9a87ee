package response

import "strings"

// Harmony is the raw text of gpt-oss models, in OpenAI's harmony format
// (github.com/openai/harmony, docs/format.md, "Receiving tool calls"): a
// call is an assistant message whose header names its recipient,
//
//	<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Tokyo"}<|call|>
//
// the to= in the channel section, as here, or in the role section
// (<|start|>assistant to=functions.get_weather<|channel|>commentary …).
// The text may begin inside the header of the first message, whose
// <|start|>assistant ends the prompt, and may end without the <|call|>
// that stopped the model. A header is read as openai-harmony's parser
// reads it; the call's name is its recipient without "functions.", and
// its arguments are the message, a JSON object. A recipient outside
// functions (browser.search, python: built-in tools) is a call too, under
// its whole name, where vLLM's parser leaves it out: a call that the
// suite does not expect must not vanish. Messages of other roles (a
// tool's output) are not the model's calls.
const Harmony Format = "harmony"

var harmonyFormat = textFormat(Harmony, "a gpt-oss model's text in the harmony format", readHarmony)

// harmonyStops end a message's content; <|start|> ends one that lacks
// them.
var harmonyStops = [...]string{"<|end|>", "<|call|>", "<|return|>", harmonyStart}

func readHarmony(t *textReader) {
	s := t.src
	for i := 0; i < len(s); {
		head, roleGiven := i, false
		switch {
		case strings.HasPrefix(s[i:], harmonyStart):
			head, roleGiven = i+len(harmonyStart), true
		case i > 0:
			k := strings.Index(s[i:], harmonyStart)
			if k < 0 {
				return
			}
			i += k
			continue
		}
		m := strings.Index(s[head:], harmonyMessage)
		within := len(s) - head // where the header may end
		if m >= 0 {
			within = m
		}
		if n := strings.Index(s[head:head+within], harmonyStart); m < 0 || n >= 0 {
			// A header that never reaches its content.
			end := len(s)
			if n >= 0 {
				end = head + n
			}
			if role, to, ok := harmonyHeader(s[head:end], roleGiven); ok && role == "assistant" {
				t.fail(to, i, end, "never reaches "+harmonyMessage, nil)
			}
			i = end
			continue
		}
		from := head + m + len(harmonyMessage)
		to, next := len(s), len(s)
		for _, stop := range harmonyStops {
			if k := strings.Index(s[from:to], stop); k >= 0 {
				to, next = from+k, from+k+len(stop)
				if stop == harmonyStart {
					next = to
				}
			}
		}
		if role, name, ok := harmonyHeader(s[head:from-len(harmonyMessage)], roleGiven); ok && role == "assistant" {
			if name == "" {
				t.fail("", i, next, "names no recipient after to=", nil)
			} else {
				from, to := trimSpan(s, from, to)
				t.arguments(name, from, to)
			}
		}
		i = next
	}
}

// harmonyHeader reads a message header: its role ("assistant" when the
// text began inside the header, without it), and the recipient of a
// call, ok saying whether the header has one (to=…), without the
// "functions." of a function's name. As in openai-harmony's parser, the
// channel is the one word after <|channel|>, the recipient may stand
// before or after it, and <|constrain|> begins the content type even
// when joined to the word before.
func harmonyHeader(h string, roleGiven bool) (role, to string, ok bool) {
	role = "assistant"
	for first := true; ; first = false {
		var word string
		if word, h = headerWord(h); word == "" {
			return role, to, ok
		}
		switch {
		case first && (roleGiven || word == "assistant"):
			role = word
		case strings.HasPrefix(word, "to="):
			to, ok = strings.TrimPrefix(word[len("to="):], "functions."), true
		}
	}
}

// headerWord returns the first word of header h, passing over the
// channel, and the rest of h. A word ends at white space or at the "<"
// of a marker.
func headerWord(h string) (word, rest string) {
	for {
		i := 0
		for i < len(h) && isSpace(h[i]) {
			i++
		}
		h = h[i:]
		if h == "" {
			return "", ""
		}
		channel := strings.HasPrefix(h, harmonyChannel)
		end := 1 // what the word has before it can end: a marker, or its first byte
		switch {
		case channel:
			end = len(harmonyChannel)
		case strings.HasPrefix(h, harmonyConstrain):
			end = len(harmonyConstrain)
		}
		for end < len(h) && !isSpace(h[end]) && h[end] != '<' {
			end++
		}
		if !channel {
			return h[:end], h[end:]
		}
		h = h[end:]
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
