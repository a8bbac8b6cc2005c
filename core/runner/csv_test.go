package runner_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// An export of a scenario whose title and description hold <, > and &
// writes them as themselves, not as \u003c, \u003e, \u0026, and reads back
// to the same text.
func TestExportHasNoHTMLEscapes(t *testing.T) {
	const title, desc = "a < b & c > d", "ε < 1 && K > 10: <none> & more"
	r := runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
		s.Iterations, s.Record.Checkpoints = 5, []int{5}
		s.Title, s.Description = title, desc
	}))
	js := runExport(t, r)
	for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
		if bytes.Contains(js, []byte(esc)) {
			i := bytes.Index(js, []byte(esc))
			t.Errorf("the export holds %s: …%s…", esc, js[max(i-40, 0):min(i+40, len(js))])
		}
	}
	var back struct {
		Scenario struct {
			Title       string `json:"title"`
			Description string `json:"description"`
		} `json:"scenario"`
	}
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.Scenario.Title != title || back.Scenario.Description != desc {
		t.Errorf("read back title %q, description %q; want %q, %q", back.Scenario.Title, back.Scenario.Description, title, desc)
	}
	// The run resumes from the export it wrote (its own reader takes it).
	if _, err := runner.ResumeExport(js, -1, scenario.CLI); err != nil {
		t.Errorf("resuming the export: %v", err)
	}
}

// The CSV starts with its metadata lines, has one eps_agent_I column per
// agent, and those columns are the ledger's ε per agent: the last row's
// equal the export's ledger, and ε never falls along the run.
func TestCSVMetadataAndEpsilon(t *testing.T) {
	for _, tc := range []struct {
		preset string
		every  int
	}{
		{"gtdp-rendezvous", 1},
		{"dpdgt-ieee14", 3},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			r := runner.New(runnertest.Preset(t, tc.preset, func(s *scenario.Scenario) {
				s.Iterations, s.Record.Checkpoints = 20, nil
				s.Record.Every = tc.every
			}))
			r.TrackEpsilon()
			if err := r.Run(); err != nil {
				t.Fatal(err)
			}
			date := time.Date(2026, 11, 25, 22, 30, 0, 0, time.FixedZone("CET", 3600))
			var buf bytes.Buffer
			if err := r.WriteCSV(&buf, runner.CSVMeta{Date: date, Version: "v-test"}); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			hash, err := r.ScenarioHash()
			if err != nil {
				t.Fatal(err)
			}
			b := r.Built()
			want := []string{
				"# scenario: " + tc.preset,
				"# scenario_sha256: " + hash,
				"# seed: " + strconv.FormatUint(*b.Scenario.Seed, 10),
				"# dpsim_version: v-test",
				"# date: 2026-11-25T21:30:00Z",
			}
			for i, w := range want {
				if lines[i] != w {
					t.Errorf("line %d: %q, want %q", i, lines[i], w)
				}
			}
			if len(hash) != 64 {
				t.Errorf("hash %q is not SHA-256 hex", hash)
			}
			k := 0
			for k < len(lines) && strings.HasPrefix(lines[k], "# ") {
				k++
			}
			header := strings.Split(lines[k], ",")
			rows := lines[k+1:]
			n := b.Env.Problem.Agents()
			first := len(header) - n
			for i := range n {
				if got, w := header[first+i], "eps_agent_"+strconv.Itoa(i); got != w {
					t.Fatalf("column %d: %q, want %q", first+i, got, w)
				}
			}
			if wantRows := r.Metrics.Series.Len(); len(rows) != wantRows {
				t.Fatalf("%d rows, want %d", len(rows), wantRows)
			}
			prev := make([]float64, n)
			var last []float64
			for j, row := range rows {
				cells := strings.Split(row, ",")
				if len(cells) != len(header) {
					t.Fatalf("row %d has %d cells, want %d", j, len(cells), len(header))
				}
				last = last[:0]
				for i := range n {
					v, err := strconv.ParseFloat(cells[first+i], 64)
					if err != nil {
						t.Fatalf("row %d, eps_agent_%d: %v", j, i, err)
					}
					if v < prev[i] {
						t.Errorf("row %d: agent %d's ε fell from %g to %g", j, i, prev[i], v)
					}
					prev[i] = v
					last = append(last, v)
				}
			}
			led := r.Ledger()
			for i, e := range led.Agents {
				want := e.Epsilon.Value()
				if math.IsNaN(want) || math.IsInf(want, 0) {
					want = math.Inf(1)
				}
				if last[i] != want {
					t.Errorf("last row: agent %d's ε is %g; the ledger says %g", i, last[i], want)
				}
			}
			if last[0] == 0 {
				t.Errorf("agent 0 spent no ε in %d iterations", b.Scenario.Iterations)
			}
		})
	}
}

// An agent whose ε the ledger cannot give as a float64 (no noise: no
// guarantee) is written +Inf, never 0.
func TestCSVEpsilonWithoutGuaranteeIsInf(t *testing.T) {
	r := runner.New(runnertest.Preset(t, "gtdp-rendezvous-noisefree", func(s *scenario.Scenario) { s.Iterations, s.Record.Checkpoints = 3, nil }))
	r.TrackEpsilon()
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf, runner.CSVMeta{Date: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	lastRow := strings.Split(lines[len(lines)-1], ",")
	if got := lastRow[len(lastRow)-1]; got != "+Inf" {
		t.Errorf("the last agent's ε without noise is %q, want +Inf\n%s", got, buf.String())
	}
}

// A run whose ε trace would not fit in MaxEpsilonTrace keeps none, and
// its CSV says so instead of holding the columns.
func TestCSVEpsilonTraceTooLarge(t *testing.T) {
	r := runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
		s.Graph.N, s.Iterations, s.Record.Checkpoints = 1000, 1_000_000, nil
	}))
	if r.TrackEpsilon() {
		t.Fatal("a trace of 1000 agents × 10⁶ points (8 GB) is kept")
	}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf, runner.CSVMeta{Date: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "# eps_agent_I: omitted: 1000 agents × 1000002 recorded points would hold 7629 MiB in memory (the limit is 512 MiB)\n") ||
		strings.Contains(buf.String(), "eps_agent_0") {
		t.Errorf("the CSV:\n%s", buf.String())
	}
}
