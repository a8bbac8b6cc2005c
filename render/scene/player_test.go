package scene

import (
	"errors"
	"math"
	"testing"
	"time"

	"dpsim/core/sim"
)

// fakeStepper counts iterations, optionally fails after failAt of them and
// optionally advances a fake clock by cost per iteration.
type fakeStepper struct {
	n      int
	failAt int // 0: never
	clock  *time.Time
	cost   time.Duration
	step   sim.Step
}

var errDone = errors.New("done")

func (f *fakeStepper) Advance() (*sim.Step, error) {
	if f.failAt > 0 && f.n >= f.failAt {
		return nil, errDone
	}
	f.n++
	if f.clock != nil {
		*f.clock = f.clock.Add(f.cost)
	}
	f.step = sim.Step{Iter: f.n, Dim: 1, Estimates: []float64{float64(f.n)}}
	return &f.step, nil
}

type iterLog struct{ iters []int }

func (l *iterLog) Record(s *sim.Step) { l.iters = append(l.iters, s.Iter) }

const ms = time.Millisecond

func newTestPlayer(f *fakeStepper, recs ...sim.Recorder) *Player {
	p := NewPlayer(f, recs...)
	clock := time.Unix(0, 0)
	f.clock = &clock
	p.now = func() time.Time { return clock }
	return p
}

func TestSpeedClamp(t *testing.T) {
	p := NewPlayer(&fakeStepper{})
	for _, c := range []struct{ in, want float64 }{
		{0, MinSpeed}, {-5, MinSpeed}, {0.1, MinSpeed}, {1, 1}, {37.5, 37.5},
		{2000, 2000}, {1e9, MaxSpeed}, {math.Inf(1), MaxSpeed}, {math.Inf(-1), MinSpeed},
	} {
		p.SetSpeed(c.in)
		if p.Speed() != c.want {
			t.Errorf("SetSpeed(%v): speed %v, want %v", c.in, p.Speed(), c.want)
		}
	}
	p.SetSpeed(3)
	p.SetSpeed(math.NaN())
	if p.Speed() != 3 {
		t.Errorf("NaN changed the speed to %v", p.Speed())
	}
}

func TestPausedPlayerDoesNothing(t *testing.T) {
	f := &fakeStepper{}
	p := newTestPlayer(f)
	for range 10 {
		p.Update(time.Second, time.Hour)
	}
	if f.n != 0 || p.Steps() != 0 || p.Running() {
		t.Fatalf("paused player ran %d steps", f.n)
	}
}

func TestPlayAtSpeed(t *testing.T) {
	f := &fakeStepper{}
	log := &iterLog{}
	p := newTestPlayer(f, log)
	p.SetSpeed(10)
	p.Play()
	if !p.Running() {
		t.Fatal("not running after Play")
	}
	p.Update(0, 6*ms) // the first iteration is due at once
	if p.Steps() != 1 {
		t.Fatalf("after Play and a zero dt: %d steps, want 1", p.Steps())
	}
	// 10 it/s for 2 s in 20 ms frames: 20 more iterations.
	for range 100 {
		p.Update(20*ms, time.Hour)
	}
	if p.Steps() != 21 {
		t.Errorf("steps %d, want 21", p.Steps())
	}
	if len(log.iters) != 21 || log.iters[0] != 1 || log.iters[20] != 21 {
		t.Errorf("recorder saw %v", log.iters)
	}
	p.Pause()
	p.Update(time.Second, time.Hour)
	if p.Running() || p.Steps() != 21 {
		t.Errorf("after Pause: running %v, steps %d", p.Running(), p.Steps())
	}
}

func TestBudgetStopsEarlyButProgresses(t *testing.T) {
	f := &fakeStepper{cost: ms}
	p := newTestPlayer(f)
	p.SetSpeed(2000)
	p.Play()
	p.Update(16*ms, 6*ms) // 33 due; each costs 1 ms of the 6 ms budget
	if p.Steps() != 6 {
		t.Errorf("steps within a 6 ms budget at 1 ms each: %d, want 6", p.Steps())
	}
	// A zero budget still runs one iteration per Update when one is due.
	before := p.Steps()
	for range 5 {
		p.Update(0, 0)
	}
	if got := p.Steps() - before; got != 5 {
		t.Errorf("zero budget: %d steps in 5 updates, want 5", got)
	}
	// A negative budget behaves like zero.
	p.Update(0, -time.Second)
	if got := p.Steps() - before; got != 6 {
		t.Errorf("negative budget: %d steps, want 6", got)
	}
}

