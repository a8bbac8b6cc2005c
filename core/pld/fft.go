package pld

import (
	"math"
	"math/bits"
	"sync"

	"dpsim/core/num"
)

// The accountant convolves probability vectors of up to a million points.
// It uses its own radix-2 transform rather than gonum's dsp/fourier
// (BenchmarkFFT, docs/privacy-truth.md): gonum's FFT type (FFTPACK) took 3
// to 5 times longer natively and under js/wasm; gonum's radix-2 functions,
// about as fast as this one, compute their twiddle factors by repeated
// multiplication, which their documentation warns loses accuracy on long
// inputs, and the masses that decide δ are 10⁻⁸ to 10⁻¹² of the total;
// and neither rounds its products apart from its additions, so under a
// build that fuses multiply-adds the bits would change (core/num explains
// why that matters). Twiddles here come from math.Sincos, one per index,
// exact to an ulp, and every product is rounded before its addition.

// plan holds one transform size's tables: a real transform of length n
// done as a complex transform of length n/2.
type plan struct {
	n       int
	cos     []float64 // e^{−2πik/n} = cos[k] + i·sin[k], k < n/2
	sin     []float64
	stageRe []float64 // the complex transform's twiddles, stage by stage, contiguous
	stageIm []float64
	rev     []int32 // bit reversal of the complex length n/2
}

var (
	plansMu sync.Mutex
	plans   = map[int]*plan{}
)

// planFor returns the cached plan of a power-of-two length n ≥ 4.
func planFor(n int) *plan {
	plansMu.Lock()
	defer plansMu.Unlock()
	if p := plans[n]; p != nil {
		return p
	}
	m := n / 2
	p := &plan{n: n, cos: make([]float64, m), sin: make([]float64, m), rev: make([]int32, m)}
	for k := range m {
		p.sin[k], p.cos[k] = num.Sincos(-2 * math.Pi * float64(k) / float64(n))
	}
	shift := bits.LeadingZeros(uint(m)) + 1
	for i := range m {
		p.rev[i] = int32(bits.Reverse(uint(i)) >> shift)
	}
	// The complex transform's stage of span s uses e^{−2πij/s} =
	// e^{−2πi(j·n/s)/n}, j < s/2.
	for s := 2; s <= m; s *= 2 {
		for j := range s / 2 {
			p.stageRe = append(p.stageRe, p.cos[j*(n/s)])
			p.stageIm = append(p.stageIm, p.sin[j*(n/s)])
		}
	}
	plans[n] = p
	return p
}

// complexFFT transforms (re, im), of length n/2, in place: the unnormalized
// forward DFT, decimation in time. With band > 0 the input is 0 at every
// index k with band ≤ k ≤ m − band (a composition whose high frequencies
// died) and (re, im) hold it already in bit-reversed order (inverseBand
// writes it there): a stage's block of span s holds the inputs
// k ≡ r (mod m/s), r the bit reversal of its start, and a block all of
// whose inputs are 0 stays 0, so only the others are visited — half the
// butterflies when fifty frequencies of thousands live, and the same bits.
func (p *plan) complexFFT(re, im []float64, band int) {
	m := len(re)
	im = im[:m]
	if band == 0 {
		for i, r := range p.rev {
			if j := int(r); i < j {
				re[i], re[j] = re[j], re[i]
				im[i], im[j] = im[j], im[i]
			}
		}
	}
	logM := bits.Len(uint(m)) - 1
	off := 0
	for s, lg := 2, 1; s <= m; s, lg = s*2, lg+1 {
		h := s / 2
		wr, wi := p.stageRe[off:off+h], p.stageIm[off:off+h]
		off += h
		blocks := m / s
		// With a band, only the blocks whose reversed start r is below
		// band or above blocks − band hold anything: block b has r = b
		// reversed over log₂ blocks bits, so b is r reversed. The
		// butterflies stay in this loop: a call per block (half the
		// length at the first stage) cost more than them under js/wasm.
		sparse := band > 0 && blocks >= 2*band
		if !sparse && 2*s <= m {
			// This stage and the next in one pass (every stage after a
			// dense one is dense): each value is loaded and stored once
			// for two stages, with each butterfly's arithmetic as in two
			// passes (the same bits; TestFusedStages).
			wr2, wi2 := p.stageRe[off:off+s], p.stageIm[off:off+s]
			off += s
			fusedStages(re, im, wr, wi, wr2, wi2, h)
			s, lg = s*2, lg+1
			continue
		}
		nb, shift := blocks, 0
		if sparse {
			nb, shift = 2*band-1, bits.UintSize-(logM-lg)
		}
		for i := range nb {
			start := i * s
			if sparse {
				r := i
				if i >= band {
					r = blocks - band + 1 + (i - band)
				}
				start = int(bits.Reverse(uint(r))>>shift) * s
			}
			ar, ai := re[start:start+h], im[start:start+h]
			// Every slice of the block resliced to h, so that the loop
			// needs no bounds checks (each one a compare and branch per
			// butterfly under js/wasm).
			br, bi := re[start+h : start+s][:h], im[start+h : start+s][:h]
			ar, ai, wr, wi := ar[:h], ai[:h], wr[:h], wi[:h]
			for j := range h {
				xr, xi := br[j], bi[j]
				tr := float64(wr[j]*xr) - float64(wi[j]*xi)
				ti := float64(wr[j]*xi) + float64(wi[j]*xr)
				br[j] = ar[j] - tr
				bi[j] = ai[j] - ti
				ar[j] += tr
				ai[j] += ti
			}
		}
	}
}

