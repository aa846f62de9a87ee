// Package enginetest is what the module's tests outside the engine need
// of it that its public surface does not give: the index of a case, for
// Scorer.Score, which programs reach through callgrade.Grader.Score.
package enginetest

import (
	"context"
	"encoding/json"

	"github.com/callgrade/callgrade/engine"
)

// CaseIndex returns the index of the case with the given id: the case a
// response line with that id and no response names, as Scorer.ScoreLine
// reads it.
func CaseIndex(e *engine.Engine, id string) (int, bool) {
	line, err := json.Marshal(map[string]string{"id": id})
	if err != nil {
		return -1, false
	}
	_, i, _, serr := e.NewScorer(context.Background()).ScoreLine(string(line), 1, 0)
	return i, serr == nil && i >= 0
}
