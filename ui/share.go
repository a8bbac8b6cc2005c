//go:build js && wasm

package ui

import (
	"dpsim/core/jsonout"
	"encoding/json"
	"syscall/js"
	"time"

	"dpsim/core/check"
	"dpsim/core/scenario"
	"dpsim/ui/query"
)

// share is what the page's share panel (public/share.js) needs from the
// URL the page was opened with: the URL's errors, to show where no hidden
// part hides them, and a comparison to hand to dpsim.loadComparison once
// the page can.
type share struct {
	errs    []string
	compare string
}

// applyRun applies the URL's description of the run, in the order of
// query.Keys: the scenario, comparison or preset; its seed; its target ε.
// A scenario or preset whose datasets the page has not fetched yet is
// left to the page, with its seed and ε (dpsim.deferredQuery).
func (a *App) applyRun(q query.Params, errs []error) []error {
	var s *scenario.Scenario
	switch {
	case q.Scenario != nil:
		var err error
		if s, err = scenario.Parse(q.Scenario); err != nil {
			return append(errs, check.Errorf("URL parameter scenario", "%v", err))
		}
	case q.Preset != "":
		var err error
		if s, err = scenario.PresetScenario(q.Preset); err != nil {
			return append(errs, check.Errorf("URL parameter preset", "%v", err))
		}
	case q.Compare != nil:
		// The comparison carries its own scenario, seeds and ε.
		a.share.compare = string(q.Compare)
		if q.Seed != nil {
			errs = append(errs, check.Errorf("URL parameter seed", "does not apply to a comparison: it carries its own seeds"))
		}
		if q.Epsilon != nil {
			errs = append(errs, check.Errorf("URL parameter epsilon", "does not apply to a comparison: calibrate it in the comparison"))
		}
		return errs
	}
	if s != nil && len(a.needs(s).Need) > 0 {
		// The page fetches the datasets, then loads the run, its seed
		// and its ε.
		a.deferred = &deferredQuery{Preset: q.Preset, Scenario: string(q.Scenario), Seed: q.Seed, Epsilon: q.Epsilon}
		return errs
	}
	if s != nil {
		if err := a.loadNew(s); err != nil {
			key := "preset"
			if q.Scenario != nil {
				key = "scenario"
			}
			return append(errs, check.Errorf("URL parameter "+key, "%v", err))
		}
	}
	if q.Seed != nil {
		if err := a.SetSeed(float64(*q.Seed)); err != nil {
			errs = append(errs, check.Errorf("URL parameter seed", "%v", err))
		}
	}
	if q.Epsilon != nil {
		if err := a.Calibrate(*q.Epsilon); err != nil {
			errs = append(errs, check.Errorf("URL parameter epsilon", "%v", err))
		}
	}
	return errs
}

// linkParams describes the current run for a link (LinkParams).
func (a *App) linkParams() query.Params {
	if a.rem != nil {
		return LinkParams(a.scen, a.seed, a.rem.pinned())
	}
	if a.built == nil {
		return query.Params{}
	}
	return LinkParams(a.scen, a.seed, a.built.Scenario)
}

// viewParams are the view's parameters the page keeps in its link
// (share.js): what the page was opened with, and a comparison if one is
// on.
type viewParams struct {
	Compare    string   `json:"compare"`
	Speed      *float64 `json:"speed"`
	Hide       []string `json:"hide"`
	Classroom  bool     `json:"classroom"`
	Experiment string   `json:"experiment"`
}

// restored is what dpsim.restoreTo returns.
type restored struct {
	Iter int `json:"iter"`
	// Ended says why the run stopped short of the iteration asked for
	// ("" when it got there, or ran out of time: see Timeout).
	Ended   string `json:"ended,omitempty"`
	Timeout bool   `json:"timeout,omitempty"`
}

// restoreTo replays the current run, paused, to iteration k — the same
// steps playback would take, so the same trace — for at most budget; the
// view shows where it got.
func (a *App) restoreTo(k int, budget time.Duration) restored {
	if a.next != nil {
		// Still being built in a Worker: replayed there once built.
		a.next.target = k
		return restored{Iter: k}
	}
	if a.rem != nil {
		return a.rem.restore(k)
	}
	if a.run == nil {
		return restored{Ended: "no scenario is loaded"}
	}
	a.player.Pause()
	start := time.Now()
	var r restored
	for a.run.Iter() < k {
		if a.run.Done() || a.player.Err() != nil {
			break
		}
		if time.Since(start) > budget {
			r.Timeout = true
			break
		}
		a.player.StepOnce()
	}
	r.Iter = a.run.Iter()
	if r.Iter < k && !r.Timeout {
		r.Ended, _ = Status(a.run, false, a.live)
		if why := a.run.Err(); why != nil {
			r.Ended += ": " + why.Error()
		}
	}
	a.publish()
	return r
}

// registerShare adds the share calls to window.dpsim (docs/url.md).
func (a *App) registerShare(fn func(name string, f func(args []js.Value) any)) {
	// shareLink(viewJSON) returns the query string ("?…") that reproduces
	// the current run with the given view parameters.
	fn("shareLink", func(args []js.Value) any {
		var v viewParams
		if len(args) > 0 && args[0].Type() == js.TypeString {
			if err := json.Unmarshal([]byte(args[0].String()), &v); err != nil {
				a.lastErr = "shareLink: " + err.Error()
				return ""
			}
		}
		p := a.linkParams()
		if v.Compare != "" {
			p = query.Params{Compare: []byte(v.Compare)}
		}
		p.Speed, p.Hide, p.Classroom, p.Experiment = v.Speed, v.Hide, v.Classroom, v.Experiment
		return query.Link(p)
	})
	// shareErrors returns the URL's errors as a JSON array of lines.
	fn("shareErrors", func([]js.Value) any {
		out, _ := jsonout.Marshal(append([]string{}, a.share.errs...))
		return string(out)
	})
	// sharePending returns, once, the URL's comparison ("" if none).
	fn("sharePending", func([]js.Value) any {
		c := a.share.compare
		a.share.compare = ""
		return c
	})
	// shareParts returns query.Parts as JSON: the names ?hide= takes.
	fn("shareParts", func([]js.Value) any {
		out, _ := jsonout.Marshal(query.Parts)
		return string(out)
	})
	// privacyRange() returns RangeOf the current scenario as JSON: what
	// the privacy slider spans, from the scenario's own accountant.
	fn("privacyRange", func([]js.Value) any {
		if a.rem != nil {
			return string(a.rem.head.Range) // the Worker's, from its built scenario
		}
		if a.built == nil {
			return `{"ok":false,"reason":"no scenario is loaded"}`
		}
		out, _ := jsonout.Marshal(RangeOf(a.built))
		return string(out)
	})
	// restoreTo(k, ms) replays the run to iteration k within ms
	// milliseconds (default 5000) and returns what it reached, as JSON.
	fn("restoreTo", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeNumber {
			return `{"ended":"restoreTo needs an iteration"}`
		}
		k := args[0].Int()
		budget := 5 * time.Second
		if len(args) > 1 && args[1].Type() == js.TypeNumber && args[1].Float() > 0 {
			budget = time.Duration(args[1].Float() * float64(time.Millisecond))
		}
		out, _ := jsonout.Marshal(a.restoreTo(k, budget))
		return string(out)
	})
}
