package noise

import "fmt"

// FillChannel fills nz (agent-major, dim values per agent) with channel
// spec's noise at an iteration whose decay factor is f (spec.Decay.At(k),
// computed once per iteration, or read from a table): agent i's scale is
// Base(i)·f, and a base of 0 stays exactly 0 even where f overflows. With
// one scale for every agent the draws take one call: filling in pieces or
// at once gives the same values. It reads no per-agent decays (the
// caller passes one factor); FillAt honours them.
func (s *Sampler) FillChannel(spec *Spec, f float64, nz []float64, dim int) {
	scale := func(i int) float64 {
		if b := spec.Base(i); b != 0 {
			return b * f
		}
		return 0
	}
	if spec.Scales == nil {
		s.Fill(nz, scale(0))
		return
	}
	for i := range len(nz) / dim {
		s.Fill(nz[i*dim:(i+1)*dim], scale(i))
	}
}

// FillAt fills nz with channel spec's noise at iteration k, honouring
// per-agent decays (Spec.Decays): with one decay it evaluates it once and
// calls FillChannel, so the uniform case costs what it did; with one decay
// per agent it evaluates n schedules, O(n) per iteration.
func (s *Sampler) FillAt(spec *Spec, k int, nz []float64, dim int) {
	if spec.Decays == nil {
		s.FillChannel(spec, spec.Decay.At(k), nz, dim)
		return
	}
	for i := range len(nz) / dim {
		b := spec.Base(i)
		if b != 0 {
			b *= spec.Decays[i].At(k)
		}
		s.Fill(nz[i*dim:(i+1)*dim], b)
	}
}

// Release writes the released vectors v + nz (agent-major, dim values
// per agent) into out, agent i's at out[i·stride+off : i·stride+off+dim]:
// stride = dim for a buffer of its own, 2·dim with off 0 or dim for two
// channels side by side. It panics if v or out is too short or the
// layout is inconsistent (a programming error, not bad input).
func Release(out, v, nz []float64, dim, stride, off int) {
	if dim <= 0 || len(nz)%dim != 0 || off < 0 || off+dim > stride {
		panic(fmt.Sprintf("noise.Release: inconsistent layout: %d noise values, dim %d, stride %d, offset %d", len(nz), dim, stride, off))
	}
	rows := len(nz) / dim
	if rows == 0 {
		return
	}
	if len(v) < len(nz) || len(out) < (rows-1)*stride+off+dim {
		panic(fmt.Sprintf("noise.Release: %d rows of %d need %d values and %d slots (got %d and %d)", rows, dim, len(nz), (rows-1)*stride+off+dim, len(v), len(out)))
	}
	addRows(out[off:], v, nz, rows, dim, stride)
}
