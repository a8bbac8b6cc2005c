package learn

import "math"

// Relabel returns the view r on a copy of its set in which the labels of
// the view rows ks are changed by to (the features are shared, not
// copied): an audit's neighbouring data set, one agent's labels changed
// (objective.Neighbouring). r itself is not touched.
func Relabel(r Rows, ks []int, to func(y uint8) uint8) Rows {
	set := *r.Set
	set.Y = append([]uint8(nil), r.Set.Y...)
	for _, k := range ks {
		row := r.Row(k)
		set.Y[row] = to(set.Y[row])
	}
	return Rows{Set: &set, Idx: r.Idx}
}

// Largest returns the view row with the largest feature norm (the first
// of equals): the record whose change moves a linear model's gradient
// most.
func (r Rows) Largest() int {
	best, at := -1.0, 0
	for k := range r.Len() {
		if s := r.RowNorm(k); s > best {
			best, at = s, k
		}
	}
	return at
}

// RowNorm returns ‖a_k‖ of view row k.
func (r Rows) RowNorm(k int) float64 {
	s := 0.0
	for j := range r.Set.Cols {
		v := r.Set.At(r.Row(k), j)
		s += float64(v * v)
	}
	return math.Sqrt(s)
}

// All returns the view rows 0 … Len−1.
func (r Rows) All() []int {
	ks := make([]int, r.Len())
	for k := range ks {
		ks[k] = k
	}
	return ks
}
