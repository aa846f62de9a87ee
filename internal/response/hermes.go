package response

import "github.com/callgrade/callgrade/internal/format"

var hermesFormat = textFormat(format.Hermes, readHermes)

func readHermes(t *textReader) {
	t.blocks(hermesOpen, hermesClose, func(body int) int { return skipSpace(t.src, body) }, func(_, body, end int) {
		from, to := trimSpan(t.src, body, end)
		t.callObject(from, to, "arguments")
	}, nil)
}
