package plugins

import "time"

// SetClock makes o measure RestartWindow on now instead of time.Now.
func SetClock(o *Options, now func() time.Time) { o.now = now }

// SetChecked makes o call f with a command's path once its sha256 has been
// checked, before it starts.
func SetChecked(o *Options, f func(path string)) { o.checked = f }
