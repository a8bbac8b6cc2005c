package scenario

import (
	"maps"

	"dpsim/core/check"
	"dpsim/core/jsonout"
	"dpsim/core/method"
)

// Replay exports (record.replay; docs/exports.md, "Replay arrays").
const (
	// DefaultReplayValues is the largest replay arrays a run writes
	// without being asked: 262,144 values, about 6 MB of the export's
	// indented JSON (some 24 bytes a value) and 25 MB in memory while it
	// is written (replayValueBytes). Every small run of the papers' presets fits (GT-DP's
	// rendezvous writes 32,000 values; DP-RECAL's ijcnn1 run 50,000),
	// so its export replays without dpsim's generator; a long or wide run
	// whose noise alone is millions of values would make every export of
	// it tens of megabytes, so it writes them only when asked.
	DefaultReplayValues = 1 << 18
	// MaxReplayValues is the most a run asked to (record.replay: true)
	// may write: 2,000,000 values, about 48 MB of JSON, so that the
	// export's scenario stays within the MaxBytes a scenario file may
	// have and can be run again.
	MaxReplayValues = 2_000_000
)

// chooseReplay decides whether the run records its draws, from what the
// built algorithm draws from the seeds: the arrays' size bounds the
// choice when record.replay is left out, and an explicit true above
// MaxReplayValues is refused in one line. ReplayValues then counts the
// problem's rows only when they could be written (not when replay is
// declined, or left out with the draws alone above the default).
func (b *Built) chooseReplay() error {
	env, f := b.Env, b.Factory
	n, d := env.Problem.Agents(), env.Problem.Dim()
	b.ReplayValues = env.PinsSize(func(channel string) int64 {
		for _, c := range f.Channels {
			if c.Name == channel {
				return c.Draws(n, d)
			}
		}
		return int64(n) * int64(d)
	})
	want := b.Scenario.Record.Replay
	var rows int64
	// The problem's rows are copied only when they may be written: asked
	// for, or by default while the draws alone leave room for them (a
	// copy made to be dropped cost the nonconvex classifier's presets,
	// whose noise alone exceeds the default, 110,000 values each build —
	// and the Compare card builds every algorithm on its base).
	if rf := b.ProblemFactory.Rows; rf != nil && (want == nil && b.ReplayValues <= DefaultReplayValues || want != nil && *want) {
		b.problemRows, rows = rf(env.Problem, b.ProblemParams)
		b.ReplayValues += rows
	}
	switch {
	case want == nil:
		b.Replay = b.ReplayValues <= DefaultReplayValues
	case *want && b.ReplayValues > MaxReplayValues:
		return check.Errorf("record.replay", "the run would write up to %d values of replay arrays (%d of the problem's drawn data, and its noise, sample orders and algorithm draws over %d iterations); at most %d fit in a scenario file: shorten the run or leave replay out", b.ReplayValues, rows, b.Scenario.Iterations, MaxReplayValues)
	default:
		b.Replay = *want
	}
	if !b.Replay {
		b.problemRows = nil // not written: let it go
	}
	env.Counting = b.Replay
	return nil
}

// PinnedReplay returns the pinned scenario (Pinned) with the replay
// arrays pins written into it: the algorithm's draws under
// algorithm.draws, the sample orders under samples.order (which then
// replaces samples.mode) and the noise draws under noise.<channel>.draws;
// what the problem drew (a synthetic set, a shuffled deal, drawn samples)
// is written into its parameters (objective.Factory.Rows).
func (b *Built) PinnedReplay(pins method.Pins) *Scenario {
	s := b.Pinned()
	if b.problemRows != nil {
		js, err := jsonout.Marshal(b.problemRows)
		if err != nil {
			panic("scenario: writing the problem's rows: " + err.Error()) // plain data, validated finite
		}
		s.Problem = Problem{Kind: s.Problem.Kind, Params: js}
	}
	if len(pins.Draws) > 0 {
		s.Algorithm.Draws = maps.Clone(s.Algorithm.Draws)
		if s.Algorithm.Draws == nil {
			s.Algorithm.Draws = map[string][]float64{}
		}
		maps.Copy(s.Algorithm.Draws, pins.Draws)
	}
	if pins.Order != nil {
		s.Samples = &Samples{Order: pins.Order}
	}
	if len(pins.Noise) > 0 {
		s.Noise = maps.Clone(s.Noise)
		for name, draws := range pins.Noise {
			spec := *s.Noise[name]
			spec.Draws = draws
			s.Noise[name] = &spec
		}
	}
	return s
}
