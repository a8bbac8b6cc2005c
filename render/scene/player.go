package scene

import (
	"errors"
	"math"
	"time"

	"dpsim/core/sim"
)

// Stepper is what the Player drives: one call runs one iteration. An error
// means the run cannot go on (it is done or it diverged); the Player then
// stops and keeps the error for display — except ErrPending, which says
// the next step is not here yet (a run computed in a Web Worker): the
// Player keeps what it owes and asks again on its next Update.
type Stepper interface {
	Advance() (*sim.Step, error)
}

// ErrPending is what a Stepper returns when its next step is still being
// computed elsewhere.
var ErrPending = errors.New("the next step is not computed yet")

// Speed limits, in iterations per second.
const (
	MinSpeed = 0.25
	MaxSpeed = 2000
	// AnimSpeed is the highest speed at which one iteration's packets
	// travel their edge during exactly that iteration's time slot. Above
	// it the packets of the latest iteration are drawn at a phase that
	// cycles at CyclePerSecond, so the motion stays visible.
	AnimSpeed = 20
	// CyclePerSecond is the phase frequency above AnimSpeed.
	CyclePerSecond = 1.25
	// Backlog bounds the iterations owed, in seconds of play: after a
	// stall the player catches up at most this much.
	Backlog = 0.25
	// StepOnceDuration is how long the packets of a single step (StepOnce)
	// take to travel, at most.
	StepOnceDuration = 600 * time.Millisecond
	// FastBudget is the wall-clock time an Update spends running
	// iterations in fast-forward, which ignores the speed and runs as many
	// iterations as fit: long enough to amortise a frame, short enough that
	// no task comes near 100 ms.
	FastBudget = 8 * time.Millisecond
)

// Player is the playback logic, independent of drawing: it owes
// iterations at the chosen speed, runs them within a wall-clock budget,
// passes every step to its recorders, and tracks the animation phase of
// the latest iteration.
//
// Playback is deterministic given the sequence of dt values passed to
// Update (the budget only decides how much of the owed work is done now).
type Player struct {
	stepper   Stepper
	recorders []sim.Recorder

	speed   float64
	fast    bool // fast-forward: as many iterations as fit in FastBudget
	running bool
	owed    float64 // iterations due but not yet run
	steps   int
	err     error

	phase   float64 // animation phase of the latest iteration, in [0, 1]
	cycle   float64 // free-running phase at high speed
	oneshot float64 // StepOnce: seconds of animation left (< 0: none)
	slow    float64 // slow motion: seconds per iteration (0: off)

	now func() time.Time // the clock for the budget (tests replace it)

	fastBudget time.Duration // fast-forward's budget per Update (0: FastBudget)

	pending bool // the last Advance found its step pending (ErrPending)
}

// SetFastBudget sets the wall-clock time a fast-forward Update spends on
// iterations; d ≤ 0 restores FastBudget. A FramePacer chooses it when the
// frame rate matters more than the iterations per second.
func (p *Player) SetFastBudget(d time.Duration) { p.fastBudget = max(0, d) }

// NewPlayer returns a paused player at 10 iterations per second that
// passes every step it runs to recs, in order. It does not record the
// run's initial step: the caller records it before playing.
func NewPlayer(s Stepper, recs ...sim.Recorder) *Player {
	return &Player{stepper: s, recorders: recs, speed: 10, phase: 1, oneshot: -1, now: time.Now}
}

// AddRecorder appends r to the recorders.
func (p *Player) AddRecorder(r sim.Recorder) { p.recorders = append(p.recorders, r) }

// Play starts or resumes playback. The first iteration is due at once.
// It does nothing once the stepper has failed.
func (p *Player) Play() {
	if p.err != nil || p.running {
		return
	}
	p.running = true
	p.oneshot = -1
	p.owed = max(p.owed, 1)
}

// Pause stops playback; owed iterations are dropped.
func (p *Player) Pause() {
	p.running = false
	p.owed = 0
}

// StepOnce pauses and runs exactly one iteration, whose packets then
// travel over min(1/speed, StepOnceDuration).
func (p *Player) StepOnce() {
	p.Pause()
	if p.err != nil {
		return
	}
	if p.advance() {
		p.phase = 0
		p.oneshot = min(1/p.speed, StepOnceDuration.Seconds())
		if p.slow > 0 {
			p.oneshot = p.slow
		}
	}
}

// SetSlow sets slow motion: each iteration's packets then take sec
// seconds of wall-clock time, whatever the speed (sec ≤ 0 turns it off).
// The caller sizes sec to the step's turns (Model.Groups), so that each
// sender's messages travel for over a second.
func (p *Player) SetSlow(sec float64) {
	if !(sec > 0) || math.IsInf(sec, 0) {
		sec = 0
	}
	p.slow = sec
	p.owed = min(p.owed, p.maxOwed())
}

// Slow returns the seconds per iteration of slow motion, 0 when off.
func (p *Player) Slow() float64 { return p.slow }

// rate is the iterations per second playback owes: the speed, or one
// per slow-motion duration.
func (p *Player) rate() float64 {
	if p.slow > 0 {
		return 1 / p.slow
	}
	return p.speed
}

// SetSpeed sets the speed in iterations per second, clamped to
// [MinSpeed, MaxSpeed]; NaN is ignored.
func (p *Player) SetSpeed(itersPerSec float64) {
	if math.IsNaN(itersPerSec) {
		return
	}
	p.speed = min(MaxSpeed, max(MinSpeed, itersPerSec))
	p.owed = min(p.owed, p.maxOwed())
}

