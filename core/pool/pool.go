// Package pool runs the independent per-agent work of one iteration —
// every agent's gradient, an inner solve per agent — on several
// goroutines, natively. Each task writes only its own agent's slices and
// draws no random number, so the results are the same bits on any number
// of workers; under js/wasm the pool runs on the calling goroutine, and
// the agents' gradients may go to a farm of Web Workers instead (SetFarm,
// core/farm).
//
// A run's pool is not part of its scenario: the same scenario gives the
// same export on one worker or many (dpsim run --workers, DPSIM_WORKERS;
// the page's Workers setting).
package pool

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"dpsim/core/farm"
)

// Auto is the worker count that lets the pool choose: one worker while an
// iteration's per-agent work is too short to gain from more, every core
// (GOMAXPROCS) once a timed call takes at least Threshold.
const Auto = 0

// Max bounds an explicit worker count: more workers than agents or cores
// only add overhead.
const Max = 1024

// Threshold is the duration of one call's work on one goroutine from which
// an Auto pool spreads its calls over every core. Starting and joining the
// goroutines of a call costs a few microseconds (BenchmarkOverhead).
const Threshold = 100 * time.Microsecond

// probeEvery is how often a serial Auto pool times a call after its first
// probes: the work of an online method grows with the data received.
const (
	probeFirst = 3
	probeEvery = 16
)

// Pool runs the tasks of a call on up to its number of workers. A nil
// *Pool runs everything on the calling goroutine. A Pool is used by one
// run, from one goroutine at a time.
type Pool struct {
	workers int // Auto, or the explicit count
	wide    bool
	calls   int
	farm    farm.Farm
	lost    error // why the farm was dropped
}

// New returns a pool of workers goroutines (Auto: the pool chooses).
func New(workers int) *Pool {
	p := &Pool{}
	p.Set(workers)
	return p
}

// Rule is what Check requires of a worker count, in words.
var Rule = fmt.Sprintf("must be a whole number from 0 (every core, once an iteration is long enough to gain) to %d", Max)

// Check refuses a worker count outside [Auto, Max], with Rule.
func Check(workers int) error {
	if workers < Auto || workers > Max {
		return errors.New(Rule)
	}
	return nil
}

// Set changes the worker count (Auto: the pool chooses); it restarts an
// Auto pool's timing. Out-of-range counts are clamped (Check says why).
func (p *Pool) Set(workers int) {
	p.workers = min(max(workers, Auto), Max)
	p.wide, p.calls = false, 0
}

// Workers returns the count set (Auto when the pool chooses); 1 for a nil
// pool.
func (p *Pool) Workers() int {
	if p == nil {
		return 1
	}
	return p.workers
}

// Widest returns the most goroutines a call of n tasks runs on with a
// pool of workers workers (Auto: every core, GOMAXPROCS), now or later:
// what the memory a task holds while it runs is counted by (one under
// js/wasm, which has one thread).
func Widest(workers, n int) int {
	switch {
	case !native || n < 2:
		return 1
	case workers == Auto:
		return min(runtime.GOMAXPROCS(0), n)
	}
	return max(1, min(workers, n))
}

// Serial reports whether every call runs on the calling goroutine, now and
// later (a nil pool, one worker, js/wasm), so a caller may take a path of
// its own for it (objective.Batch).
func (p *Pool) Serial() bool {
	return p == nil || p.workers == 1 || (!native && p.farm == nil)
}

// cores is what an Auto pool spreads over: the farm's workers when it has
// a farm, else GOMAXPROCS.
func (p *Pool) cores() int {
	if p.farm != nil {
		return p.farm.Size()
	}
	return runtime.GOMAXPROCS(0)
}

// width returns the goroutines a call of n tasks uses now (one under
// js/wasm, which has one thread).
func (p *Pool) width(n int) int {
	switch {
	case !native || p.Serial() || n < 2:
		return 1
	case p.workers != Auto:
		return min(p.workers, n)
	case p.wide:
		return min(runtime.GOMAXPROCS(0), n)
	}
	return 1
}

// SetFarm hands the pool's gradient calls to f (nil: none; see Farmed and
// Send) and restarts an Auto pool's timing, which then measures against
// f's workers. A pool of one worker never uses its farm.
func (p *Pool) SetFarm(f farm.Farm) {
	p.farm, p.lost = f, nil
	p.wide, p.calls = false, 0
}

// Farmed reports whether a gradient call of n agents goes to the farm
// now: a farm of two workers or more, two agents or more, and an explicit
// count of two or more or an Auto pool whose timed calls reached
// Threshold (the rule that spreads it over goroutines natively).
func (p *Pool) Farmed(n int) bool {
	switch {
	case p == nil || p.farm == nil || n < 2 || p.workers == 1 || p.farm.Size() < 2:
		return false
	case p.workers == Auto:
		return p.wide
	}
	return true
}

// Send hands tasks to the farm and reports whether it computed them.
// When it did not the caller computes them itself: the farm's workers are
// still starting (farm.ErrNotReady), or the farm failed, and the pool
// drops it for the rest of the run (Lost says why).
func (p *Pool) Send(tasks []farm.Task) bool {
	err := p.farm.Grads(tasks)
	switch {
	case err == nil:
		return true
	case !errors.Is(err, farm.ErrNotReady):
		p.farm, p.lost = nil, err
		p.wide, p.calls = false, 0
	}
	return false
}

// Lost returns why the pool dropped its farm (nil while it has one or
// never had).
func (p *Pool) Lost() error {
	if p == nil {
		return nil
	}
	return p.lost
}

// Each calls f(i) for every i in [0, n) and returns when all are done. f
// must write only what belongs to i and draw nothing from a shared
// stream: the calls may run at once, in any order.
func (p *Pool) Each(n int, f func(i int)) {
	w := p.width(n)
	if w > 1 {
		spread(n, w, f)
		return
	}
	if p.Serial() || p.workers != Auto {
		for i := range n {
			f(i)
		}
		return
	}
	// An Auto pool still on one goroutine times some of its calls.
	probe := p.calls < probeFirst || p.calls%probeEvery == 0
	p.calls++
	var t0 time.Time
	if probe {
		t0 = time.Now()
	}
	for i := range n {
		f(i)
	}
	if probe && n > 1 && time.Since(t0) >= Threshold && p.cores() > 1 {
		p.wide = true
	}
}

// spread runs f(0) … f(n−1) on w goroutines (the caller's among them),
// each taking the next index; a panic in a task is raised again in the
// caller once every goroutine has stopped.
func spread(n, w int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Pointer[any]
	work := func() {
		defer func() {
			if r := recover(); r != nil {
				failed.CompareAndSwap(nil, &r)
			}
		}()
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			f(i)
		}
	}
	wg.Add(w - 1)
	for range w - 1 {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	if r := failed.Load(); r != nil {
		panic(*r)
	}
}
