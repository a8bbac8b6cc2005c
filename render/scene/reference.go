package scene

import "dpsim/core/sim"

// Reference is the noise-free twin of the run a Model draws (ui.Twin):
// the same scenario without noise, at the same iteration.
type Reference interface {
	// Releases returns the twin's releases of iteration iter, or nil when
	// it has none there (it fell behind, or stopped following).
	Releases(iter int) []sim.Release
	// Following reports whether the twin still follows the run (it
	// stops for good in fast-forward).
	Following() bool
}

// SetReference makes the packets' colours compare each message with the
// one the noise-free twin sends at the same iteration (Deviation): all
// the noise a message carries, the fresh and what earlier noise left in
// the sender's state. nil compares the fresh noise with the rest of the
// message (Ratio), which reads "signal dominates" once earlier noise has
// carried the estimates far away.
func (m *Model) SetReference(r Reference) {
	m.ref = r
	m.summarised, m.expanded = false, false
}

// Referenced reports whether the latest step's packets were coloured
// against the reference (false without one, or when it was not at the
// step's iteration).
func (m *Model) Referenced() bool {
	m.summarise()
	return m.referenced
}

// Referencing reports whether the packets are coloured against a
// noise-free twin that still follows the run.
func (m *Model) Referencing() bool { return m.ref != nil && m.ref.Following() }

// refReleases returns the reference's releases matching step s release
// for release (same sender, channel and length), or nil.
func (m *Model) refReleases(s *sim.Step) []sim.Release {
	if m.ref == nil || s == nil {
		return nil
	}
	refs := m.ref.Releases(s.Iter)
	if len(refs) != len(s.Releases) || len(refs) == 0 {
		return nil
	}
	for k := range refs {
		a, b := &s.Releases[k], &refs[k]
		if a.From != b.From || a.Channel != b.Channel || len(a.Sent) != len(b.Sent) {
			return nil
		}
	}
	return refs
}

// deviation is Deviation with the model's scratch buffer.
func (m *Model) deviation(sent, ref []float64) float64 {
	var d float64
	d, m.devBuf = deviationInto(sent, ref, m.devBuf)
	return d
}

// Deviation returns ‖sent − ref‖/‖ref‖: how far a message is from the
// noise-free twin's message ref, relative to it, with Ratio's rules (0
// when they are equal, RatioCap for a zero ref, NaN and overflow safe).
func Deviation(sent, ref []float64) float64 {
	d, _ := deviationInto(sent, ref, nil)
	return d
}

// deviationInto computes Deviation with buf (grown as needed) holding
// sent − ref, which Ratio reads as the noise part of sent.
func deviationInto(sent, ref, buf []float64) (float64, []float64) {
	buf = append(buf[:0], sent...)
	for i := range buf {
		if i < len(ref) {
			buf[i] -= ref[i]
		}
	}
	return Ratio(sent, buf), buf
}
