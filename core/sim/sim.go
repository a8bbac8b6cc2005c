// Package sim holds the contract between algorithms and everything that
// watches them: the Step an algorithm reports after each iteration, the
// Releases inside it, and the Algorithm and Recorder interfaces.
//
// An algorithm does no I/O and no drawing. It advances one iteration and
// reports what happened; metrics, the privacy ledger, the renderer and the
// exporter are recorders that consume the report.
//
// # Releases, not per-link copies
//
// What leaks privacy is what an agent releases: a vector with noise in it.
// A Release is one such vector — one record per (sender, channel, round)
// — with the list of receivers and, per receiver, the factor the
// transmission carries. The algorithm fills its releases in place, in
// buffers it reuses, so reporting an iteration costs nothing per link.
// Per-link messages (what travels on each edge) are a view computed on
// demand (Step.Messages) for the recorders that want them: the animation,
// an eavesdropper view, an exporter. Sweeps run with none of them and do
// no per-link work at all.
//
// # How the five papers' message patterns map onto releases
//
//   - Broadcast with receiver weights — GT-DP (Xuan & Wang, Alg. 1): agent
//     i releases s_i + β_k η_i (channel "s") and x_i + β_k ξ_i (channel
//     "x") once per iteration; the receivers are its neighbours j, each
//     with factor w_ji, because the paper's message to j is
//     w_ji·(s_i + β_k η_i). The LDP online algorithm (Chen & Wang) is the
//     same pattern with one channel, y_i = θ_i + ϑ_i, factor w_ji.
//   - Two rounds per iteration — DPP² (Ou et al., Alg. 1): y_i (round 0)
//     then z_i (round 1), each broadcast to all neighbours with factor 1
//     (the receiver applies its own p_ij).
//   - Directed push and pull with different matrices — DP-DGT (Huo et
//     al., Alg. 1): the push release s_i + ξ_i goes to the out-neighbours
//     l in G_C with factor C_li; the pull release w̃_i + ζ_i is read by the
//     out-neighbours l in G_R, with factor 1 (the puller weighs it by its
//     own R_li). Two channels, one round, different receiver lists.
//   - One baton message per iteration — DP-RECAL (Wang et al., Alg. 1):
//     only the active agent releases (ũ, x), to the one neighbour the
//     random walk picks, factor 1; Step.Active names the active agent.
//
// An agent's own value is never a message: a Release's receivers exclude
// the sender even where the sender mixes its own noisy copy (DP-DGT).
package sim

import "iter"

// Release is what one agent released in one communication round of an
// iteration, on one channel.
//
// Sent and Noise may alias buffers owned by the algorithm, and To and
// Factor may alias its weight matrix: all are valid until the algorithm's
// next Advance. A recorder that keeps them must copy them.
type Release struct {
	// From is the sender.
	From int
	// Channel names the quantity carried, as the algorithm's paper names
	// it (e.g. "s" or "x" for GT-DP, "y" or "z" for DPP²).
	Channel string
	// Round is the communication round within the iteration, from 0.
	Round int
	// Sent is the vector as released, noise included.
	Sent []float64
	// Noise is the privacy-noise part of Sent, so Sent − Noise is the
	// clean signal. Nil means no noise.
	Noise []float64
	// To lists the receivers; it never contains From.
	To []int
	// Factor[k] multiplies Sent on its way to To[k] (GT-DP's w_ji,
	// DP-DGT's C_li). Nil means 1 for every receiver.
	Factor []float64
	// Pull reports that the receivers fetch the value rather than the
	// sender delivering it (DP-DGT's w̃_i + ζ_i, which its out-neighbours in
	// G_R pull); views draw pulled and pushed messages differently. What
	// leaks is the same either way.
	Pull bool
}

// FactorAt returns the factor of the transmission to To[k].
func (r *Release) FactorAt(k int) float64 {
	if r.Factor == nil {
		return 1
	}
	return r.Factor[k]
}

// Message is one transmission on one link: a view of a Release for one
// receiver. The payload as transmitted is Factor·Sent, its noise part
// Factor·Noise.
type Message struct {
	From, To int
	Channel  string
	Round    int
	Factor   float64
	// Pull is the release's Pull.
	Pull bool
	// Sent and Noise are the release's vectors (not scaled by Factor),
	// with the release's lifetime.
	Sent, Noise []float64
}

// Payload writes Factor·Sent into dst (grown as needed) and returns it.
func (m *Message) Payload(dst []float64) []float64 {
	dst = dst[:0]
	for _, v := range m.Sent {
		dst = append(dst, m.Factor*v)
	}
	return dst
}

// NoisePart writes Factor·Noise into dst (zeros when the release had no
// noise) and returns it.
func (m *Message) NoisePart(dst []float64) []float64 {
	dst = dst[:0]
	if m.Noise == nil {
		for range m.Sent {
			dst = append(dst, 0)
		}
		return dst
	}
	for _, v := range m.Noise {
		dst = append(dst, m.Factor*v)
	}
	return dst
}

