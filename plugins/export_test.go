package plugins

import "time"

// SetClock makes o measure RestartWindow on now instead of time.Now.
func SetClock(o *Options, now func() time.Time) { o.now = now }

// SetChecked makes o call f with a command's path once its sha256 has been
// checked, before it starts.
func SetChecked(o *Options, f func(path string)) { o.checked = f }

// Backoff returns o with d as the wait before the first restart in a
// window, so that tests restart at once.
func Backoff(o Options, d time.Duration) Options {
	o.backoff = d
	return o
}

// Batching returns o with a batch held to max items and maxBytes encoded
// bytes, waiting linger after its first item for more; a zero argument
// keeps the default.
func Batching(o Options, max, maxBytes int, linger time.Duration) Options {
	o.maxBatch, o.maxBatchBytes, o.linger = max, maxBytes, linger
	return o
}
