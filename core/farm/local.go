package farm

// Local is a farm in one process: worker 0 is the caller, computing its
// share on its own problem, and every other worker answers encoded
// requests on a problem instance of its own, as the page's helper Web
// Workers do (the same bytes cross). It is what tests compare the page's
// protocol against one worker with.
type Local struct {
	workers []Grader // workers[0] is the caller's problem
	agents  int
	dim     int
	tmp     []float64
	// Calls counts the Grads calls sent to the other workers.
	Calls int
}

// NewLocal returns a farm over the given problem instances (at least one;
// the first is the caller's), each of agents agents in dimension dim.
func NewLocal(agents, dim int, workers ...Grader) *Local {
	return &Local{workers: workers, agents: agents, dim: dim, tmp: make([]float64, dim)}
}

// Size implements Farm.
func (l *Local) Size() int { return len(l.workers) }

// Grads implements Farm: each worker w > 0 gets its share (Share) as a
// request and its reply is decoded into the tasks; worker 0 runs its
// share itself.
func (l *Local) Grads(tasks []Task) error {
	size := len(l.workers)
	for w := 1; w < size; w++ {
		lo, hi := Share(len(tasks), size, w)
		if lo == hi {
			continue
		}
		reply, err := Serve(l.workers[w], l.agents, l.dim, Encode(nil, tasks[lo:hi]))
		if err != nil {
			return err
		}
		if err := DecodeReply(reply, tasks[lo:hi]); err != nil {
			return err
		}
	}
	lo, hi := Share(len(tasks), size, 0)
	for k := lo; k < hi; k++ {
		Run(l.workers[0], &tasks[k], l.tmp)
	}
	l.Calls++
	return nil
}
