package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"dpsim/core/problems/nonconvex"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// A run writes its replay arrays by default when they hold at most
// DefaultReplayValues values, on request up to MaxReplayValues, and a
// request beyond that is refused in one line naming record.replay.
func TestReplayChoice(t *testing.T) {
	on, off := true, false
	for _, c := range []struct {
		preset string
		iters  int // 0: the preset's
		replay *bool
		want   bool
		values int64 // 0: not checked
		err    string
	}{
		{preset: "recal-synthetic", want: true},                // 3,002 values
		{preset: "gtdp-rendezvous", want: true},                // 32,000
		{preset: "dpp2-classifier", want: false},               // 1,001,001: too many to write unasked
		{preset: "dpp2-classifier", replay: &on, want: true},   // asked
		{preset: "gtdp-rendezvous", replay: &off, want: false}, // declined
		// The CNN's noise, 20 iterations × 2 channels × 4 agents × 5,994,
		// is above the default alone: its default export stays without
		// arrays, and its deal of 128 images and its 5,994 initial
		// weights are neither copied nor counted; asked for, they are.
		{preset: "gtdp-cnn-mnist", want: false, values: 959_040},
		{preset: "gtdp-cnn-mnist", replay: &on, want: true, values: 959_040 + 128 + 5994},
		{preset: "gtdp-logistic-mushrooms", iters: 4000, replay: &on, err: "record.replay: the run would write up to 8960000 values of replay arrays"},
	} {
		s, err := scenario.PresetScenario(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		if c.iters > 0 {
			s.Iterations = c.iters
		}
		s.Record.Replay = c.replay
		b, err := scenario.Build(s)
		switch {
		case c.err != "":
			if err == nil || !strings.HasPrefix(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v, want one line starting %q", c.preset, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.preset, err)
		case b.Replay != c.want:
			t.Errorf("%s (replay %v): writes the arrays %v (%d values), want %v", c.preset, c.replay, b.Replay, b.ReplayValues, c.want)
		case c.values != 0 && b.ReplayValues != c.values:
			t.Errorf("%s: counts %d values of replay arrays, want %d", c.preset, b.ReplayValues, c.values)
		}
	}
}

// TestDrawnLimitIsTheReplayLimit ties the nonconvex classifier's copy of
// the replay line (it cannot import this package) to MaxReplayValues.
func TestDrawnLimitIsTheReplayLimit(t *testing.T) {
	if nonconvex.MaxDrawnValues != scenario.MaxReplayValues {
		t.Errorf("nonconvex.MaxDrawnValues = %d, scenario.MaxReplayValues = %d: one changed without the other", nonconvex.MaxDrawnValues, scenario.MaxReplayValues)
	}
}

// TestReplayValuesBoundWhatIsWritten: the replay arrays' count
// (Built.ReplayValues), which chooses whether a run writes them and
// bounds them in the memory estimate, is at least what a run of every
// preset writes: its draws, sample orders and noise, and the numbers the
// problem's drawn data adds to its pinned parameters. The synthetic
// learning sets wrote their class list uncounted (2 or 3 values more).
func TestReplayValuesBoundWhatIsWritten(t *testing.T) {
	on := true
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		s.Iterations = min(s.Iterations, 100)
		s.Record.Checkpoints, s.Record.Replay = nil, &on
		b, err := scenario.Build(s)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		w := r.Export().Scenario
		var n int64
		for _, v := range w.Algorithm.Draws {
			n += int64(len(v))
		}
		if w.Samples != nil {
			for _, o := range w.Samples.Order {
				n += int64(len(o))
			}
		}
		for _, c := range w.Noise {
			n += int64(len(c.Draws))
		}
		n += numbers(t, w.Problem.Params) - numbers(t, b.Pinned().Problem.Params)
		if n > b.ReplayValues {
			t.Errorf("%s: the run wrote %d values of replay arrays, %d counted", p.Name, n, b.ReplayValues)
		}
	}
}

// numbers counts the numbers in the JSON text js.
func numbers(t *testing.T, js []byte) int64 {
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatal(err)
	}
	var count func(v any) int64
	count = func(v any) int64 {
		var n int64
		switch x := v.(type) {
		case float64:
			return 1
		case []any:
			for _, e := range x {
				n += count(e)
			}
		case map[string]any:
			for _, e := range x {
				n += count(e)
			}
		}
		return n
	}
	return count(v)
}