func TestBacklogIsBounded(t *testing.T) {
	f := &fakeStepper{}
	p := newTestPlayer(f)
	p.SetSpeed(100)
	p.Play()
	p.Update(10*time.Second, time.Hour) // a long stall
	if want := int(100 * Backlog); p.Steps() != want {
		t.Errorf("after a 10 s stall: %d steps, want the cap %d", p.Steps(), want)
	}
	// A stall with a small budget leaves a backlog that stays bounded.
	f2 := &fakeStepper{cost: ms}
	p2 := newTestPlayer(f2)
	p2.SetSpeed(2000)
	p2.Play()
	for range 50 {
		p2.Update(time.Second, 2*ms)
	}
	if p2.owed > p2.maxOwed() {
		t.Errorf("owed %v exceeds the cap %v", p2.owed, p2.maxOwed())
	}
	if p2.Steps() != 100 {
		t.Errorf("50 updates with a 2 ms budget at 1 ms per step: %d steps, want 100", p2.Steps())
	}
	// Lowering the speed shrinks the backlog.
	p2.SetSpeed(1)
	if p2.owed > 2 {
		t.Errorf("owed %v after slowing to 1 it/s", p2.owed)
	}
}

func TestStepOnce(t *testing.T) {
	f := &fakeStepper{}
	p := newTestPlayer(f)
	p.SetSpeed(100)
	p.Play()
	p.Update(0, time.Hour)
	p.StepOnce()
	if p.Running() {
		t.Fatal("StepOnce left the player running")
	}
	if p.Steps() != 2 {
		t.Fatalf("steps %d, want 2", p.Steps())
	}
	if p.Phase() != 0 {
		t.Errorf("phase %v right after StepOnce, want 0", p.Phase())
	}
	// At 100 it/s the step animates over 10 ms; no further steps.
	p.Update(5*ms, time.Hour)
	if math.Abs(p.Phase()-0.5) > 1e-9 {
		t.Errorf("phase %v half-way, want 0.5", p.Phase())
	}
	p.Update(time.Second, time.Hour)
	if p.Phase() != 1 || p.Steps() != 2 {
		t.Errorf("after the animation: phase %v, steps %d", p.Phase(), p.Steps())
	}
	// At low speed the single step takes StepOnceDuration, not 1/speed.
	p.SetSpeed(0.25)
	p.StepOnce()
	p.Update(StepOnceDuration/2, time.Hour)
	if math.Abs(p.Phase()-0.5) > 1e-9 || p.Steps() != 3 {
		t.Errorf("slow StepOnce half-way: phase %v, steps %d", p.Phase(), p.Steps())
	}
}

func TestPhaseSurvivesLowFrameRate(t *testing.T) {
	// 3 it/s drawn at about 2.3 frames per second: the phase still moves.
	p := newTestPlayer(&fakeStepper{})
	p.SetSpeed(3)
	p.Play()
	seen := map[int]bool{}
	for range 30 {
		p.Update(430*ms, time.Hour)
		seen[int(p.Phase()*4)] = true
	}
	if len(seen) < 3 {
		t.Errorf("the phase took only %d quarter values", len(seen))
	}
	if p.Steps() < 38 || p.Steps() > 40 {
		t.Errorf("%d steps in 12.9 s at 3 it/s", p.Steps())
	}
}

func TestPhaseAtLowSpeed(t *testing.T) {
	f := &fakeStepper{}
	p := newTestPlayer(f)
	p.SetSpeed(2)
	p.Play()
	p.Update(0, time.Hour)
	if p.Steps() != 1 || p.Phase() != 0 {
		t.Fatalf("steps %d phase %v, want 1 and 0", p.Steps(), p.Phase())
	}
	p.Update(250*ms, time.Hour)
	if p.Steps() != 1 || math.Abs(p.Phase()-0.5) > 1e-9 {
		t.Errorf("quarter second at 2 it/s: steps %d phase %v", p.Steps(), p.Phase())
	}
	p.Update(250*ms, time.Hour)
	if p.Steps() != 2 || math.Abs(p.Phase()) > 1e-9 {
		t.Errorf("half second at 2 it/s: steps %d phase %v", p.Steps(), p.Phase())
	}
	// Pausing freezes the phase.
	p.Update(100*ms, time.Hour)
	ph := p.Phase()
	p.Pause()
	p.Update(time.Second, time.Hour)
	if p.Phase() != ph {
		t.Errorf("phase moved while paused: %v → %v", ph, p.Phase())
	}
}

