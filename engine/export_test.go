package engine

// The engine's own defaults, for the test that holds them to the root's
// (defaults_test.go): the root documents the bounds, the engine applies
// them to a caller that gives none.
const (
	DefaultMaxValuesForTest    = defaultMaxValues
	DefaultMaxLineBytesForTest = defaultMaxLineBytes
)
