//go:build !race

package rulecore

const raceEnabled = false