// fusedStages does complexFFT's dense stages of spans 2h and 4h in one
// pass over (re, im): a block of span 4h is four quarters a, b, c, d; the
// first stage pairs (a, b) and (c, d) with its twiddles w1 (length h), the
// second (a, c) and (b, d) with its twiddles w2 (length 2h, the first
// half for (a, c), the second for (b, d)).
func fusedStages(re, im, w1r, w1i, w2r, w2i []float64, h int) {
	m := len(re)
	w1r, w1i = w1r[:h], w1i[:h]
	w2r, w2i = w2r[:2*h], w2i[:2*h]
	for start := 0; start+4*h <= m; start += 4 * h {
		ar, ai := re[start:start+h], im[start:start+h]
		br, bi := re[start+h : start+2*h][:h], im[start+h : start+2*h][:h]
		cr, ci := re[start+2*h : start+3*h][:h], im[start+2*h : start+3*h][:h]
		dr, di := re[start+3*h : start+4*h][:h], im[start+3*h : start+4*h][:h]
		ar, ai = ar[:h], ai[:h]
		vr, vi := w2r[h : 2*h][:h], w2i[h : 2*h][:h]
		for j := range h {
			// The first stage: (a, b) and (c, d) by w1[j].
			xr, xi := br[j], bi[j]
			tr := float64(w1r[j]*xr) - float64(w1i[j]*xi)
			ti := float64(w1r[j]*xi) + float64(w1i[j]*xr)
			a0r, a0i := ar[j], ai[j]
			b1r, b1i := a0r-tr, a0i-ti
			a1r, a1i := a0r+tr, a0i+ti
			xr, xi = dr[j], di[j]
			tr = float64(w1r[j]*xr) - float64(w1i[j]*xi)
			ti = float64(w1r[j]*xi) + float64(w1i[j]*xr)
			c0r, c0i := cr[j], ci[j]
			d1r, d1i := c0r-tr, c0i-ti
			c1r, c1i := c0r+tr, c0i+ti
			// The second: (a, c) by w2[j], (b, d) by w2[h+j].
			tr = float64(w2r[j]*c1r) - float64(w2i[j]*c1i)
			ti = float64(w2r[j]*c1i) + float64(w2i[j]*c1r)
			cr[j], ci[j] = a1r-tr, a1i-ti
			ar[j], ai[j] = a1r+tr, a1i+ti
			tr = float64(vr[j]*d1r) - float64(vi[j]*d1i)
			ti = float64(vr[j]*d1i) + float64(vi[j]*d1r)
			dr[j], di[j] = b1r-tr, b1i-ti
			br[j], bi[j] = b1r+tr, b1i+ti
		}
	}
}

// forward sets (xr, xi), of length n/2 + 1, to the DFT X_k = Σ x_j e^{−2πijk/n}
// of the real x (length n, left as it is), using re, im (length n/2) as
// work space.
func (p *plan) forward(x, re, im, xr, xi []float64) {
	m := p.n / 2
	for k := range m {
		re[k], im[k] = x[2*k], x[2*k+1]
	}
	p.complexFFT(re[:m], im[:m], 0)
	// X_k = E_k + W^k·O_k with E_k = (Z_k + conj Z_{m−k})/2 and
	// O_k = (Z_k − conj Z_{m−k})/(2i), W = e^{−2πi/n}.
	xr[0], xi[0] = re[0]+im[0], 0
	xr[m], xi[m] = re[0]-im[0], 0
	for k := 1; k < m; k++ {
		zr, zi := re[k], im[k]
		cr, ci := re[m-k], -im[m-k]
		er, ei := float64(0.5*(zr+cr)), float64(0.5*(zi+ci))
		// (Z − conj)/(2i) = (d_i − i·d_r)/2 for d = Z − conj.
		or, oi := 0.5*(zi-ci), -0.5*(zr-cr)
		wr, wi := p.cos[k], p.sin[k]
		xr[k] = er + (float64(wr*or) - float64(wi*oi))
		xi[k] = ei + (float64(wr*oi) + float64(wi*or))
	}
}

