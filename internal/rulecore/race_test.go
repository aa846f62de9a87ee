//go:build race

package rulecore

const raceEnabled = true
