//go:build js && wasm

package ui

import (
	"dpsim/core/jsonout"
	"errors"
	"math"
	"syscall/js"
	"time"

	"dpsim/core/check"
	"dpsim/core/scenario"
	"dpsim/render/scene"
)

// LoadComparison parses and starts a comparison (docs/compare.md) with
// its own seed, viewing its first entry. On error nothing changes.
func (a *App) LoadComparison(text []byte) error {
	c, err := scenario.ParseComparison(text)
	if err != nil {
		return err
	}
	old := a.seed
	a.seed = -1
	if s := c.BaseScenario().Seed; s != nil {
		a.seed = int64(*s)
	}
	if err := a.loadCompare(c, 0); err != nil {
		a.seed = old
		return err
	}
	return nil
}

// loadCompare builds src (with the page's seed override) and makes it
// the page's comparison, viewing entry view (0 when out of range).
func (a *App) loadCompare(src *scenario.Comparison, view int) error {
	eff := src
	if a.seed >= 0 {
		b := src.BaseScenario().Clone()
		seed := uint64(a.seed)
		b.Seed, b.Seeds = &seed, nil
		eff = src.WithBase(b, src.Calibrate)
	}
	if err := a.checkData(eff.BaseScenario().Clone()); err != nil {
		return err
	}
	cb, err := scenario.BuildComparison(eff, scenario.Page)
	if err != nil {
		return err
	}
	cmp := NewCompare(src, eff, cb)
	if view < 0 || view >= len(cmp.Entries) {
		view = 0
	}
	cmp.View = view
	a.fast = false
	a.mountEntry(cmp, false)
	a.scen = src.BaseScenario()
	return nil
}

// mountEntry makes the comparison's viewed entry the page's run: the
// player paces it, the view animates its model. play resumes playback
// (a view switch during a run).
func (a *App) mountEntry(cmp *Compare, play bool) {
	e := cmp.Entries[cmp.View]
	a.stopRemote() // a comparison runs on the page's thread (ui/remote.go)
	player := scene.NewPlayer(e.Run)
	player.SetSpeed(a.speed)
	player.SetFast(a.fast)
	e.Model.Slow = a.slow
	a.built, a.run, a.player, a.live = e.Built, e.Run, player, e.Live
	a.ghost, a.ghostOf = nil, nil // the other entries are the curves to read
	a.loads++
	a.rate = rateMeter{}
	a.warnings = a.warnings[:0]
	for _, w := range e.Built.Warnings {
		a.warnings = append(a.warnings, w.String())
	}
	a.lastErr = ""
	a.game.Set(player, e.Model)
	a.cmp = cmp // after game.Set: install, which clears it, is not called here
	if play {
		player.Play()
	}
	a.publish()
}

// SwitchView makes entry i the one the view animates.
func (a *App) SwitchView(i int) error {
	if a.cmp == nil {
		return errors.New("no comparison is on")
	}
	if i < 0 || i >= len(a.cmp.Entries) {
		return check.Errorf("view", "must be an entry from 0 to %d (got %d)", len(a.cmp.Entries)-1, i)
	}
	if i == a.cmp.View {
		return nil
	}
	running := a.player != nil && a.player.Running()
	a.cmp.View = i
	a.cmp.Switches++
	a.mountEntry(a.cmp, running)
	return nil
}

// CalibrateAll calibrates every entry to ε = eps with its own
// accountant (eps = 0 or not a number: no calibration, not even the
// base's). An entry that cannot be calibrated runs uncalibrated and
// compareState names it with the reason. On error nothing changes.
func (a *App) CalibrateAll(eps float64) error {
	if a.cmp == nil {
		return errors.New("no comparison is on")
	}
	var cal *scenario.Calibrate
	if eps != 0 && !math.IsNaN(eps) {
		if !(eps > 0) || math.IsInf(eps, 0) {
			return check.Errorf("target ε", "must be a number > 0 (got %v)", eps)
		}
		cal = &scenario.Calibrate{Epsilon: eps}
	}
	base := a.cmp.Source.BaseScenario().Clone()
	base.Calibrate = nil
	return a.loadCompare(a.cmp.Source.WithBase(base, cal), a.cmp.View)
}

