package response

import (
	"strings"

	"github.com/callgrade/callgrade/internal/format"
)

var harmonyFormat = textFormat(format.Harmony, readHarmony)

// A message's content ends at one of these; <|start|> ends one that
// lacks them.
const (
	harmonyEnd    = "<|end|>"
	harmonyCall   = "<|call|>"
	harmonyReturn = "<|return|>"
)

func readHarmony(t *textReader) {
	s := t.src
	harmonyMessages(s, t.from, func(m harmonyMsg) bool {
		role, name, ok := harmonyHeader(s[m.head:m.headEnd], m.roleGiven)
		// A header cut before its content: the model stopped before it
		// said what it writes, which may be a call. A text without a
		// marker, which Auto reads as an answer, has no header.
		cut := !m.fits && (ok || m.roleGiven || strings.Contains(s[m.head:m.headEnd], harmonyChannel))
		switch {
		case role != "assistant":
			// Another role's message (a tool's output) is not the model's.
		case (cut || m.fits && ok) && !t.room(m.start):
			return false
		case !m.fits:
			if cut {
				t.fail(name, m.start, m.headEnd, "never reaches "+harmonyMessage, nil)
			}
		case !ok:
			// No recipient: the analysis, a preamble, the final answer.
		case name == "":
			t.fail("", m.start, m.next, "names no recipient after to=", nil)
		default:
			from, to := trimSpan(s, m.from, m.to)
			t.arguments(name, from, to)
		}
		return !t.full
	})
}

// harmonyMsg is one message of a harmony text: its header is
// [head, headEnd), which starts at start with the <|start|> that
// roleGiven says it has; fits says it reaches its <|message|>, and then
// its content is [from, to). The next message starts at next.
type harmonyMsg struct {
	start, head, headEnd int
	roleGiven, fits      bool
	from, to, next       int
}

// harmonyMessages calls each with each message of s from i on, until it
// returns false. The text may begin inside the first message's header.
func harmonyMessages(s string, i int, each func(m harmonyMsg) bool) {
	starts := seeker{s: s, m: harmonyStart}
	for first := true; i < len(s); first = false {
		m := harmonyMsg{start: i, head: i}
		switch {
		case strings.HasPrefix(s[i:], harmonyStart):
			m.head, m.roleGiven = i+len(harmonyStart), true
		case !first:
			k := starts.next(i)
			if k < 0 {
				return
			}
			i = k
			continue
		}
		m.headEnd, m.fits = harmonyHeaderEnd(s, m.head)
		if !m.fits {
			m.next = m.headEnd
		} else {
			m.from = m.headEnd + len(harmonyMessage)
			m.to, m.next = harmonyContentEnd(s, m.from)
		}
		if !each(m) {
			return
		}
		i = m.next
	}
}

// harmonyFinal is the final answer of harmony text s from i on: the
// content of the model's last message in the final channel, "" when it
// has none (its analysis and its commentary are not the answer).
func harmonyFinal(s string, i int) string {
	var final string
	harmonyMessages(s, i, func(m harmonyMsg) bool {
		h := s[m.head:m.headEnd]
		if role, _, ok := harmonyHeader(h, m.roleGiven); m.fits && role == "assistant" && !ok && harmonyChannelOf(h) == "final" {
			final = s[m.from:m.to]
		}
		return true
	})
	return final
}

// harmonyChannelOf is the channel header h names: the word after its
// <|channel|>.
func harmonyChannelOf(h string) string {
	k := strings.Index(h, harmonyChannel)
	if k < 0 {
		return ""
	}
	h = h[k+len(harmonyChannel):]
	end := 0
	for end < len(h) && !wordBreak[h[end]] {
		end++
	}
	return h[:end]
}

// harmonyHeaderEnd finds the end of the header that starts at head: the
// index of its <|message|>, fits true, or, when a <|start|> comes first or
// the text ends, where the header stops.
func harmonyHeaderEnd(s string, head int) (end int, fits bool) {
	for k := head; ; k += 2 {
		j := strings.Index(s[k:], "<|")
		if j < 0 {
			return len(s), false
		}
		k += j
		switch {
		case strings.HasPrefix(s[k:], harmonyMessage):
			return k, true
		case strings.HasPrefix(s[k:], harmonyStart):
			return k, false
		}
	}
}

// harmonyContentEnd finds the end of the content that starts at from:
// where its first <|end|>, <|call|> or <|return|> is and where the next
// message starts, after it; or a <|start|>, which ends a content that
// lacks them and starts the next message; or the end of the text.
func harmonyContentEnd(s string, from int) (to, next int) {
	for k := from; ; k += 2 {
		j := strings.Index(s[k:], "<|")
		if j < 0 {
			return len(s), len(s)
		}
		k += j
		switch rest := s[k:]; {
		case strings.HasPrefix(rest, harmonyEnd):
			return k, k + len(harmonyEnd)
		case strings.HasPrefix(rest, harmonyCall):
			return k, k + len(harmonyCall)
		case strings.HasPrefix(rest, harmonyReturn):
			return k, k + len(harmonyReturn)
		case strings.HasPrefix(rest, harmonyStart):
			return k, k
		}
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
	if !strings.Contains(h, "to=") {
		return role, "", false // no recipient, whatever the role: not a call
	}
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
		for end < len(h) && !wordBreak[h[end]] {
			end++
		}
		if !channel {
			return h[:end], h[end:]
		}
		h = h[end:]
	}
}

// wordBreak holds the bytes that end a header's word.
var wordBreak = [256]bool{' ': true, '\n': true, '\t': true, '\r': true, '<': true}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
