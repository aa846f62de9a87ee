package suite

// View is a suite as the front door hands it out (callgrade.Suite, what
// callgrade.Load returns and callgrade.New compiles): opaque but for what
// a program that reports on a suite asks of it, so that the suite model
// stays the module's own. The module's packages that read the model (the
// server's list of cases, the report's annotations) take it back with
// ModelOf.
type View struct{ s *Suite }

// ViewOf returns the View of s; nil for a nil s.
func ViewOf(s *Suite) *View {
	if s == nil {
		return nil
	}
	return &View{s: s}
}

// ModelOf returns the suite v is a view of.
func ModelOf(v *View) *Suite { return v.s }

// Len returns the number of cases.
func (v *View) Len() int { return len(v.s.Cases) }

// Samples returns the number of response lines each case has when the
// suite says `samples: n`; 0 when it does not.
func (v *View) Samples() int { return v.s.Samples }

// Plugins returns the plugins the suite declares, by name, as
// plugins.Open starts them.
func (v *View) Plugins() map[string]Plugin { return v.s.Plugins }
