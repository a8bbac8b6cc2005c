package runner_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"dpsim/core/jsonout"
	"dpsim/core/metrics"
	"dpsim/core/noise"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// The streamed export is byte for byte what MarshalIndent writes.
func TestWriteExportIsMarshalIndent(t *testing.T) {
	for _, preset := range []string{"gtdp-rendezvous", "gtdp-paper-fig1", "dpdgt-ieee14", ""} {
		cps := []int{0, 50}
		if preset == "" {
			preset, cps = "gtdp-rendezvous", nil // no checkpoints: []
		}
		r := runner.New(runnertest.Preset(t, preset, func(s *scenario.Scenario) { s.Iterations, s.Record.Checkpoints = 50, cps }))
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		want, err := jsonout.MarshalIndent(r.Export(), "", " ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		var got bytes.Buffer
		if err := r.WriteExport(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			i := 0
			for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
				i++
			}
			t.Fatalf("%s: streamed export differs at byte %d: %q vs %q", preset, i,
				got.Bytes()[max(0, i-40):min(got.Len(), i+40)], want[max(0, i-40):min(len(want), i+40)])
		}
	}
}

// A checkpoint holding non-finite values still encodes (NaN as null, ±Inf
// as "Inf" and "-Inf": metrics.Floats).
func TestCheckpointNonFiniteEncodes(t *testing.T) {
	st := runner.State{Name: "x", Values: []metrics.Floats{{1, math.Inf(1)}, {math.NaN(), math.Inf(-1)}}}
	js, err := json.Marshal(st)
	if err != nil || string(js) != `{"name":"x","values":[[1,"Inf"],[null,"-Inf"]]}` {
		t.Fatalf("%s, %v", js, err)
	}
}

// A diverging run says why: growing noise, or an unstable step.
func TestDivergenceHints(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*scenario.Scenario)
		want string
	}{
		{"large step", func(s *scenario.Scenario) {
			s.Algorithm.Params = json.RawMessage(`{"alpha": 50, "gradient_bound": 60}`)
		}, "lower the step size"},
		{"growing noise", func(s *scenario.Scenario) {
			for _, ch := range []string{"eta", "xi"} {
				s.Noise[ch].Decay = noise.Geom(1, 10)
			}
		}, "the noise grows with k"},
	} {
		r := runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
			c.edit(s)
			s.Record.Checkpoints = nil
		}))
		err := r.Run()
		var d *runner.Diverged
		if !errors.As(err, &d) || !strings.Contains(d.Error(), c.want) {
			t.Errorf("%s: %v, want a divergence saying %q", c.name, err, c.want)
		}
		var buf bytes.Buffer
		if err := r.WriteExport(&buf); err != nil {
			t.Errorf("%s: the export of a diverged run: %v", c.name, err)
		}
	}
}

// FuzzRun builds whatever scenario validates, runs a few iterations and
// writes its export: the export must always write, and nothing may panic.
func FuzzRun(f *testing.F) {
	for _, p := range scenario.Presets() {
		js, _ := scenario.PresetJSON(p.Name)
		f.Add(js)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := scenario.Parse(data)
		if err != nil {
			return
		}
		// Keep each input to milliseconds: small networks, few iterations.
		if s.Graph.N > 200 || s.Graph.Rows*s.Graph.Cols > 200 || len(s.Graph.Edges) > 2000 || s.Graph.Tries > 5 {
			return
		}
		s.Iterations = min(max(s.Iterations, 1), 20)
		s.Record.Checkpoints = nil
		b, err := scenario.Build(s)
		if err != nil {
			return
		}
		r := runner.New(b)
		_ = r.Run() // a divergence is a valid outcome
		if err := r.WriteExport(io.Discard); err != nil {
			t.Fatalf("the export did not write: %v", err)
		}
	})
}

// Ten million iterations of a small scenario recorded every 10 000 keep
// memory flat: the metrics, the ledger (O(1) per iteration) and the
// algorithm allocate nothing that grows with the iteration count.
func TestTenMillionIterationsFlatMemory(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("ten million iterations: natively, and not in -short")
	}
	r := runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
		s.Graph = scenario.Graph{Kind: "ring", N: 4}
		s.Problem.Params = json.RawMessage(`{"dim": 1, "box": 1}`)
		s.Init = nil
		s.Iterations = 10_000_000
		s.Record = scenario.Record{Every: 10_000}
	}))
	var m0, m1 runtime.MemStats
	for range 100_000 {
		if _, err := r.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&m0)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	_ = r.Ledger() // the ledger catches up when read: include that
	runtime.GC()
	runtime.ReadMemStats(&m1)
	grow := int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
	// Sys is all the memory the runtime holds from the system: the RSS
	// the process can reach.
	sys := int64(m1.Sys) - int64(m0.Sys)
	t.Logf("heap after 10⁵ iterations %d B, after 10⁷ %d B (growth %d B); runtime memory growth %d B; %d points recorded",
		m0.HeapAlloc, m1.HeapAlloc, grow, sys, r.Metrics.Series.Len())
	if grow > 10<<20 || sys > 10<<20 {
		t.Errorf("between iteration 10⁵ and 10⁷ the heap grew by %d bytes and the runtime's memory by %d (limit 10 MiB)", grow, sys)
	}
}