// StopComparing leaves the comparison: the page runs its base scenario.
func (a *App) StopComparing() error {
	if a.cmp == nil {
		return nil
	}
	base := a.cmp.Source.BaseScenario()
	a.cmp = nil
	return a.Load(base)
}

// compareFrame lets the followers catch up with the viewed entry, with
// the player's own budget in fast-forward, so that all advance together.
func (a *App) compareFrame() {
	if a.cmp == nil || a.run == nil {
		return
	}
	budget := 3 * time.Millisecond
	if a.fast {
		budget = scene.FastBudget
	}
	a.cmp.CatchUp(a.run.Iter(), budget)
}

// histRev is the plot's history revision: the viewed run's, plus the
// comparison's progress.
func (a *App) histRev() int {
	if a.live == nil {
		return 0
	}
	r := a.live.Revision()
	if a.cmp != nil {
		r += a.cmp.Progress()
	}
	return r
}

// compareHistory adds to the history object, when a comparison is on,
// "compare": one array per entry of its headline metric at the
// history's iterations, and "compareLabels".
func (a *App) compareHistory(o js.Value, it, opt, stat []float64) {
	if a.cmp == nil {
		return
	}
	head := opt
	if stat != nil {
		head = stat
	}
	arr := js.Global().Get("Array").New()
	for _, col := range a.cmp.At(it, head, stat != nil) {
		arr.Call("push", float64sToJS(col))
	}
	o.Set("compare", arr)
}

// registerCompare adds the comparison calls to window.dpsim
// (docs/compare.md): loadComparison(json), comparisonJSON() ("" when
// none), compareState() (JSON of CompareView, "" when none),
// compareView(i), calibrateAll(eps), compareStop(), and
// compareCandidates() (JSON of the candidates for the scenario on
// screen, CompareCandidatesOn; null while the Worker that runs it has
// not answered).
func (a *App) registerCompare(fn func(name string, f func(args []js.Value) any)) {
	fn("loadComparison", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return a.result(errors.New("loadComparison needs the comparison's JSON text"))
		}
		return a.result(a.LoadComparison([]byte(args[0].String())))
	})
	fn("comparisonJSON", func([]js.Value) any {
		if a.cmp == nil {
			return ""
		}
		return string(a.cmp.Cmp.JSON())
	})
	fn("compareState", func([]js.Value) any {
		if a.cmp == nil {
			return ""
		}
		out, err := jsonout.Marshal(a.cmp.Report())
		if err != nil {
			return ""
		}
		return string(out)
	})
	fn("compareView", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeNumber {
			return a.result(check.Errorf("view", "needs an entry number"))
		}
		return a.result(a.SwitchView(args[0].Int()))
	})
	fn("calibrateAll", func(args []js.Value) any {
		eps := 0.0
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			eps = args[0].Float()
		}
		return a.result(a.CalibrateAll(eps))
	})
	fn("compareStop", func([]js.Value) any { return a.result(a.StopComparing()) })
	fn("compareCandidates", func([]js.Value) any {
		var base *scenario.Scenario
		remote := a.rem != nil && len(a.rem.head.Scenario) > 0
		switch {
		case remote:
			// A run computed in a Worker: the page holds no build of it.
			p, err := scenario.Parse(a.rem.head.Scenario)
			if err != nil {
				return "[]"
			}
			base = p
		case a.built != nil:
			base = a.built.Scenario
		default:
			return "[]"
		}
		return a.cands.get(base, func() (string, bool) {
			cs, final := CompareCandidatesOn(base, remote, a.rem.candidates)
			if !final {
				return "null", false // the Worker has not answered yet: ask again
			}
			out, err := jsonout.Marshal(cs)
			if err != nil {
				return "[]", false
			}
			return string(out), true
		})
	})
}
