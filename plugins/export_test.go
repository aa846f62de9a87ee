package plugins

import "time"

// SetClock makes o measure RestartWindow on now instead of time.Now.
func SetClock(o *Options, now func() time.Time) { o.now = now }
