package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// TestTightThroughWorker: the tight bound a Worker's run sends in its
// summary's ledger (JSON) reads in the page as the run's own does — the
// page's state once kept a bound of 0 from before the Worker's run.
func TestTightThroughWorker(t *testing.T) {
	s, err := scenario.PresetScenario("gtdp-rendezvous")
	if err != nil {
		t.Fatal(err)
	}
	s.Iterations, s.Record.Checkpoints = 40, nil
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		t.Fatal(err)
	}
	r := runner.New(b)
	r.TrackTight()
	r.Start()
	for !r.Done() {
		if _, err := r.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	led := r.Ledger()
	js, err := json.Marshal(led)
	if err != nil {
		t.Fatal(err)
	}
	var back privacy.Ledger
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	want, got := tightOf(led), tightOf(back)
	if want.Text == "" || want.Iter != 40 || !(want.Value > 0) {
		t.Fatalf("the run's tight bound %+v", want)
	}
	if got != want {
		t.Errorf("through the Worker's JSON: %+v, want %+v", got, want)
	}
}

// TestShortG: δ as the page writes its numbers, without the exponent's
// leading zero, and every other %g form unchanged.
func TestShortG(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{1e-6, "1e-6"}, {1e-5, "1e-5"}, {2.5e-7, "2.5e-7"}, {1e-12, "1e-12"},
		{1e+21, "1e+21"}, {1e-100, "1e-100"}, {0.001, "0.001"}, {0, "0"},
	} {
		if got := shortG(c.v); got != c.want {
			t.Errorf("shortG(%g) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestTightNoteShown: a tight bound at a δ below what its discretization
// resolves carries its note to the page (TightView, which the State card
// reads) and to the inspector,
// which otherwise promised "at most Error above the exact value".
func TestTightNoteShown(t *testing.T) {
	note := "δ = 1e-12 is below what the discretization resolves (3e-11)"
	for _, c := range []struct {
		note string
		says bool
	}{{"", false}, {note, true}} {
		led := privacy.Ledger{Tight: &privacy.TightLedger{Iterations: 7, Agents: []privacy.TightEntry{
			{Epsilon: privacy.Of(2), Delta: 1e-12, Error: 0.01, Note: c.note},
		}}}
		v := tightOf(led)
		if v.Note != c.note {
			t.Errorf("note %q: TightView.Note = %q", c.note, v.Note)
		}
		if got := strings.Contains(agentTight(led, 0), "resolution"); got != c.says {
			t.Errorf("note %q: inspector reads %q", c.note, agentTight(led, 0))
		}
	}
}
