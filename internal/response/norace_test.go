//go:build !race

package response

const raceEnabled = false
