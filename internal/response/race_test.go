//go:build race

package response

// raceEnabled says the tests run under the race detector, which makes
// sync.Pool drop what it holds: allocation counts then mean nothing.
const raceEnabled = true
