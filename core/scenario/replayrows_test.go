package scenario

import (
	"testing"

	"dpsim/core/objective"
)

// countRows makes the factory of kind count its Rows calls until the
// test ends.
func countRows(t testing.TB, kind string) *int {
	f := problems[kind]
	rows := f.Rows
	n := new(int)
	f.Rows = func(p objective.Problem, params any) (any, int64) { *n++; return rows(p, params) }
	t.Cleanup(func() { f.Rows = rows })
	return n
}

// A build copies the problem's rows for a replay export only when they
// may be written: not when the draws alone exceed the default and replay
// is left out (the nonconvex classifier's presets copied 110,000 values a
// build to drop them, and the Compare card builds every algorithm on its
// base), not when replay is declined; when asked, or within the default,
// it does.
func TestReplayRowsOnlyWhenWritten(t *testing.T) {
	on, off := true, false
	for _, c := range []struct {
		preset string
		replay *bool
		calls  int
	}{
		{"dpp2-classifier", nil, 0}, // 1,001,001 draws
		{"dpp2-classifier", &off, 0},
		{"dpp2-classifier", &on, 1},
		{"tour-dpp2", nil, 1}, // 20,021 draws and 110,000 rows: written
	} {
		n := countRows(t, "nonconvex-classifier")
		s, err := PresetScenario(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		s.Record.Replay = c.replay
		if _, err := BuildFor(s, CLI); err != nil {
			t.Fatal(err)
		}
		if *n != c.calls {
			t.Errorf("%s (replay %v): Rows called %d times, want %d", c.preset, c.replay, *n, c.calls)
		}
	}
}

// BenchmarkCandidatesNonconvex is the Compare card's list on the
// nonconvex classifier's preset: every algorithm built on its base.
func BenchmarkCandidatesNonconvex(b *testing.B) {
	s, err := PresetScenario("dpp2-classifier")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Candidates(s, Page)
	}
}
