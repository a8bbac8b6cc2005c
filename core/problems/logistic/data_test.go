package logistic

import (
	"slices"
	"testing"

	"dpsim/core/data"
	_ "dpsim/core/data/files" // the committed datasets
	"dpsim/core/problems/internal/learn"
)

// TestCentralAccuracy checks that central logistic regression on the
// committed datasets reaches a test accuracy of at least 99 % (the
// numbers are in docs/data.md), and that its x* has a KKT residual ≤
// 1e-10. A dataset not committed (yet) is skipped, by name.
func TestCentralAccuracy(t *testing.T) {
	for _, c := range []struct {
		name string
		l2   float64
		long bool
	}{
		{"mushrooms", 1e-3, false},
		{"mnist-01", 1e-3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !slices.Contains(data.Names(), c.name) {
				t.Skipf("dataset %s is not committed", c.name)
			}
			if c.long && testing.Short() {
				t.Skip("a central solve over every row: -short skips it")
			}
			p := params(func(p *Params) { p.Dataset = c.name; p.L2 = c.l2 })
			pr := mustBuild(t, 8, p)
			m := pr.(*Model)
			x := pr.Optimum()
			if r := m.KKT(x); !(r <= 1e-10) {
				t.Errorf("KKT residual %.3g > 1e-10", r)
			}
			test, err := data.Load(c.name, "test")
			if err != nil {
				t.Fatal(err)
			}
			acc := m.Accuracy(learn.Rows{Set: test}, x)
			train := 0.0
			for i := range m.Agents() {
				train += m.Accuracy(m.Shard(i), x) * float64(m.Samples(i))
			}
			train /= float64(m.Set().Rows)
			_, l := m.Smoothness()
			t.Logf("%s: λ = %g, train accuracy %.4f, test accuracy %.4f (%d rows), L = %.4g", c.name, c.l2, train, acc, test.Rows, l)
			if acc < 0.99 {
				t.Errorf("test accuracy %.4f < 0.99", acc)
			}
		})
	}
}