func TestPhaseCyclesAtHighSpeed(t *testing.T) {
	f := &fakeStepper{}
	p := newTestPlayer(f)
	p.SetSpeed(500)
	p.Play()
	seen := map[int]bool{}
	prev := -1.0
	wraps := 0
	for range 100 {
		p.Update(20*ms, time.Hour)
		ph := p.Phase()
		if ph < 0 || ph > 1 {
			t.Fatalf("phase %v out of [0,1]", ph)
		}
		if ph < prev {
			wraps++
		}
		prev = ph
		seen[int(ph*10)] = true
	}
	// 2 s at CyclePerSecond = 1.25: the phase wraps twice and visits
	// every tenth of [0, 1].
	if wraps != 2 || len(seen) != 10 {
		t.Errorf("phase wrapped %d times and visited %d tenths", wraps, len(seen))
	}
	if p.Steps() != 1001 {
		t.Errorf("steps %d, want 1001", p.Steps())
	}
}

func TestErrorStopsAndSticks(t *testing.T) {
	f := &fakeStepper{failAt: 3}
	log := &iterLog{}
	p := newTestPlayer(f, log)
	p.SetSpeed(100)
	p.Play()
	p.Update(time.Second, time.Hour)
	if p.Running() || !errors.Is(p.Err(), errDone) {
		t.Fatalf("running %v err %v", p.Running(), p.Err())
	}
	if p.Steps() != 3 || len(log.iters) != 3 {
		t.Errorf("steps %d, recorded %d, want 3", p.Steps(), len(log.iters))
	}
	p.Play()
	p.StepOnce()
	p.Update(time.Second, time.Hour)
	if p.Running() || p.Steps() != 3 {
		t.Errorf("a failed player resumed: running %v steps %d", p.Running(), p.Steps())
	}
}

func TestDeterministicGivenDts(t *testing.T) {
	dts := []time.Duration{0, 16 * ms, 17 * ms, 3 * ms, 250 * ms, 16 * ms, 0, 40 * ms, 16 * ms, 16 * ms}
	run := func() (int, []float64) {
		p := newTestPlayer(&fakeStepper{})
		p.SetSpeed(7)
		p.Play()
		var ph []float64
		for k := range 30 {
			p.Update(dts[k%len(dts)], time.Hour)
			ph = append(ph, p.Phase())
		}
		return p.Steps(), ph
	}
	n1, ph1 := run()
	n2, ph2 := run()
	if n1 != n2 {
		t.Fatalf("steps %d vs %d", n1, n2)
	}
	for i := range ph1 {
		if ph1[i] != ph2[i] {
			t.Fatalf("phase %d: %v vs %v", i, ph1[i], ph2[i])
		}
	}
}

// Fast-forward runs as many iterations as fit in FastBudget per Update,
// whatever the speed, stops at a failure, and goes back to the paced
// speed when turned off.
func TestFastForward(t *testing.T) {
	f := &fakeStepper{cost: 100 * time.Microsecond}
	p := newTestPlayer(f)
	p.SetSpeed(1)
	p.SetFast(true)
	p.Play()
	p.Update(16*ms, 6*ms)
	// 8 ms at 0.1 ms each, the clock read every 8 iterations.
	if f.n < 80 || f.n > 88 {
		t.Fatalf("one fast Update ran %d iterations, want about 80", f.n)
	}
	if ph := p.Phase(); ph < 0 || ph > 1 {
		t.Errorf("phase %v", ph)
	}
	p.SetFast(false)
	n := f.n
	p.Update(500*ms, 6*ms) // 1 it/s: half an iteration owed
	if f.n-n > 1 {
		t.Errorf("after fast-forward, a paced Update ran %d iterations at 1 it/s", f.n-n)
	}
	f2 := &fakeStepper{cost: time.Microsecond, failAt: 50}
	p2 := newTestPlayer(f2)
	p2.SetFast(true)
	p2.Play()
	p2.Update(16*ms, 6*ms)
	if f2.n != 50 || p2.Running() || p2.Err() == nil {
		t.Errorf("fast-forward past a failure: %d iterations, running %v, err %v", f2.n, p2.Running(), p2.Err())
	}
}

