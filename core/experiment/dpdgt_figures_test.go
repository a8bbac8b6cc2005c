package experiment

import (
	"testing"
)

// The DP-DGT paper's figures as presets: each claim holds on reduced run
// counts (the presets' own seeds and 3-standard-error margins). Fig. 4 is
// cut to four values of θ_0 and 150 runs each (the preset: eleven values,
// 2000 runs, whose consecutive steps need the full count).
func TestDPDGTFigureClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo claims")
	}
	for _, c := range []struct {
		preset string
		runs   int
		values []float64
	}{
		{"dpdgt-fig2", 20, nil},
		{"dpdgt-fig3", 20, nil},
		{"dpdgt-fig4", 150, []float64{0, 0.02, 0.05, 0.1}},
		{"dpdgt-fig5", 30, nil},
	} {
		t.Run(c.preset, func(t *testing.T) {
			e, err := PresetExperiment(c.preset)
			if err != nil {
				t.Fatal(err)
			}
			e.Runs = c.runs
			if c.values != nil {
				e.X.Values = c.values
			}
			checkClaims(t, e, 0)
		})
	}
}
