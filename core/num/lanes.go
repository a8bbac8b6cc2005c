package num

// Every reduction in dpsim that runs in SIMD lanes sums its terms in one
// order, defined here once and implemented the same way by the portable
// Go code, the amd64 assembly (AVX2) and WebAssembly (Go's wasm assembly
// and the SIMD module of wasm/simd/gen), so that every platform gives the
// same bits — here (Dots) and in the kernels of the nonconvex
// classifier and of the shard gradients (core/problems/internal/learn),
// which tests hold to this file's Go:
//
//   - term t of a sum of n terms (t = 0, 1, …, n−1) goes to partial sum
//     (lane) t mod Lanes; each lane adds its terms in increasing t,
//     starting from +0;
//   - each term is a product rounded to float64 before it is added (no
//     fused multiply-add on any path);
//   - the eight lanes l0…l7 are combined by the fixed tree
//     ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)), which is what two 4-lane
//     registers give when added (l0+l4, l1+l5, l2+l6, l3+l7), halved
//     (…+(l2+l6), …+(l3+l7)) and folded, and what four 2-lane registers
//     give in the same steps;
//   - a sum of fewer than eight terms, or the last n mod 8, simply leaves
//     the lanes past its end as they were: a vector path may add +0 there
//     (a product of two zeros), which changes no lane, because a lane that
//     starts at +0 is never −0 (x + (−x) = +0, +0 + −0 = +0) and adding
//     +0 to anything but −0 returns it.
//
// Eight lanes keep eight independent additions in flight where a sum left
// to right keeps one, at the price of a different last bit from the
// sequential sum (and so of golden files, once). The same argument as for
// the tail shows that a sparse sum which skips terms whose product is ±0
// (a zero feature, a finite x) gives the same bits, provided each
// remaining term still goes to the lane of its index.
//
// A sparse row (its nonzero values v_0, v_1, … stored with their columns
// c_0 < c_1 < …) is summed by position instead (GatherDot): its t-th
// stored term v_t·x[c_t] goes to lane t mod Lanes, as if the stored
// values were a dense row of their own. The position is what the row
// holds on every platform, so the bits are the same everywhere, and the
// lanes fill evenly whatever the columns; but they differ from the dense
// row's sum (lane c_t mod Lanes), so a row has one sum per form: a
// caller that has both forms of a set must use one for all its rows
// (core/problems/internal/learn uses the sparse one wherever it exists).
//
// Values stored as float32 or bytes (DotOf, GatherDot) convert to float64
// exactly before the product, so their sums are those of the float64
// rows.

// Lanes is the number of partial sums of a lane-ordered reduction.
const Lanes = 8