// TestSlowMotion checks that slow motion paces one iteration per slow
// duration, whatever the speed and fast-forward, with the phase moving
// through the iteration's slot, and that StepOnce animates for the whole
// duration.
func TestSlowMotion(t *testing.T) {
	f := &fakeStepper{}
	p := newTestPlayer(f)
	p.SetSpeed(MaxSpeed)
	p.SetFast(true)
	p.SetSlow(4)
	p.Play()
	p.Update(0, time.Second) // the first iteration is due at once
	for _, c := range []struct {
		dt    time.Duration
		steps int
		phase float64
	}{
		{1000 * ms, 1, 0.25},
		{1000 * ms, 1, 0.5},
		{1000 * ms, 1, 0.75},
		{1500 * ms, 2, 0.125},
	} {
		p.Update(c.dt, time.Second)
		if p.Steps() != c.steps || math.Abs(p.Phase()-c.phase) > 1e-9 {
			t.Errorf("after %v: steps %d phase %v, want %d and %v", c.dt, p.Steps(), p.Phase(), c.steps, c.phase)
		}
	}
	p.StepOnce()
	p.Update(2*time.Second, time.Second)
	if math.Abs(p.Phase()-0.5) > 1e-9 {
		t.Errorf("StepOnce in slow motion: phase %v after 2 s of 4, want 0.5", p.Phase())
	}
	p.SetSlow(0)
	if p.Slow() != 0 {
		t.Error("SetSlow(0) did not turn slow motion off")
	}
}

// TestFastDearIterations checks that fast-forward stops at its budget
// when each iteration is dear (a large network): 3 ms iterations and an
// 8 ms budget run 3 iterations a frame, not the 8 a clock read every
// eighth iteration would allow.
func TestFastDearIterations(t *testing.T) {
	f := &fakeStepper{cost: 3 * ms}
	p := newTestPlayer(f)
	p.SetFast(true)
	p.Play()
	p.Update(16*ms, 0)
	if f.n != 3 {
		t.Errorf("%d iterations of 3 ms in an 8 ms budget, want 3", f.n)
	}
}

// The pacer gives fast-forward what a frame leaves of the target period:
// all of FastBudget when drawing is cheap, less when it is dear, Min when
// even that cannot reach the target; and a set budget is what a fast
// Update spends.
func TestFramePacer(t *testing.T) {
	const target = 33 * ms
	for _, c := range []struct {
		draw   time.Duration // a frame's cost besides the iterations
		lo, hi time.Duration // where the budget settles
	}{
		{5 * ms, FastBudget, FastBudget},
		{28 * ms, 3 * ms, 6 * ms},
		{45 * ms, 2 * ms, 2 * ms},
	} {
		f := FramePacer{Target: target, Min: 2 * ms}
		b := f.Budget(0)
		for range 200 {
			b = f.Budget(c.draw + b)
		}
		if b < c.lo || b > c.hi {
			t.Errorf("drawing %v: budget settles at %v, want in [%v, %v]", c.draw, b, c.lo, c.hi)
		}
	}
	fs := &fakeStepper{cost: 100 * time.Microsecond}
	p := newTestPlayer(fs)
	p.SetFast(true)
	p.SetFastBudget(2 * ms)
	p.Play()
	p.Update(16*ms, 6*ms)
	if fs.n < 20 || fs.n > 28 {
		t.Errorf("a fast Update with a 2 ms budget ran %d iterations of 0.1 ms, want about 20", fs.n)
	}
}

// pendingStepper has a step only when ready is above zero (a run computed
// in a Worker), and says ErrPending otherwise.
type pendingStepper struct {
	fakeStepper
	ready int
}

func (p *pendingStepper) Advance() (*sim.Step, error) {
	if p.ready <= 0 {
		return nil, ErrPending
	}
	p.ready--
	return p.fakeStepper.Advance()
}

// TestPendingSteps: a step that is not computed yet neither stops the
// player nor is lost: the iteration stays owed and runs when the step
// comes, in order; in fast-forward the frame ends at once.
func TestPendingSteps(t *testing.T) {
	st := &pendingStepper{}
	log := &iterLog{}
	p := NewPlayer(st, log)
	p.SetSpeed(10)
	p.Play()
	p.Update(100*ms, time.Second) // one owed, none here
	if !p.Running() || p.Err() != nil || len(log.iters) != 0 || !p.Pending() {
		t.Fatalf("pending: running %v, err %v, ran %v, pending %v", p.Running(), p.Err(), log.iters, p.Pending())
	}
	st.ready = 5
	p.Update(100*ms, time.Second) // the owed one and the new one
	if len(log.iters) != 2 || log.iters[1] != 2 || p.Pending() {
		t.Fatalf("after the steps came: ran %v, pending %v", log.iters, p.Pending())
	}
	p.SetFast(true)
	p.Update(10*ms, time.Second) // runs the three left, then finds none
	if len(log.iters) != 5 || p.Err() != nil || !p.Running() {
		t.Fatalf("fast-forward: ran %v, err %v", log.iters, p.Err())
	}
	p.SetFast(false)
	p.Pause()
	p.StepOnce() // nothing to step: nothing happens, no error
	if len(log.iters) != 5 || p.Err() != nil || !p.Pending() {
		t.Fatalf("step with none pending: ran %v, err %v", log.iters, p.Err())
	}
}
