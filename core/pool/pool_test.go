package pool

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"dpsim/core/farm"
)

// Every index runs exactly once, whatever the workers, agents and pool.
func TestEachRunsEveryIndexOnce(t *testing.T) {
	for _, p := range []*Pool{nil, New(1), New(2), New(4), New(Auto), New(Max)} {
		for _, n := range []int{0, 1, 2, 3, 10, 257} {
			counts := make([]atomic.Int32, n)
			p.Each(n, func(i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Errorf("workers %d, n %d: index %d ran %d times, want 1", p.Workers(), n, i, c)
				}
			}
		}
	}
}

// An explicit count runs on that many goroutines at once (at most n),
// natively; one worker and a nil pool stay on the caller's goroutine.
func TestEachWidth(t *testing.T) {
	for _, tc := range []struct {
		workers, n, want int
	}{
		{1, 8, 1}, {2, 8, 2}, {4, 8, 4}, {4, 3, 3}, {8, 1, 1},
	} {
		p := New(tc.workers)
		if got := p.width(tc.n); got != tc.want && native {
			t.Errorf("workers %d, n %d: width %d, want %d", tc.workers, tc.n, got, tc.want)
		}
	}
	var nilPool *Pool
	if w := nilPool.width(8); w != 1 {
		t.Errorf("a nil pool is %d wide, want 1", w)
	}
	if !nilPool.Serial() || !New(1).Serial() {
		t.Error("a nil pool and a pool of one worker must be serial")
	}
	if native && New(2).Serial() {
		t.Error("a pool of two workers is serial natively")
	}
}

// Two workers run tasks at the same time: each of two tasks waits for the
// other to have started (a serial pool would hang, hence the timeout).
func TestEachRunsAtOnce(t *testing.T) {
	if !native || runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two threads")
	}
	started := make(chan int, 2)
	done := make(chan bool)
	go func() {
		New(2).Each(2, func(i int) {
			started <- i
			for len(started) < 2 {
				runtime.Gosched()
			}
		})
		done <- true
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("two tasks on two workers did not run at once")
	}
}

// A panic in a task reaches the caller after every worker stopped.
func TestEachPanics(t *testing.T) {
	for _, w := range []int{1, 3} {
		func() {
			defer func() {
				if r := recover(); fmt.Sprint(r) != "task 5" {
					t.Errorf("workers %d: recovered %v, want the task's panic", w, r)
				}
			}()
			New(w).Each(10, func(i int) {
				if i == 5 {
					panic("task 5")
				}
			})
		}()
	}
}

// An Auto pool stays on one goroutine for calls shorter than Threshold
// and spreads its calls once a timed one took longer; Set starts over.
func TestAuto(t *testing.T) {
	if !native || runtime.GOMAXPROCS(0) < 2 {
		t.Skip("an Auto pool is serial with one thread")
	}
	p := New(Auto)
	for range 50 {
		p.Each(4, func(int) {})
	}
	if p.width(4) != 1 {
		t.Fatalf("after 50 empty calls an Auto pool is %d wide, want 1", p.width(4))
	}
	p.Each(4, func(int) { time.Sleep(Threshold / 2) }) // call 50: not timed
	if p.width(4) != 1 {
		t.Fatalf("an untimed call widened the pool")
	}
	for range probeEvery {
		p.Each(4, func(int) { time.Sleep(Threshold / 2) })
	}
	if want := min(runtime.GOMAXPROCS(0), 4); p.width(4) != want {
		t.Fatalf("after a timed call of 2·Threshold the pool is %d wide, want %d", p.width(4), want)
	}
	p.Set(Auto)
	if p.width(4) != 1 {
		t.Errorf("Set did not start the timing over")
	}
}

// Check names the rule and accepts the range.
func TestCheck(t *testing.T) {
	for _, w := range []int{Auto, 1, 8, Max} {
		if err := Check(w); err != nil {
			t.Errorf("Check(%d): %v", w, err)
		}
	}
	for _, w := range []int{-1, Max + 1} {
		err := Check(w)
		if err == nil || err.Error() != Rule {
			t.Errorf("Check(%d) = %v, want the rule", w, err)
		}
	}
}

// BenchmarkOverhead is one call of 8 empty tasks: what spreading costs
// over the loop on one goroutine (Threshold is far above it).
func BenchmarkOverhead(b *testing.B) {
	for _, w := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			p := New(w)
			var sink atomic.Int64
			for range b.N {
				p.Each(8, func(i int) { sink.Add(int64(i)) })
			}
		})
	}
}

// fakeFarm answers with err, counting its calls.
type fakeFarm struct {
	size, calls int
	err         error
}

func (f *fakeFarm) Size() int { return f.size }
func (f *fakeFarm) Grads([]farm.Task) error {
	f.calls++
	return f.err
}

// A farm takes a pool's gradient calls under an explicit count of two or
// more, and under Auto once a timed call reached Threshold (a farm's
// workers are the cores an Auto pool counts, under js/wasm too); one
// worker, one agent or a farm of one never use it. A farm still starting
// stays; one that failed is dropped, and Lost says why.
func TestFarm(t *testing.T) {
	f := &fakeFarm{size: 2}
	for _, tc := range []struct {
		workers, n int
		want       bool
	}{
		{1, 8, false}, {2, 8, true}, {4, 8, true}, {2, 1, false}, {Auto, 8, false},
	} {
		p := New(tc.workers)
		p.SetFarm(f)
		if got := p.Farmed(tc.n); got != tc.want {
			t.Errorf("workers %d, n %d: Farmed %v, want %v", tc.workers, tc.n, got, tc.want)
		}
	}
	var nilPool *Pool
	if nilPool.Farmed(8) || New(2).Farmed(8) {
		t.Error("a nil pool or one without a farm uses a farm")
	}
	if p := New(2); func() bool { p.SetFarm(&fakeFarm{size: 1}); return p.Farmed(8) }() {
		t.Error("a farm of one worker is used")
	}

	p := New(Auto)
	p.SetFarm(f)
	p.Each(4, func(int) { time.Sleep(Threshold) }) // the first call is timed
	if !p.Farmed(4) {
		t.Fatal("an Auto pool whose first call took Threshold does not use its farm")
	}
	if p.Serial() {
		t.Error("a pool with a farm is serial")
	}

	f.err = farm.ErrNotReady
	if p.Send(nil) || !p.Farmed(4) || p.Lost() != nil {
		t.Error("a farm still starting was dropped, or its call reported done")
	}
	f.err = errors.New("helper 1 stopped")
	if p.Send(nil) || p.Farmed(4) || p.Lost() != f.err {
		t.Errorf("a failed farm: Farmed %v, Lost %v", p.Farmed(4), p.Lost())
	}
	f.err = nil
	p = New(3)
	p.SetFarm(f)
	if !p.Send(nil) {
		t.Error("a farm's answer was not taken")
	}
}
