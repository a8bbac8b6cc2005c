package scenario_test

import (
	"strings"
	"testing"

	"dpsim/core/problems/nonconvex"
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
