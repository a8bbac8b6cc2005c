package audit

import (
	"fmt"
	"math"
	"strings"

	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/sim"
)

// Transcript is what an eavesdropper on one agent's links hears the agent
// itself say: its releases, iteration by iteration, as sent. The
// transcript of a noise-free run on D, and one on its neighbour D′, are
// the references a Listener compares each noisy run's messages with.
// It is a sim.Recorder; it copies what it keeps.
type Transcript struct {
	agent int
	max   int64
	rels  []released
	// first[k] is the index in rels of iteration k's first release.
	first []int
	vals  []float64
	err   error
}

type released struct {
	channel  string
	round    int
	off, len int
}

// NewTranscript returns a recorder of agent's releases that keeps at most
// maxValues numbers (it stops and reports an error beyond).
func NewTranscript(agent int, maxValues int64) *Transcript {
	return &Transcript{agent: agent, max: maxValues}
}

// Record implements sim.Recorder.
func (t *Transcript) Record(st *sim.Step) {
	if st.Iter < 1 || t.err != nil {
		return
	}
	for len(t.first) < st.Iter {
		t.first = append(t.first, len(t.rels))
	}
	for i := range st.Releases {
		r := &st.Releases[i]
		if r.From != t.agent {
			continue
		}
		if int64(len(t.vals)+len(r.Sent)) > t.max {
			t.err = fmt.Errorf("agent %d's messages hold more than %d numbers by iteration %d: the audit keeps two noise-free copies of them; lower the iterations", t.agent, t.max, st.Iter)
			return
		}
		t.rels = append(t.rels, released{channel: r.Channel, round: r.Round, off: len(t.vals), len: len(r.Sent)})
		t.vals = append(t.vals, r.Sent...)
	}
}

// Err reports a transcript that outgrew its bound.
func (t *Transcript) Err() error { return t.err }

// Iterations returns the number of iterations recorded.
func (t *Transcript) Iterations() int { return len(t.first) }

// Releases returns the number of releases recorded.
func (t *Transcript) Releases() int { return len(t.rels) }

// at returns iteration k's releases.
func (t *Transcript) at(k int) []released {
	if k < 0 || k >= len(t.first) {
		return nil
	}
	end := len(t.rels)
	if k+1 < len(t.first) {
		end = t.first[k+1]
	}
	return t.rels[t.first[k]:end]
}

func (t *Transcript) sent(r released) []float64 { return t.vals[r.off : r.off+r.len] }

// Difference returns Σ‖m′ − m‖² over the releases the two transcripts
// share (same iteration, channel and round, in order): how far apart
// the agent's noise-free messages are on D and D′. 0 means the
// neighbour changes nothing the eavesdropper hears.
func Difference(d, n *Transcript) float64 {
	s := 0.0
	for k := range min(d.Iterations(), n.Iterations()) {
		a, b := d.at(k), n.at(k)
		for j := range min(len(a), len(b)) {
			if a[j].channel != b[j].channel || a[j].round != b[j].round || a[j].len != b[j].len {
				continue
			}
			ma, mb := d.sent(a[j]), n.sent(b[j])
			for c := range ma {
				e := mb[c] - ma[c]
				s += float64(e * e)
			}
		}
	}
	return s
}

// Law gives the noise law of the agent's release on channel at iteration
// k (0 the first): its distribution (noise.Laplace or noise.Gaussian) and
// scale (Laplace b, Gaussian σ; 0: no noise).
type Law func(k int, channel string) (dist string, scale float64)

// Decisive is the weight of a release without noise in the likelihood
// ratio: its message tells D from D′ outright where the two noise-free
// messages differ, so its term dwarfs every noisy one (finite, so that
// sums stay numbers).
const Decisive = 1e100

// Listener is the eavesdropper of a distinguishing experiment on one
// agent (a sim.Recorder on a noisy run): it compares each of the agent's
// messages y with the noise-free messages m (on D) and m′ (on D′) of the
// same iteration, channel and round, and sums
//
//   - the log-likelihood ratio ln p(y | m′)/p(y | m) of the noise law
//     (LogLikelihoodRatio, in its monotone form): the Neyman–Pearson test
//     for the first release; for later ones the means have moved with the
//     noise fed back through the network, so it is the likelihood ratio
//     around the noise-free messages — still a valid test, less powerful;
//   - the projection ⟨y − m, m′ − m⟩ of the whole transcript on the
//     change, which needs no law (divided by its length in Statistics).
//
// Both are functions of the messages and of public knowledge (D, D′, the
// algorithm and its fixed seeds) only, never of the noise drawn, so a
// threshold on either is a test to which the (ε, δ) guarantee applies.
type Listener struct {
	agent      int
	d, n       *Transcript
	law        Law
	llr, proj  float64
	norm2      float64
	unmatched  int
	iterations int
}

// NewListener returns the eavesdropper of agent with references d (the
// noise-free run on D) and n (on D′) and the noise law law.
func NewListener(agent int, d, n *Transcript, law Law) *Listener {
	return &Listener{agent: agent, d: d, n: n, law: law}
}

// Record implements sim.Recorder.
func (l *Listener) Record(st *sim.Step) {
	if st.Iter < 1 {
		return
	}
	k := st.Iter - 1
	l.iterations = st.Iter
	a, b := l.d.at(k), l.n.at(k)
	j := 0
	for i := range st.Releases {
		r := &st.Releases[i]
		if r.From != l.agent {
			continue
		}
		if j >= len(a) || j >= len(b) || a[j].channel != r.Channel || b[j].channel != r.Channel ||
			a[j].round != r.Round || a[j].len != len(r.Sent) || b[j].len != len(r.Sent) {
			l.unmatched++
			j++
			continue
		}
		m0, m1 := l.d.sent(a[j]), l.n.sent(b[j])
		j++
		dist, scale := l.law(k, r.Channel)
		l.llr += term(dist, scale, r.Sent, m0, m1)
		for c, y := range r.Sent {
			e := m1[c] - m0[c]
			l.proj += float64((y - m0[c]) * e)
			l.norm2 += float64(e * e)
		}
	}
}

