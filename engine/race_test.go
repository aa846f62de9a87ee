//go:build race

package engine

// raceEnabled says the tests run under the race detector, which makes
// sync.Pool drop what it holds: allocation counts then mean nothing.
const raceEnabled = true
