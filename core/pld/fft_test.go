package pld

import (
	"math"
	"math/cmplx"
	"testing"

	"dpsim/core/num"
	"dpsim/core/rng"
)

// TestFFT holds the real transform to the definition of the DFT, and its
// inverse to the identity, across lengths.
func TestFFT(t *testing.T) {
	s := rng.NewStream(1, "pld/fft")
	for _, n := range []int{4, 8, 64, 1024} {
		p := planFor(n)
		x := make([]float64, n)
		for i := range x {
			x[i] = s.Float64()
		}
		re, im := make([]float64, n/2), make([]float64, n/2)
		xr, xi := make([]float64, n/2+1), make([]float64, n/2+1)
		p.forward(x, re, im, xr, xi)
		for k := range n/2 + 1 {
			var want complex128
			for j, v := range x {
				want += complex(v, 0) * cmplx.Exp(complex(0, -2*math.Pi*float64(j*k)/float64(n)))
			}
			if d := cmplx.Abs(complex(xr[k], xi[k]) - want); d > 1e-12*float64(n) {
				t.Fatalf("n = %d: X[%d] = %v, want %v", n, k, complex(xr[k], xi[k]), want)
			}
		}
		y := make([]float64, n)
		p.inverse(xr, xi, re, im, y)
		for i := range x {
			if math.Abs(y[i]-x[i]) > 1e-13 {
				t.Fatalf("n = %d: inverse[%d] = %v, want %v", n, i, y[i], x[i])
			}
		}
	}
}

// TestInverseBand: the inverse of a DFT that is 0 above a frequency,
// skipping the blocks of zeros, is the full inverse to the last bit, for
// bands from one frequency to all.
func TestInverseBand(t *testing.T) {
	s := rng.NewStream(1, "pld/band")
	for _, n := range []int{8, 1024, 1 << 14} {
		p := planFor(n)
		m := n / 2
		re, im := make([]float64, m), make([]float64, m)
		xr, xi := make([]float64, m+1), make([]float64, m+1)
		want, got := make([]float64, n), make([]float64, n)
		for _, band := range []int{1, 2, 3, 7, 50, m / 4, m/2 - 1, m / 2, m/2 + 1, m} {
			for k := range m + 1 {
				xr[k], xi[k] = 0, 0
				if k < band {
					xr[k], xi[k] = s.Float64()-0.5, s.Float64()-0.5
				}
			}
			xi[0] = 0
			p.inverse(xr, xi, re, im, want)
			p.inverseBand(xr, xi, re, im, got, band)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(got[i] == 0 && want[i] == 0) {
					t.Fatalf("n = %d, band %d: x[%d] = %v, want %v", n, band, i, got[i], want[i])
				}
			}
		}
	}
}

// TestLaplaceTransform: the closed form of lapParts is the
// connect-the-dots distribution — its δ(ε) is the Laplace profile
// 1 − e^{(ε−Δ/b)/2} at every grid loss above the truncation, for aligned,
// split and truncated releases, and its masses sum to 1 — and
// composeParts gives the convolution by the definition of the
// discretized releases.
func TestLaplaceTransform(t *testing.T) {
	cases := []struct{ eps, h float64 }{{0.5, 0.1}, {0.37, 0.1}, {0.01, 0.003}, {60, 0.5}, {0.002, 0.01}}
	for _, c := range cases {
		p, ok := laplace{c.eps}.parts(c.h, tail)
		if !ok {
			t.Fatalf("%+v: does not fit", c)
		}
		d := p.dist(c.h)
		var sum float64
		for _, v := range d.p {
			sum += v
		}
		if math.Abs(sum-1) > 1e-14 {
			t.Errorf("%+v: mass %v", c, sum)
		}
		for j := 0; j <= p.n && float64(j)*c.h <= min(2*c.eps, laplaceDepth(tail)); j++ {
			x := c.eps - float64(float64(j)*c.h)
			if x < 0 {
				break
			}
			want := -math.Expm1((x - c.eps) / 2)
			if got := d.delta(x, pessimistic); math.Abs(got-want) > 1e-13 {
				t.Errorf("%+v: δ(%v) = %v, the profile's %v", c, x, got, want)
			}
		}
	}
	// Three releases (two of one ε) composed in the Fourier domain against
	// their convolution by the definition.
	h := 0.01
	a, _ := laplace{0.3}.parts(h, tail)
	b, _ := laplace{0.123}.parts(h, tail)
	var conv convolver
	got := composeParts([]part{{lap: a, count: 2}, {lap: b, count: 1}}, h, &conv)
	da, db := a.dist(h), b.dist(h)
	want := direct(direct(da.p, da.p), db.p)
	lo := 2*da.lo + db.lo
	offset := 2*0.3 + 0.123
	sameComposition(t, got, want, lo, offset, 1e-15)
}

// TestCountDifferences: groups of several counts, composed by lapProduct
// as running products raised to the differences of the counts (Π φ_g^{c_g}
// = Π_j P_j^{c_j − c_{j+1}}), give the convolution by the definition of
// every release: counts that repeat, that differ by one and by more, and
// split and aligned lower atoms (whose e^{iθn} comes from the table).
func TestCountDifferences(t *testing.T) {
	h := 0.01
	groups := []struct {
		eps   float64
		count int64
	}{{0.3, 5}, {0.123, 5}, {0.05, 3}, {0.2, 2}, {0.077, 1}, {0.41, 1}}
	var parts []part
	var want []float64
	lo, offset := 0, 0.0
	for _, g := range groups {
		p, ok := laplace{g.eps}.parts(h, tail)
		if !ok {
			t.Fatalf("%v: does not fit", g.eps)
		}
		parts = append(parts, part{lap: p, count: g.count})
		d := p.dist(h)
		for range g.count {
			if want == nil {
				want = d.p
			} else {
				want = direct(want, d.p)
			}
			lo += d.lo
			offset += g.eps
		}
	}
	var conv convolver
	got := composeParts(parts, h, &conv)
	sameComposition(t, got, want, lo, offset, 1e-14)
}

