// Package eavesdrop records what an eavesdropper on one agent's links
// sees, iteration by iteration, next to what the agent holds: the messages
// the agent sends and receives, its true estimate x_i and gradient
// ∇f_i(x_i), and — for an algorithm whose messages a listener who knows
// its public inputs can invert (an Inverter, such as DPP²) — the
// listener's reconstruction of x_i and ∇f_i(x_i) from those messages.
//
// It is a teaching view, honest to the maths. For DPP² (spec §3.2) the
// first privacy tier (merging with the dual variables and η^k) hides
// nothing from a listener who knows η^k: the reconstruction is exactly
// x_i + w_i and ∇f_i(x_i) + e_i, so only the second tier, the Laplace
// noise, still protects — while it is large. A Frame shows both: the
// reconstruction's distance from the noisy values (rounding only) and
// the noise's size against the signal.
package eavesdrop

import (
	"fmt"
	"math"

	"dpsim/core/objective"
	"dpsim/core/sim"
)

// Inverter is implemented by an algorithm whose messages a listener who
// knows the algorithm's public inputs can invert.
type Inverter interface {
	// Listener returns a fresh listener on agent i's links, to be handed
	// every iteration from the first.
	Listener(agent int) Listener
}

// Listener reconstructs one agent's private values from the messages on
// its links.
type Listener interface {
	// Hear takes the step of one iteration k and returns the
	// reconstruction of the agent's estimate x_i^k and gradient
	// ∇f_i(x_i^k) from the releases alone (and the public inputs). The
	// slices are valid until the next call.
	Hear(st *sim.Step) (est, grad []float64)
	// Channels names the channels whose noise is left in the
	// reconstructed estimate and gradient (DPP²: "y" carries w, "z"
	// carries e), so a view can show what the noise still hides.
	Channels() (est, grad string)
	// Inputs says what the listener knows, for people (DPP²: "P, ρ and
	// η^k").
	Inputs() string
}

// Message is one release on the agent's links: sent by the agent (to its
// neighbours) or received from a neighbour.
type Message struct {
	From    int       `json:"from"`
	To      []int     `json:"to,omitempty"`
	Channel string    `json:"channel"`
	Round   int       `json:"round"`
	Sent    []float64 `json:"sent"`
	// Noise is the privacy-noise part of Sent (the eavesdropper does not
	// see it; the view does), nil without noise.
	Noise []float64 `json:"noise,omitempty"`
}

// Frame is what the eavesdropper saw in iteration k (messages of k, the
// agent's x_i^k and ∇f_i(x_i^k) before the update).
type Frame struct {
	Iter int `json:"iteration"`
	// X and Grad are the agent's true x_i^k and ∇f_i(x_i^k).
	X    []float64 `json:"x"`
	Grad []float64 `json:"grad"`
	// Sent and Received are the messages on the agent's links, in round
	// order.
	Sent     []Message `json:"sent"`
	Received []Message `json:"received"`
	// XHat and GradHat are the listener's reconstruction; nil when the
	// algorithm offers no Inverter.
	XHat    []float64 `json:"x_hat,omitempty"`
	GradHat []float64 `json:"grad_hat,omitempty"`
	// NoiseX and NoiseGrad are the noise left in the reconstruction (the
	// agent's own noise on the listener's channels).
	NoiseX    []float64 `json:"noise_x,omitempty"`
	NoiseGrad []float64 `json:"noise_grad,omitempty"`
	// ResidualX = max_c |x̂ − (x + w)| and ResidualGrad = max_c |ĝ − (∇f +
	// e)|: 0 up to rounding when the first tier is inverted exactly.
	ResidualX    float64 `json:"residual_x"`
	ResidualGrad float64 `json:"residual_grad"`
	// ShieldX = ‖w‖/‖x‖ and ShieldGrad = ‖e‖/‖∇f‖: how large the noise
	// still is against what it hides (the second tier's protection).
	ShieldX    float64 `json:"shield_x"`
	ShieldGrad float64 `json:"shield_grad"`
}

// MaxFrames bounds the frames one recorder keeps.
const MaxFrames = 20000

// Recorder is a sim.Recorder that keeps the Frames of one agent, every
// Every iterations (always the first two, so both rounds of iterations 0
// and 1 are there).
type Recorder struct {
	Agent int
	Every int
	// Keep > 0 keeps only the last Keep frames (a live view's window);
	// 0 keeps up to MaxFrames and then sets Truncated.
	Keep   int
	Frames []Frame
	// Truncated reports that MaxFrames frames were kept and later ones
	// dropped.
	Truncated bool

	prob     objective.Problem
	listener Listener
	prev     []float64 // x_i^k: the estimate before the iteration
	grad     []float64
}

// New returns a recorder of agent on prob; alg's Listener is used when
// alg is an Inverter. every ≥ 1 thins the frames.
func New(prob objective.Problem, alg sim.Algorithm, agent, every int) (*Recorder, error) {
	if agent < 0 || agent >= prob.Agents() {
		return nil, fmt.Errorf("the agent must be from 0 to %d (got %d)", prob.Agents()-1, agent)
	}
	if every < 1 {
		return nil, fmt.Errorf("every must be at least 1 (got %d)", every)
	}
	r := &Recorder{Agent: agent, Every: every, prob: prob, grad: make([]float64, prob.Dim())}
	if inv, ok := alg.(Inverter); ok {
		r.listener = inv.Listener(agent)
	}
	return r, nil
}

