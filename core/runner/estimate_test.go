package runner_test

import (
	"io"
	"runtime"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// TestCheckpointEstimate: the memory estimate's checkpoint part covers
// what 5000-agent checkpoints really take: the checkpoints held by the
// runner and the transient text of writing the export (an upper bound:
// every byte WriteExport allocates). It was 2× low.
func TestCheckpointEstimate(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("natively")
	}
	// measure returns the bytes the run holds after running and those its
	// export allocates.
	measure := func(b *scenario.Built) (held, writing int64) {
		var m0, m1, m2 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		if err := r.WriteExport(io.Discard); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&m2)
		runtime.KeepAlive(r)
		return int64(m1.HeapAlloc) - int64(m0.HeapAlloc), int64(m2.TotalAlloc - m1.TotalAlloc)
	}
	for _, dim := range []int{1, 4} {
		build := func(cps []int) *scenario.Built {
			return runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
				s.Graph.N, s.Iterations, s.Record.Checkpoints = 5000, 4, cps
				s.Problem.Params = []byte(`{"dim": ` + string(rune('0'+dim)) + `, "box": 10}`)
			})
		}
		b := build([]int{0, 2, 4})
		est := scenario.EstimateOf(b.Scenario, b.Factory, dim, 0, false)
		var part int64
		for _, p := range est.Parts {
			if p.What == "checkpoints" {
				part = p.Bytes
			}
		}
		_, w0 := measure(build(nil))
		_, w1 := measure(b)
		// Held: what the checkpoints' rows and counters take in Go; writing:
		// the allocations of writing one checkpoint (a bound on its peak).
		var held int64
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		for _, cp := range r.Export().States {
			for _, st := range cp.States {
				for _, row := range st.Values {
					held += 24 + 8*int64(len(row))
				}
			}
			held += 8 * int64(len(cp.Communication.Activations))
		}
		writing := (w1 - w0) / 3
		t.Logf("dim %d: estimate %d, held %d, writing %d", dim, part, held, writing)
		if part < held+writing {
			t.Errorf("dim %d: the checkpoints are estimated at %s, but they held %s and writing them allocated %s", dim, scenario.Bytes(part), scenario.Bytes(held), scenario.Bytes(writing))
		}
	}
}