// term is one release's log-likelihood ratio; a release without noise
// counts ±Decisive times how far y lies towards m′ (clipped to ±1).
func term(dist string, scale float64, y, m0, m1 []float64) float64 {
	if scale > 0 && !math.IsInf(scale, 1) {
		return LogLikelihoodRatio(dist, scale, y, m0, m1)
	}
	if scale != 0 {
		return 0 // infinite noise says nothing
	}
	var s, n2 float64
	for c, v := range y {
		e := m1[c] - m0[c]
		s += float64((2*v - m0[c] - m1[c]) * e)
		n2 += float64(e * e)
	}
	if n2 == 0 {
		return 0
	}
	return Decisive * min(max(s/n2, -1), 1)
}

// Statistics returns the run's likelihood-ratio statistic and its
// projection on the change (⟨y − m, m′ − m⟩/‖m′ − m‖ over the whole
// transcript; 0 when the references agree).
func (l *Listener) Statistics() (lr, projection float64) {
	if l.norm2 == 0 {
		return l.llr, 0
	}
	return l.llr, l.proj / math.Sqrt(l.norm2)
}

// Unmatched returns the number of the agent's releases that had no
// counterpart in the references (a different channel, round or length at
// that place): they are left out of the statistics.
func (l *Listener) Unmatched() int { return l.unmatched }

// LawFit matches each channel of one agent's releases with the noise
// law it is drawn from, among candidates (a sim.Recorder on a probe run,
// apart from an audit's runs): for the right law, the mean of |z|/b
// (Laplace) or z²/σ² (Gaussian) over the coordinates of the drawn noise
// z is 1. An audit whose algorithm does not state its releases learns
// this way which of the scenario's noise channels each message carries.
type LawFit struct {
	agent int
	names []string
	laws  []Law
	fits  map[string]*fit
	order []string
}

type fit struct {
	sum   []float64
	n     int64
	quiet bool // every coordinate's noise was 0
}

// NewLawFit returns a fit of agent's releases against the laws, named.
func NewLawFit(agent int, names []string, laws []Law) *LawFit {
	return &LawFit{agent: agent, names: names, laws: laws, fits: map[string]*fit{}}
}

// Record implements sim.Recorder.
func (f *LawFit) Record(st *sim.Step) {
	if st.Iter < 1 {
		return
	}
	k := st.Iter - 1
	for i := range st.Releases {
		r := &st.Releases[i]
		if r.From != f.agent {
			continue
		}
		ft := f.fits[r.Channel]
		if ft == nil {
			ft = &fit{sum: make([]float64, len(f.laws)), quiet: true}
			f.fits[r.Channel] = ft
			f.order = append(f.order, r.Channel)
		}
		for j, law := range f.laws {
			dist, scale := law(k, r.Channel)
			for _, z := range r.Noise {
				switch {
				case scale == 0 && z != 0:
					ft.sum[j] = math.Inf(1)
				case scale == 0 || math.IsInf(scale, 1):
				case dist == noise.Gaussian:
					ft.sum[j] += float64((z / scale) * (z / scale))
				default:
					ft.sum[j] += math.Abs(z) / scale
				}
			}
		}
		for _, z := range r.Noise {
			if z != 0 {
				ft.quiet = false
			}
		}
		ft.n += int64(len(r.Sent))
	}
}

// Fit is the law a channel's noise was found to follow.
type Fit struct {
	// Channel is the release channel; Law the index of the candidate that
	// fits best (−1: the channel drew no noise in the probe); Name its
	// name, with those of the candidates that are the same law here
	// ("eta = xi").
	Channel string
	Law     int
	Name    string
	// Mean is the mean ratio (1 for a perfect fit) over N coordinates;
	// OK reports a mean within 5 standard errors of 1 (the standard
	// deviation of |z|/b and of z²/σ² is 1 and √2).
	Mean float64
	N    int64
	OK   bool
}

// Fits returns, per release channel in the order first heard, the
// candidate whose mean ratio is nearest 1.
func (f *LawFit) Fits() []Fit {
	var out []Fit
	for _, ch := range f.order {
		ft := f.fits[ch]
		r := Fit{Channel: ch, Law: -1, N: ft.n, Mean: math.NaN(), OK: true}
		if !ft.quiet {
			best := math.Inf(1)
			for j, s := range ft.sum {
				m := s / float64(ft.n)
				if d := math.Abs(num.Log(m)); d < best || r.Law < 0 && !math.IsInf(m, 1) {
					best, r.Law, r.Mean = d, j, m
				}
			}
			if r.Law >= 0 {
				// Candidates that gave the same sum are the same law
				// here (two channels of equal scales): name them all.
				var same []string
				for j, s := range ft.sum {
					if s == ft.sum[r.Law] {
						same = append(same, f.names[j])
					}
				}
				r.Name = strings.Join(same, " = ")
			}
			se := math.Sqrt(2 / float64(ft.n))
			r.OK = r.Law >= 0 && math.Abs(r.Mean-1) <= float64(5*se)+1e-9
		}
		out = append(out, r)
	}
	return out
}
