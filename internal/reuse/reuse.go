// Package reuse lets the engine's streaming run parse each response line
// into memory it reuses for the next line, instead of allocating a fresh
// tree per line that the collector has to catch up with.
//
// The parsing lives in package value and the reading of calls in package
// response; neither exports a way to parse into reused memory, since a
// Value built there is only valid until the memory is reused, which no
// public API should hand out. They register the functions here instead, in
// their init, for the engine alone (this package is internal). The
// functions are held as values of type any, because this package cannot
// import the packages that define their signatures; each user asserts the
// type once.
package reuse

// Arena is the reusable memory of one goroutine. Values parsed into it are
// valid until the next Reset; the zero Arena is ready to use.
type Arena struct {
	Impl any // package value's state, made on first use
}

// Registered by package value:
//
//	Parse func(s string, lim value.Limits, a *Arena) (value.Value, error)
//	Reset func(a *Arena)
//
// Parse is value.ParseLimits, with arrays, objects and unescaped strings
// taken from a. Reset makes all of a's memory reusable.
var Parse, Reset any

// Registered by package response:
//
//	Extract func(r value.Value, f response.Format, lim value.Limits, a *Arena) ([]response.Call, response.Format, error)
//
// Extract is response.Extract, parsing arguments strings into a.
var Extract any