// sameComposition fails t unless got, a composition's distribution, has
// the offset offset (within offsetTol) and the masses want from index lo
// on, each within 10⁻¹⁵.
func sameComposition(t *testing.T, got *dist, want []float64, lo int, offset, offsetTol float64) {
	t.Helper()
	if math.Abs(got.offset-offset) > offsetTol {
		t.Fatalf("offset %v, want %v", got.offset, offset)
	}
	for i, v := range want {
		j := lo + i - got.lo
		g := 0.0
		if j >= 0 && j < len(got.p) {
			g = got.p[j]
		}
		if math.Abs(g-v) > 1e-15 {
			t.Errorf("index %d: %v, want %v", lo+i, g, v)
		}
	}
}

// direct is the convolution by the definition.
func direct(a, b []float64) []float64 {
	r := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		for j, y := range b {
			r[i+j] += float64(x * y)
		}
	}
	return r
}

// TestLaplaceStats: a Laplace group's mean, variance and reach from the
// geometric sums (lapParts.stats) are those of its masses summed point by
// point, to 10⁻¹², from ε = 10⁻⁹ to beyond the truncation depth.
func TestLaplaceStats(t *testing.T) {
	const tol = 1e-12
	for _, e := range []float64{1e-9, 1e-4, 0.003, 0.05, 0.3, 1, 5, 30, 44, 50} {
		for _, h := range []float64{1e-4, 7e-4, 0.002, 0.01, 0.1, 1} {
			p, ok := laplace{e}.parts(h, tail)
			if !ok || p.n > 1<<16 {
				continue
			}
			m, v, r := p.stats(h, num.Exp(-h/2))
			m0, v0, r0 := p.statsLoop(h)
			if d := max(math.Abs(m-m0)/math.Abs(m0), math.Abs(v-v0)/v0, math.Abs(r-r0)/r0); !(d <= tol) {
				t.Errorf("ε = %g, h = %g (%d points): mean %g, variance %g, reach %g; point by point %g, %g, %g",
					e, h, p.n+1, m, v, r, m0, v0, r0)
			}
		}
	}
}

// statsLoop is lapParts.stats point by point: the mean, then the
// variance about it.
func (p lapParts) statsLoop(h float64) (mean, vari, reach float64) {
	r := math.Exp(-h / 2)
	var m0, m1 float64
	rj := 1.0
	for j := 0; j <= p.n; j++ {
		v := p.mass(j, rj)
		m0 += v
		m1 += float64(v * (-float64(j) * h))
		rj *= r
	}
	mean = m1 / m0
	var m2 float64
	rj = 1.0
	for j := 0; j <= p.n; j++ {
		x := float64(-float64(j)*h) - mean
		m2 += float64(p.mass(j, rj) * x * x)
		rj *= r
	}
	return mean, m2 / m0, max(-mean, float64(float64(p.n)*h)+mean)
}

// TestFusedStages: complexFFT, which does its dense stages two at a time
// (fusedStages), gives the bits of every stage done in its own pass
// (stagewise, the loop it had), for lengths from 4 to 2¹⁵ and bands from
// one frequency to none.
func TestFusedStages(t *testing.T) {
	s := rng.NewStream(1, "pld/fused")
	for _, n := range []int{4, 8, 16, 64, 1024, 1 << 15} {
		p := planFor(n)
		m := n / 2
		for _, band := range []int{0, 1, 2, 5, 50, m / 4, m / 2} {
			if band > m/2 || band > 0 && m < 4 {
				continue
			}
			re, im := make([]float64, m), make([]float64, m)
			for k := range m {
				// With a band, the input is 0 from band to m − band in
				// natural order, and given in bit-reversed order.
				if band == 0 || k < band || k > m-band {
					j := k
					if band > 0 {
						j = int(p.rev[k])
					}
					re[j], im[j] = s.Float64()-0.5, s.Float64()-0.5
				}
			}
			wr, wi := append([]float64(nil), re...), append([]float64(nil), im...)
			p.complexFFT(re, im, band)
			stagewise(p, wr, wi, band)
			for k := range m {
				if math.Float64bits(re[k]) != math.Float64bits(wr[k]) || math.Float64bits(im[k]) != math.Float64bits(wi[k]) {
					t.Fatalf("n = %d, band %d: [%d] = %v%+vi, stage by stage %v%+vi", n, band, k, re[k], im[k], wr[k], wi[k])
				}
			}
		}
	}
}

// stagewise is complexFFT with every stage in its own pass.
func stagewise(p *plan, re, im []float64, band int) {
	m := len(re)
	if band == 0 {
		for i, r := range p.rev {
			if j := int(r); i < j {
				re[i], re[j] = re[j], re[i]
				im[i], im[j] = im[j], im[i]
			}
		}
	}
	off := 0
	for s := 2; s <= m; s *= 2 {
		h := s / 2
		wr, wi := p.stageRe[off:off+h], p.stageIm[off:off+h]
		off += h
		for start := 0; start < m; start += s {
			for j := range h {
				xr, xi := re[start+h+j], im[start+h+j]
				tr := float64(wr[j]*xr) - float64(wi[j]*xi)
				ti := float64(wr[j]*xi) + float64(wi[j]*xr)
				re[start+h+j] = re[start+j] - tr
				im[start+h+j] = im[start+j] - ti
				re[start+j] += tr
				im[start+j] += ti
			}
		}
	}
}
