package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestPlanFromPoints: a plan made from the points a caller worked out
// first (PointsOf, read for the user's files) takes them as they are,
// without working them out again, and is the same plan, to the result's
// bytes, as NewPlan's; points worked out for another experiment are
// worked out again.
func TestPlanFromPoints(t *testing.T) {
	audit := `{"format": "dpsim-experiment/1", "name": "audit-points", "title": "audit",
	  "base": {"preset": "gtdp-rendezvous"}, "set": {"iterations": 3}, "audit": {}, "runs": 4, "seed": 1}`
	for _, name := range []string{"field", "iteration", "derived", "audit"} {
		text := small[name]
		if name == "audit" {
			text = audit
		}
		e := mustParse(t, []byte(text))
		ps, err := PointsOf(e)
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewPlan(e)
		if err != nil {
			t.Fatal(err)
		}
		got, err := NewPlanFrom(context.Background(), e, ps)
		if err != nil {
			t.Fatal(err)
		}
		for s, sp := range got.series {
			for i, pp := range sp.points {
				if pp.parsed != ps.series[s][i].parsed {
					t.Errorf("%s: series %d point %d was worked out again", name, s, i)
				}
			}
		}
		samePlans(t, name, want, got)

		// Another experiment (a changed set) gets its own points.
		other := mustParse(t, e.JSON())
		other.Set = Overrides{"iterations": json.RawMessage("100")}
		want, err = NewPlan(other)
		if err != nil {
			t.Fatal(err)
		}
		got, err = NewPlanFrom(context.Background(), other, ps)
		if err != nil {
			t.Fatal(err)
		}
		if got.series[0].points[0].parsed == ps.series[0][0].parsed {
			t.Errorf("%s: a changed experiment planned with the points of the one before", name)
		}
		samePlans(t, name+" changed", want, got)
	}
}

// samePlans fails unless plans a and b run the same scenarios and
// assemble the same result.
func samePlans(t *testing.T, name string, a, b *Plan) {
	t.Helper()
	if a.Tasks() != b.Tasks() || a.Estimate(a.Tasks(), 2) != b.Estimate(b.Tasks(), 2) || strings.Join(a.Quantities, ",") != strings.Join(b.Quantities, ",") {
		t.Fatalf("%s: %d tasks, %+v, %q; want %d, %+v, %q", name, b.Tasks(), b.Estimate(b.Tasks(), 2), b.Quantities, a.Tasks(), a.Estimate(a.Tasks(), 2), a.Quantities)
	}
	for k := range a.Tasks() {
		sa, err1 := a.Scenario(k)
		sb, err2 := b.Scenario(k)
		if err1 != nil || err2 != nil {
			// An audit's runs have no scenario of their own to write.
			if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
				t.Fatalf("%s: task %d: %v, %v", name, k, err1, err2)
			}
			continue
		}
		if !bytes.Equal(sa.JSON(), sb.JSON()) {
			t.Fatalf("%s: task %d: another scenario", name, k)
		}
	}
	if !bytes.Equal(executeAll(t, a, 2).JSON(), executeAll(t, b, 2).JSON()) {
		t.Errorf("%s: another result from the points", name)
	}
}
