package value

import "math/rand/v2"

// Respeller is respeller for the tests of package value_test.
type Respeller = respeller

// NewRespeller returns a respeller drawing from a PCG seeded with seed1
// and seed2, writing white space when pretty, and changing the first
// number's value when perturb.
func NewRespeller(seed1, seed2 uint64, pretty, perturb bool) *Respeller {
	return &respeller{rng: rand.New(rand.NewPCG(seed1, seed2)), pretty: pretty, perturb: perturb}
}

// Emit appends v re-spelt.
func (r *respeller) Emit(dst []byte, v Value) []byte { return r.emit(dst, v, 0) }

// Perturbed reports whether a number's value was changed.
func (r *respeller) Perturbed() bool { return r.perturbed }
