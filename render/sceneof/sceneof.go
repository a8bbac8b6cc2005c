// Package sceneof reads from a problem what the scene draws beside the
// network: the plane of a 2-D problem, the allocation panel of a
// resource-allocation problem. It is apart from render/scene so that the
// page's view program, which links render/scene to draw a scenario's
// first frame, does not link core/objective (and with it the seeded
// streams, crypto/sha256 and encoding/json).
package sceneof

import (
	"dpsim/core/objective"
	"dpsim/render/scene"
)

// Plane returns the plane data of prob, or nil when prob is not
// planar. A problem is planar only when it implements objective.Planar
// and its dimension is 2 (a rendezvous in 3-D has targets, but no plane
// to draw them in), with one point per agent. The optimum is taken when
// the problem offers one of dimension 2.
func Plane(prob objective.Problem) *scene.Plane {
	pl, ok := prob.(objective.Planar)
	if !ok || prob.Dim() != 2 {
		return nil
	}
	pts := pl.Points()
	if len(pts) != prob.Agents() {
		return nil
	}
	p := &scene.Plane{Targets: pts}
	if opt := prob.Optimum(); len(opt) == 2 {
		p.Optimum, p.HasOptimum = [2]float64{opt[0], opt[1]}, true
	}
	return p
}

// Allocation returns the allocation data of prob, or nil when it is not
// a resource-allocation problem. Optional methods fill in the rest: the
// agents' names (Names() []string), the generators' ranges (Quadratic,
// as core/dispatch has) and the unit (Unit() string).
func Allocation(prob objective.Problem) *scene.Allocation {
	ap, ok := prob.(objective.Allocation)
	if !ok || prob.Dim() != 1 {
		return nil
	}
	n := prob.Agents()
	a := &scene.Allocation{Generator: make([]bool, n), Optimum: ap.Allocation(), Capacity: make([]float64, n), Demand: make([]float64, n)}
	if opt := prob.Optimum(); len(opt) > 0 {
		a.Price = opt[0]
	}
	q, hasQ := prob.(interface {
		Quadratic(i int) (a, b, lo, hi float64, ok bool)
	})
	for i := range n {
		a.Generator[i] = !ap.Fixed(i)
		a.Demand[i] = ap.Demand(i)[0]
		if hasQ {
			_, _, _, hi, _ := q.Quadratic(i)
			a.Capacity[i] = hi
		}
	}
	if nm, ok := prob.(interface{ Names() []string }); ok {
		a.Names = nm.Names()
	}
	if u, ok := prob.(interface{ Unit() string }); ok {
		a.Unit = u.Unit()
	}
	return a
}