// Step is an algorithm's report of one iteration.
type Step struct {
	// Iter is the number of iterations completed, so the estimates are
	// x_{Iter}. The report of the first iteration has Iter = 1.
	Iter int
	// Dim is the length of each agent's estimate.
	Dim int
	// Estimates holds the agents' decision variables after the iteration,
	// agent-major: agent i's estimate is Estimates[i*Dim : (i+1)*Dim].
	Estimates []float64
	// Prices holds, for algorithms that solve a resource-allocation
	// problem through its dual (DP-DGT and its baselines), every agent's
	// local price estimate — the multiplier of the coupling constraint
	// Σ w_i = Σ d_i — agent-major like Estimates, which then holds the
	// allocations w_i. Nil for every other algorithm.
	Prices []float64
	// Releases lists what the agents released during the iteration, in
	// the order it was sent: round by round, so Round never decreases
	// along the slice. The runner hands its recorders the releases in
	// that order even when an algorithm lists them otherwise
	// (InRoundOrder).
	Releases []Release
	// Active lists the agents that computed during the iteration; nil
	// means all of them (DP-RECAL activates one agent per iteration).
	// Only active agents release; the runner counts activations from it.
	Active []int
	// Output is the network's estimate when it belongs to no agent — the
	// shared state of a relay algorithm, DP-RECAL's baton x — of length
	// Dim; nil means the estimate is per agent (Estimates). When it is
	// set, the metrics measure the optimum gap and the objective at
	// Output, and Estimates holds what the agents keep locally (possibly
	// nothing).
	Output []float64
}

// InRoundOrder reports whether the releases are listed round by round
// (Round never decreases), as Releases requires.
func (s *Step) InRoundOrder() bool {
	for i := 1; i < len(s.Releases); i++ {
		if s.Releases[i].Round < s.Releases[i-1].Round {
			return false
		}
	}
	return true
}

// IsActive reports whether agent i computed during the step.
func (s *Step) IsActive(i int) bool {
	if s.Active == nil {
		return true
	}
	for _, a := range s.Active {
		if a == i {
			return true
		}
	}
	return false
}

// Estimate returns agent i's estimate in s.
func (s *Step) Estimate(i int) []float64 {
	return s.Estimates[i*s.Dim : (i+1)*s.Dim]
}

// Agents returns the number of agents whose estimates s holds.
func (s *Step) Agents() int {
	if s.Dim == 0 {
		return 0
	}
	return len(s.Estimates) / s.Dim
}

// Messages returns the per-link view of the step's releases: one Message
// per (release, receiver), in release order. Nothing is allocated.
func (s *Step) Messages() iter.Seq[Message] {
	return func(yield func(Message) bool) {
		for i := range s.Releases {
			r := &s.Releases[i]
			for k, to := range r.To {
				m := Message{From: r.From, To: to, Channel: r.Channel, Round: r.Round,
					Factor: r.FactorAt(k), Pull: r.Pull, Sent: r.Sent, Noise: r.Noise}
				if !yield(m) {
					return
				}
			}
		}
	}
}

// Links returns the number of per-link messages of the step.
func (s *Step) Links() int {
	n := 0
	for i := range s.Releases {
		n += len(s.Releases[i].To)
	}
	return n
}

// Var is one named state variable of every agent, agent-major like
// Step.Estimates (for example GT-DP's tracker "s"), or a shared variable
// that belongs to no agent (method.Shared; DP-RECAL's baton), whose Data
// is one row of length Dim.
type Var struct {
	Name string
	Dim  int
	Data []float64
}

// Algorithm is a decentralized optimization method running on a fixed
// problem instance. It owns all its state and random streams.
type Algorithm interface {
	// Name is the algorithm's short name, e.g. "gt-dp".
	Name() string
	// Initial reports the state before the first iteration (Iter = 0, no
	// releases).
	Initial() *Step
	// Advance runs one iteration and reports it. The returned Step and
	// everything it points to stay valid until the next call to Advance.
	Advance() *Step
	// State returns copies of every state variable of every agent, for
	// checkpoints. The estimate variable comes first.
	State() []Var
}

// Resumable is implemented by algorithms that can continue a run from a
// checkpoint: the state variables State returned at iteration iter. The
// runner puts the run's random streams back at their saved positions
// itself (rng.Registry), so a resumed run continues bit for bit.
type Resumable interface {
	// Resume replaces every state variable with state (the names and
	// shapes State returns) and sets the iteration count to iter, so that
	// the next Advance reports iteration iter+1.
	Resume(iter int, state []Var) error
}

// Recorder consumes the step stream. Record is called with the initial
// step and then after every iteration, in order.
type Recorder interface {
	Record(s *Step)
}

// AddReleases appends one release per agent i < n on channel to s, for
// algorithms whose vectors live agent-major in buffers they overwrite in
// place every iteration: agent i's Sent aliases sent[i·stride+off :
// i·stride+off+d] and its Noise noise[i·d : (i+1)·d], so the releases are
// built once and reporting an iteration copies nothing. recv gives agent
// i's receivers and their factors (nil factors: 1 each); pull marks values
// the receivers fetch.
func (s *Step) AddReleases(channel string, n, d, stride, off int, sent, noise []float64, pull bool, recv func(i int) (to []int, factor []float64)) {
	for i := range n {
		o := i*stride + off
		to, fac := recv(i)
		s.Releases = append(s.Releases, Release{From: i, Channel: channel,
			Sent: sent[o : o+d : o+d], Noise: noise[i*d : (i+1)*d : (i+1)*d], To: to, Factor: fac, Pull: pull})
	}
}