// inverse sets x (length n) to the real sequence whose DFT is (xr, xi)
// (length n/2 + 1, the other half being their conjugates): the inverse of
// forward, using re, im (length n/2) as work space.
func (p *plan) inverse(xr, xi, re, im, x []float64) { p.inverseBand(xr, xi, re, im, x, 0) }

// inverseBand is inverse for a DFT that is 0 at every k ≥ band (band > 0;
// 0 for none): the complex transform skips what is 0 (complexFFT). x may
// be shorter than n: its first len(x) values are set.
func (p *plan) inverseBand(xr, xi, re, im, x []float64, band int) {
	p.inverseSpectrum(xr, xi, re, im, band)
	// Only the len(x) ≤ n values asked for are written (a composition
	// reads its window, not the whole length).
	s := 1 / float64(p.n/2)
	half := len(x) / 2
	for k := range half {
		x[2*k] = re[k] * s
		x[2*k+1] = -im[k] * s
	}
	if len(x)%2 == 1 {
		x[2*half] = re[half] * s
	}
}

// inverseSpectrum leaves in re, im (length n/2) the complex transform
// whose k-th value times 2/n is x[2k] − i·x[2k+1] (inverseBand).
func (p *plan) inverseSpectrum(xr, xi, re, im []float64, band int) {
	m := p.n / 2
	if band > m/2 {
		band = 0
	}
	// Z_k = E_k + i·O_k with E_k = (X_k + conj X_{m−k})/2 and
	// O_k = (X_k − conj X_{m−k})·conj(W^k)/2; the inverse complex DFT is
	// the conjugate of the forward one of the conjugate. With a band, Z_k
	// is 0 from band to m − band (X is 0 at both k and m − k there): only
	// the ends are computed, and xr, xi are read only there.
	// With a band, Z is written straight to its bit-reversed place among
	// zeros (complexFFT's permutation of the whole length moved zeros).
	lo, hi := m, m
	if band > 0 {
		lo, hi = band, m-band+1
		clear(re[:m])
		clear(im[:m])
	}
	for k := 0; k < m; k++ {
		if k == lo {
			// Skip the zeros (a three-clause loop carries k on).
			if k = hi; k >= m {
				break
			}
		}
		ar, ai := xr[k], xi[k]
		br, bi := xr[m-k], -xi[m-k]
		er, ei := float64(0.5*(ar+br)), float64(0.5*(ai+bi))
		dr, di := 0.5*(ar-br), 0.5*(ai-bi)
		wr, wi := p.cos[k], -p.sin[k]
		or := float64(dr*wr) - float64(di*wi)
		oi := float64(dr*wi) + float64(di*wr)
		// Z = E + i·O; store conj(Z) for the conjugate trick.
		j := k
		if band > 0 {
			j = int(p.rev[k])
		}
		re[j] = er - oi
		im[j] = -(ei + or)
	}
	p.complexFFT(re[:m], im[:m], band)
}

// convolver holds the work buffers of FFT convolutions, so that a
// composition allocates them once.
type convolver struct {
	x, re, im, ar, ai, br, bi []float64
	// composeParts' own: the Laplace groups' squared moduli, the
	// frequencies alive, and u per frequency (lapTransform) of the grid uh.
	mag, uR, uI []float64
	uh          float64
	alive       []int32
	// screen's surviving blocks, block starts and slacks, lapProduct's
	// runs of one count, the Laplace groups both read, and build's parts.
	blocks []int32
	runs   []countRun
	lgs    []lapGroup
	parts  []part // build's
	// laplaceGroups' bucket per ε and group per bucket.
	js    []float64
	order []int // composeParts' order of the parts
	dense []int32
	// bucketsFor's two groupings (laplaceGroups), and each one's largest ε.
	groups [2][]group
	top    []float64
	slack  []float64
	sub    []int32
	next   []int32
}

// convolvers holds the convolvers compositions are done with.
var convolvers = sync.Pool{New: func() any { return new(convolver) }}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

// load sizes the work buffers for a transform of the first power of two
// n ≥ max(size, 4) and returns the plan. x is left as it was: its user
// fills it whole (a leaf's fold clears it, the inverse writes every value).
func (c *convolver) load(size int) *plan {
	n := 4
	for n < size {
		n *= 2
	}
	m := n / 2
	c.x = grow(c.x, n)
	c.re, c.im = grow(c.re, m), grow(c.im, m)
	c.ar, c.ai = grow(c.ar, m+1), grow(c.ai, m+1)
	return planFor(n)
}