// SetFast turns fast-forward on or off. While on, each Update runs as many
// iterations as fit in FastBudget, whatever the speed, and the packets of
// the latest iteration cycle like at high speed.
func (p *Player) SetFast(on bool) {
	p.fast = on
	if !on {
		p.owed = min(p.owed, p.maxOwed())
	}
}

// Fast reports whether fast-forward is on.
func (p *Player) Fast() bool { return p.fast }

// Speed returns the speed in iterations per second.
func (p *Player) Speed() float64 { return p.speed }

// Running reports whether the player is playing.
func (p *Player) Running() bool { return p.running }

// Steps returns the number of iterations the player has run.
func (p *Player) Steps() int { return p.steps }

// Pending reports whether the last step asked for was not computed yet
// (the stepper said ErrPending).
func (p *Player) Pending() bool { return p.pending }

// Err returns the error that stopped the run, or nil.
func (p *Player) Err() error { return p.err }

// Phase returns the animation phase of the latest iteration's packets in
// [0, 1]: 0 at their senders, 1 at their receivers.
func (p *Player) Phase() float64 { return p.phase }

// maxOwed bounds the backlog: speed·Backlog iterations, but at least 2 so
// that at frame rates below the speed the fractional progress (the phase)
// survives the cap.
func (p *Player) maxOwed() float64 { return max(2, p.rate()*Backlog) }

// Update advances playback by dt of wall-clock time. While playing it owes
// dt·speed more iterations (at most max(2, speed·Backlog)) and runs the whole ones, stopping early once budget of
// wall-clock time is used; at least one owed iteration runs per call, so a
// zero budget still makes progress. Negative dt counts as zero.
func (p *Player) Update(dt, budget time.Duration) {
	sec := max(0, dt.Seconds())
	p.cycle = math.Mod(p.cycle+float64(sec*CyclePerSecond), 1)
	if !p.running {
		if p.oneshot > 0 {
			p.phase = min(1, p.phase+sec/p.oneshot)
			if p.phase >= 1 {
				p.oneshot = -1
			}
		}
		return
	}
	if p.fast && p.slow <= 0 {
		// Owe exactly what the budget can run; reading the clock every
		// few iterations keeps its cost out of cheap iterations.
		budget = max(budget, FastBudget)
		if p.fastBudget > 0 {
			budget = p.fastBudget
		}
		start := p.now()
		dear := false // iterations cost over budget/8: read the clock after each
		for ran := 0; p.running; ran++ {
			if ran > 0 && (ran&7 == 0 || dear) && p.now().Sub(start) >= budget {
				break
			}
			if !p.advance() {
				break
			}
			if ran == 0 {
				// On a large network one iteration takes milliseconds:
				// eight of them before the first look at the clock would
				// make a long task of every frame.
				dear = p.now().Sub(start) >= budget/8
			}
		}
		p.owed = 0
		if p.running {
			p.phase = p.cycle
		}
		return
	}
	p.owed = min(p.owed+float64(sec*p.rate()), p.maxOwed())
	start := p.now()
	for ran := 0; p.owed >= 1 && p.running; ran++ {
		if ran > 0 && p.now().Sub(start) >= budget {
			break
		}
		p.owed--
		if !p.advance() {
			if p.pending {
				p.owed++ // still owed: it comes with the next step
			}
			break
		}
	}
	if !p.running { // the stepper failed: keep the picture as it was
		return
	}
	if p.rate() <= AnimSpeed {
		// The fraction of the current iteration's slot that has elapsed;
		// a backlog (owed ≥ 1) leaves the packets at their receivers.
		p.phase = min(1, max(0, p.owed))
	} else {
		p.phase = p.cycle
	}
}

// advance runs one iteration and records it; it reports false (and stops
// playback) when the stepper fails, or false alone when its next step is
// pending.
func (p *Player) advance() bool {
	s, err := p.stepper.Advance()
	p.pending = errors.Is(err, ErrPending)
	if p.pending {
		return false
	}
	if err != nil {
		p.err = err
		p.running = false
		p.owed = 0
		return false
	}
	p.steps++
	if s != nil {
		for _, r := range p.recorders {
			r.Record(s)
		}
	}
	return true
}

// FramePacer sizes fast-forward's iteration budget so that frames keep
// coming at a target rate: while the frames (smoothed) come slower than
// Target it shrinks the budget, down to Min; while they come faster it
// grows it back, up to FastBudget. Where drawing is cheap (a real GPU) the
// budget stays at FastBudget; under a software GPU, where drawing a large
// network takes most of a frame, the iterations yield to the frames.
type FramePacer struct {
	Target, Min time.Duration

	budget time.Duration
	period float64 // smoothed frame period, seconds (0: none yet)
}

// Budget returns the budget for the next Update, given the time since the
// previous one (0 for the first).
func (f *FramePacer) Budget(dt time.Duration) time.Duration {
	if f.budget == 0 {
		f.budget = FastBudget
	}
	if s := dt.Seconds(); s > 0 && s < 1 { // a pause or a hidden tab says nothing
		if f.period == 0 {
			f.period = s
		} else {
			f.period += float64(0.25 * (s - f.period))
		}
		switch t := f.Target.Seconds(); {
		case f.period > 1.03*t:
			f.budget = time.Duration(0.85 * float64(f.budget))
		case f.period < 0.93*t:
			f.budget = time.Duration(1.1 * float64(f.budget))
		}
	}
	f.budget = min(FastBudget, max(f.Min, f.budget))
	return f.budget
}

// Reset forgets the frame rate measured so far (a new scenario, or the
// end of fast-forward).
func (f *FramePacer) Reset() { f.budget, f.period = 0, 0 }
