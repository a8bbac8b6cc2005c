// Package sim holds the contract between algorithms and everything that
// watches them: the Step an algorithm reports after each iteration, the
// Messages inside it, and the Algorithm and Recorder interfaces.
//
// An algorithm does no I/O and no drawing. It advances one iteration and
// reports what happened; metrics, the privacy ledger, the renderer and the
// exporter are recorders that consume the report.
package sim

// Message is one transmission from one agent to another during an
// iteration. Payload is exactly what the sender transmitted (noise
// included); Noise is the part of Payload that is privacy noise, so
// Payload − Noise is the clean signal. A broadcast to k neighbours is k
// messages.
//
// Payload and Noise may alias buffers owned by the algorithm: they are
// valid until the algorithm's next Step. A recorder that keeps them must
// copy them.
type Message struct {
	From, To int
	// Channel names the quantity carried, as the algorithm's paper names
	// it (e.g. "s" or "x" for GT-DP, "y" or "z" for DPP²).
	Channel string
	// Round is the communication round within the iteration, from 0.
	// Algorithms with two rounds per iteration (DPP²) use 0 and 1.
	Round   int
	Payload []float64
	Noise   []float64
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
	// Messages lists every message sent during the iteration, in the order
	// they were sent.
	Messages []Message
	// Active lists the agents that computed during the iteration; nil
	// means all of them (DP-RECAL activates one agent per iteration).
	Active []int
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

// Var is one named state variable of every agent, agent-major like
// Step.Estimates (for example GT-DP's tracker "s").
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
	// messages).
	Initial() *Step
	// Advance runs one iteration and reports it. The returned Step and
	// everything it points to stay valid until the next call to Advance.
	Advance() *Step
	// State returns copies of every state variable of every agent, for
	// checkpoints. The estimate variable comes first.
	State() []Var
}

// Recorder consumes the step stream. Record is called with the initial
// step and then after every iteration, in order.
type Recorder interface {
	Record(s *Step)
}