// Inverts reports whether the recorder reconstructs (the algorithm is an
// Inverter), and what the listener knows.
func (r *Recorder) Inverts() (bool, string) {
	if r.listener == nil {
		return false, ""
	}
	return true, r.listener.Inputs()
}

// Record implements sim.Recorder.
func (r *Recorder) Record(st *sim.Step) {
	if st.Iter == 0 || r.prev == nil {
		if len(st.Estimates) >= (r.Agent+1)*st.Dim {
			r.prev = append(r.prev[:0], st.Estimate(r.Agent)...)
		}
		if st.Iter == 0 {
			return
		}
	}
	k := st.Iter - 1 // the releases are those of iteration k
	var xh, gh []float64
	if r.listener != nil {
		xh, gh = r.listener.Hear(st)
	}
	keep := (k < 2 || k%r.Every == 0) && !r.Truncated
	switch {
	case keep && r.Keep > 0 && len(r.Frames) >= r.Keep:
		r.Frames = append(r.Frames[:0], r.Frames[len(r.Frames)-r.Keep+1:]...)
	case keep && len(r.Frames) >= MaxFrames:
		r.Truncated, keep = true, false
	}
	if keep {
		r.Frames = append(r.Frames, r.frame(st, k, xh, gh))
	}
	if len(st.Estimates) >= (r.Agent+1)*st.Dim {
		r.prev = append(r.prev[:0], st.Estimate(r.Agent)...)
	}
}

func (r *Recorder) frame(st *sim.Step, k int, xh, gh []float64) Frame {
	f := Frame{Iter: k, X: clone(r.prev)}
	r.prob.Grad(r.Agent, r.prev, r.grad)
	f.Grad = clone(r.grad)
	var chX, chG string
	if r.listener != nil {
		chX, chG = r.listener.Channels()
	}
	for i := range st.Releases {
		rel := &st.Releases[i]
		m := Message{From: rel.From, Channel: rel.Channel, Round: rel.Round, Sent: clone(rel.Sent), Noise: clone(rel.Noise)}
		switch {
		case rel.From == r.Agent:
			m.To = append([]int(nil), rel.To...)
			f.Sent = append(f.Sent, m)
			if rel.Channel == chX {
				f.NoiseX = noiseOr0(rel)
			}
			if rel.Channel == chG {
				f.NoiseGrad = noiseOr0(rel)
			}
		case contains(rel.To, r.Agent):
			f.Received = append(f.Received, m)
		}
	}
	if xh != nil {
		f.XHat, f.GradHat = clone(xh), clone(gh)
		f.ResidualX = residual(f.XHat, f.X, f.NoiseX)
		f.ResidualGrad = residual(f.GradHat, f.Grad, f.NoiseGrad)
	}
	f.ShieldX = ratio(f.NoiseX, f.X)
	f.ShieldGrad = ratio(f.NoiseGrad, f.Grad)
	return f
}

func noiseOr0(rel *sim.Release) []float64 {
	if rel.Noise == nil {
		return make([]float64, len(rel.Sent))
	}
	return clone(rel.Noise)
}

// residual returns max_c |hat_c − (x_c + n_c)| (n nil: 0).
func residual(hat, x, n []float64) float64 {
	m := 0.0
	for c := range hat {
		v := x[c]
		if n != nil {
			v += n[c]
		}
		m = math.Max(m, math.Abs(hat[c]-v))
	}
	return m
}

// ratio returns ‖n‖/‖x‖ (0 when n is nil or zero, +Inf JSON-safe as a
// large number is avoided: ‖x‖ = 0 gives 0 when n is 0 and 1e300 else).
func ratio(n, x []float64) float64 {
	nn, nx := 0.0, 0.0
	for c := range n {
		nn += float64(n[c] * n[c])
	}
	for c := range x {
		nx += float64(x[c] * x[c])
	}
	switch {
	case nn == 0:
		return 0
	case nx == 0:
		return 1e300
	}
	return math.Sqrt(nn / nx)
}

func clone(v []float64) []float64 {
	if v == nil {
		return nil
	}
	return append([]float64(nil), v...)
}

func contains(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// Report is the recorder's output, as `dpsim run --eavesdrop` writes it.
type Report struct {
	Format    string  `json:"format"`
	Algorithm string  `json:"algorithm"`
	Agent     int     `json:"agent"`
	Every     int     `json:"every"`
	Inverts   bool    `json:"inverts"`
	Knows     string  `json:"knows,omitempty"`
	Note      string  `json:"note"`
	Truncated bool    `json:"truncated,omitempty"`
	Frames    []Frame `json:"frames"`
}

// Format names the report's format.
const Format = "dpsim-eavesdrop/1"

// Report returns the recorder's report for algorithm alg.
func (r *Recorder) Report(alg string) Report {
	inv, knows := r.Inverts()
	note := "the messages on the agent's links next to its true x_i and ∇f_i(x_i); " + alg + " offers no inversion of its messages, so there is no reconstruction"
	if inv {
		note = "an eavesdropper on every link of the agent who knows " + knows + " rebuilds the dual variables and reconstructs x_i + w_i and ∇f_i(x_i) + e_i exactly (residual: rounding only): the first tier hides nothing more; the Laplace noise (shield = ‖noise‖/‖signal‖) is all that protects, while it is large"
	}
	fr := r.Frames
	if fr == nil {
		fr = []Frame{}
	}
	return Report{Format: Format, Algorithm: alg, Agent: r.Agent, Every: r.Every, Inverts: inv, Knows: knows, Note: note, Truncated: r.Truncated, Frames: fr}
}
