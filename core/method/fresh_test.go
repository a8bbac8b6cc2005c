package method

import (
	"testing"

	"dpsim/core/rng"
)

// After ResetStreams, Draws hands out a new source from the start of its
// stream, registered with the new registry (a calibrated scenario builds
// its algorithm twice; the second build must draw what a replay draws).
func TestResetStreamsRestartsDraws(t *testing.T) {
	e := &Env{Seeds: rng.Seeds{Algorithm: 42}}
	first := e.Draws("alg", "walk").IntN(1000)
	e.Draws("alg", "walk").IntN(1000) // advance the cached source
	e.ResetStreams()
	src := e.Draws("alg", "walk")
	if got := src.IntN(1000); got != first {
		t.Errorf("after ResetStreams the first draw is %d, want the stream's first %d", got, first)
	}
	if ps := e.Positions().Streams; len(ps) != 1 || ps[0].Label != "algorithm/alg/walk" {
		t.Errorf("the new registry holds %v, want the one walk stream", ps)
	}
}
