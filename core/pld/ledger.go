package pld

import (
	"fmt"
	"runtime"
	"sync"
)

// Ledger keeps the releases of every agent of a run, as the accountants
// report them, and composes them on demand. Composition commutes, so an
// agent's releases are kept as a multiset — one count per distinct
// Laplace Δ/scale, and the Gaussian releases' Σ(Δ/σ)² — and agents whose
// multisets are equal (the same noise and sensitivities, as in most
// scenarios) are composed once.
type Ledger struct {
	agents []multiset
}

// NewLedger returns a ledger for n agents.
func NewLedger(n int) *Ledger {
	l := &Ledger{agents: make([]multiset, n)}
	for i := range l.agents {
		l.agents[i] = newMultiset()
	}
	return l
}

// Agents returns the number of agents.
func (l *Ledger) Agents() int { return len(l.agents) }

// Add records r for agent i.
func (l *Ledger) Add(i int, r Release) error {
	if i < 0 || i >= len(l.agents) {
		return fmt.Errorf("agent: must be in 0…%d, got %d", len(l.agents)-1, i)
	}
	return l.agents[i].add(r, func() string { return fmt.Sprintf("agents[%d].release", i) })
}

// Compose returns every agent's composition, composing each distinct
// multiset once (agents with equal ones share the *Composition), the
// distinct ones in parallel on up to GOMAXPROCS goroutines.
func (l *Ledger) Compose(opt Options) ([]*Composition, error) {
	out := make([]*Composition, len(l.agents))
	first, err := l.composeEach(opt, func(i int, c *Composition) error {
		out[i] = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	return shared(out, first), nil
}

// composeEach composes each distinct multiset once, in parallel on up to
// GOMAXPROCS goroutines, and hands agent i's composition to visit on the
// goroutine that composed it. first[i] is the first agent whose multiset
// equals agent i's (the one visited). A composition's error comes first
// (in the agents' order), then visit's.
func (l *Ledger) composeEach(opt Options, visit func(i int, c *Composition) error) (first []int, err error) {
	first = make([]int, len(l.agents))
	byHash := map[uint64][]int{}
	var distinct []int
	for i := range l.agents {
		a := &l.agents[i]
		first[i] = i
		for _, j := range byHash[a.hash] {
			if l.agents[j].equal(a) {
				first[i] = j
				break
			}
		}
		if first[i] == i {
			byHash[a.hash] = append(byHash[a.hash], i)
			distinct = append(distinct, i)
		}
	}
	errs := make([]error, len(l.agents))
	verrs := make([]error, len(l.agents))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(distinct)) {
		wg.Go(func() {
			for i := range next {
				var c *Composition
				if c, errs[i] = l.agents[i].compose(opt); errs[i] == nil {
					verrs[i] = visit(i, c)
				}
			}
		})
	}
	for _, i := range distinct {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, i := range distinct {
		if errs[i] != nil {
			return nil, fmt.Errorf("agents[%d]: %w", i, errs[i])
		}
	}
	for _, i := range distinct {
		if verrs[i] != nil {
			return nil, verrs[i]
		}
	}
	return first, nil
}

// Bounds returns every agent's ε at delta (see Composition.Epsilon),
// reading each shared composition once, as soon as it is composed, and
// returning its distributions to the pool (a call for 50 agents then
// allocates little: the next agent's compositions reuse them).
func (l *Ledger) Bounds(delta float64, opt Options) ([]Bound, error) {
	bs := make([]Bound, len(l.agents))
	first, err := l.composeEach(opt, func(i int, c *Composition) error {
		b, err := c.Epsilon(delta)
		c.release()
		bs[i] = b
		return err
	})
	if err != nil {
		return nil, err
	}
	return shared(bs, first), nil
}

// shared fills each agent's entry from the first agent with its multiset
// (first[i] ≤ i), which composeEach visited.
func shared[T any](v []T, first []int) []T {
	for i := range v {
		v[i] = v[first[i]]
	}
	return v
}