// Combine returns the lanes' sum in the fixed tree
// ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)).
func Combine(l *[Lanes]float64) float64 {
	return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

// Dot returns Σ_j a_j·b_j over j < len(a) (len(b) ≥ len(a)) in the lane
// order above. On amd64 with AVX2 it is assembly (lanes_amd64.s), under
// js/wasm WebAssembly assembly (lanes_wasm.s); TestDotsBits holds every
// path to dotGo's bits.
func Dot(a, b []float64) float64 {
	var out [1]float64
	Dots(a, b[:len(a)], out[:])
	return out[0]
}

// Dots sets out[s] = Dot(z_s, x) for the rows z_s = z[s·d : (s+1)·d],
// d = len(x), s < len(out). z must hold len(out) rows.
func Dots(z, x, out []float64) {
	d := len(x)
	z = z[:len(out)*d] // too few rows panics here, before any assembly
	dots(z, x, out)
}

// dotsGo is Dots in portable Go: DotOf row after row.
func dotsGo(z, x, out []float64) {
	d := len(x)
	for s := range out {
		out[s] = DotOf(z[s*d:(s+1)*d:(s+1)*d], x)
	}
}

// DotsAt sets out[k] = DotOf(f[off[k] : off[k]+len(x)], x) for k <
// len(out): the dot products of float32 rows stored anywhere in f (a
// dataset's rows through a permutation, say). On amd64 with AVX2 it is
// assembly (lanes_amd64.s: four rows at a time, as Dots). It panics
// unless off holds len(out) offsets of rows inside f.
func DotsAt(f []float32, off []int, x, out []float64) {
	off = off[:len(out)]
	for _, o := range off {
		if o < 0 || o > len(f)-len(x) {
			panic("num: DotsAt row outside its array")
		}
	}
	dotsAt(f, off, x, out)
}

// dotsAtGo is DotsAt in portable Go.
func dotsAtGo(f []float32, off []int, x, out []float64) {
	for k, o := range off[:len(out)] {
		out[k] = DotOf(f[o:o+len(x)], x)
	}
}

// Exact is what the stored factor of a lane-ordered sum may be: every
// value of these types converts to float64 exactly.
type Exact interface{ ~float64 | ~float32 | ~uint8 }

// DotOf returns Σ_j float64(a_j)·x_j over j < len(a) (len(x) ≥ len(a)) in
// the lane order above: Dot for rows stored as float32 or bytes, in
// portable Go with eight scalar accumulators (which also keeps eight
// additions in flight where there is no vector path), every product
// wrapped in float64(…) so that no build fuses it into the sum.
func DotOf[V Exact](a []V, x []float64) float64 {
	x = x[:len(a)]
	d8 := len(a) &^ 7
	var l0, l1, l2, l3, l4, l5, l6, l7 float64
	j := 0
	for ; j < d8; j += 8 {
		aa, xx := a[j:j+8:j+8], x[j:j+8:j+8]
		l0 += float64(float64(aa[0]) * xx[0])
		l1 += float64(float64(aa[1]) * xx[1])
		l2 += float64(float64(aa[2]) * xx[2])
		l3 += float64(float64(aa[3]) * xx[3])
		l4 += float64(float64(aa[4]) * xx[4])
		l5 += float64(float64(aa[5]) * xx[5])
		l6 += float64(float64(aa[6]) * xx[6])
		l7 += float64(float64(aa[7]) * xx[7])
	}
	// The last len(a) mod 8 terms, to lanes 0… in turn.
	if r := a[j:]; len(r) > 0 {
		xr := x[j:]
		xr = xr[:len(r)]
		l0 += float64(float64(r[0]) * xr[0])
		if len(r) > 1 {
			l1 += float64(float64(r[1]) * xr[1])
		}
		if len(r) > 2 {
			l2 += float64(float64(r[2]) * xr[2])
		}
		if len(r) > 3 {
			l3 += float64(float64(r[3]) * xr[3])
		}
		if len(r) > 4 {
			l4 += float64(float64(r[4]) * xr[4])
		}
		if len(r) > 5 {
			l5 += float64(float64(r[5]) * xr[5])
		}
		if len(r) > 6 {
			l6 += float64(float64(r[6]) * xr[6])
		}
	}
	return ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7)) // Combine's tree
}

// GatherDot returns Σ_t float64(v_t)·x[c_t] over t < len(c) (len(v) ≥
// len(c)) in the lane order of a sparse row above: term t to lane
// t mod Lanes. Portable Go, as DotOf.
func GatherDot[V Exact, I ~uint16 | ~int32 | ~int](c []I, v []V, x []float64) float64 {
	v = v[:len(c)]
	n8 := len(c) &^ 7
	var l0, l1, l2, l3, l4, l5, l6, l7 float64
	t := 0
	for ; t < n8; t += 8 {
		cc, vv := c[t:t+8:t+8], v[t:t+8:t+8]
		l0 += float64(float64(vv[0]) * x[cc[0]])
		l1 += float64(float64(vv[1]) * x[cc[1]])
		l2 += float64(float64(vv[2]) * x[cc[2]])
		l3 += float64(float64(vv[3]) * x[cc[3]])
		l4 += float64(float64(vv[4]) * x[cc[4]])
		l5 += float64(float64(vv[5]) * x[cc[5]])
		l6 += float64(float64(vv[6]) * x[cc[6]])
		l7 += float64(float64(vv[7]) * x[cc[7]])
	}
	if r := c[t:]; len(r) > 0 {
		vr := v[t:]
		vr = vr[:len(r)]
		l0 += float64(float64(vr[0]) * x[r[0]])
		if len(r) > 1 {
			l1 += float64(float64(vr[1]) * x[r[1]])
		}
		if len(r) > 2 {
			l2 += float64(float64(vr[2]) * x[r[2]])
		}
		if len(r) > 3 {
			l3 += float64(float64(vr[3]) * x[r[3]])
		}
		if len(r) > 4 {
			l4 += float64(float64(vr[4]) * x[r[4]])
		}
		if len(r) > 5 {
			l5 += float64(float64(vr[5]) * x[r[5]])
		}
		if len(r) > 6 {
			l6 += float64(float64(vr[6]) * x[r[6]])
		}
	}
	return ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7)) // Combine's tree
}
