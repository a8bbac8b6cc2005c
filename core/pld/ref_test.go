package pld

// Two references for the accountant, independent of its code: they share
// no discretization, no transform and no special function with it (they
// use the standard library's math.Erfc, math.Exp and math/cmplx).
//
//  1. cfDelta: the exact moment generating functions of the privacy
//     losses, multiplied and inverted once along the line Re z = c through
//     the saddle point (the characteristic-function accountant of Zhu, Dong
//     & Wang 2022, with a damped kernel): no discretization of any loss,
//     only a quadrature whose error it measures itself.
//  2. convBracket: the noise itself, discretized on a fine grid and
//     convolved, rounded down and up: the exact δ lies between the two
//     (used for up to a few dozen Laplace releases, where the losses still
//     have atoms the quadrature converges slowly on).

import (
	"math"
	"math/cmplx"
)

// refRelease is one group of releases for the references: n releases of
// ratio r (Laplace ε or Gaussian μ).
type refRelease struct {
	gauss bool
	r     float64
	n     float64
}

// logMGF returns ln E_P[e^{zL}] for the composition, z = c + it, c > 0.
func logMGF(rs []refRelease, z complex128) complex128 {
	var s complex128
	for _, x := range rs {
		n := complex(x.n, 0)
		if x.gauss {
			m2 := complex(x.r*x.r, 0)
			s += n * (z*m2/2 + z*z*m2/2)
			continue
		}
		// L has an atom ½ at ε, an atom ½e^{−ε} at −ε and the density
		// ¼e^{−(ε−x)/2} between: E e^{zL} = e^{zε}·[½ + ½e^{−(1+2z)ε} +
		// ¼(1 − e^{−(1+2z)ε})/(z + ½)].
		e := complex(x.r, 0)
		q := cmplx.Exp(-(1 + 2*z) * e)
		s += n * (z*e + cmplx.Log(0.5+0.5*q+0.25*(1-q)/(z+0.5)))
	}
	return s
}

// cfDelta returns δ(eps) of the composition: with g(x) = (1 − e^{−x})₊,
// whose damped transform is 1/((c+it)(1+c+it)),
//
//	δ(ε) = E g(L − ε) = (1/π)·∫₀^∞ Re[e^{−(c+it)ε}·M(c+it)/((c+it)(1+c+it))] dt,
//
// evaluated by the trapezoid rule (exponentially accurate for such
// integrands) with c at the saddle point, the step from the spread of the
// tilted law and the range until the integrand is below 10⁻¹⁸ of its
// start. It also returns the difference made by halving the step and
// doubling the range, its own error.
func cfDelta(rs []refRelease, eps float64) (delta, selfErr float64) {
	phi := func(c float64) float64 {
		return real(logMGF(rs, complex(c, 0))) - float64(c*eps) - math.Log(c*(1+c))
	}
	// Golden-section search on ln c.
	a, b := math.Log(1e-6), math.Log(60.0)
	g := (math.Sqrt(5) - 1) / 2
	for range 80 {
		x1, x2 := b-float64(g*(b-a)), a+float64(g*(b-a))
		if phi(math.Exp(x1)) < phi(math.Exp(x2)) {
			b = x2
		} else {
			a = x1
		}
	}
	c := math.Exp((a + b) / 2)
	// The tilted law's variance, (ln M)''(c), by central differences.
	hd := float64(1e-4 * c)
	v := (real(logMGF(rs, complex(c+hd, 0))) - float64(2*real(logMGF(rs, complex(c, 0)))) + real(logMGF(rs, complex(c-hd, 0)))) / (hd * hd)
	sd := math.Sqrt(math.Max(v, 1e-30))
	// The step must make the aliased copies, 2π/step away, negligible:
	// weights e^{−c·P} on one side and the tilted tail on the other.
	period := math.Max(80/c, float64(60*sd)+60)
	integrate := func(step float64, stretch float64) float64 {
		f := func(t float64) float64 {
			z := complex(c, t)
			return real(cmplx.Exp(logMGF(rs, z)-z*complex(eps, 0)) / (z * (1 + z)))
		}
		f0 := f(0)
		s := f0 / 2
		quiet := 0
		for k := 1; k < 2_000_000; k++ {
			t := float64(k) * step
			y := f(t)
			s += y
			// Stop once the bound |M(c+it)|·e^{−cε}/|z(1+z)| on the
			// integrand stays below 10⁻¹⁸ of the start for a while.
			if k%8 != 0 {
				continue
			}
			z := complex(c, t)
			bound := math.Exp(real(logMGF(rs, z))-float64(c*eps)) / cmplx.Abs(z*(1+z))
			if bound < 1e-18*math.Abs(f0) {
				quiet += 8
			} else {
				quiet = 0
			}
			if float64(quiet)*step > stretch/sd && k > 50 {
				break
			}
		}
		return s * step / math.Pi
	}
	step := 2 * math.Pi / period
	d1 := integrate(step, 2)
	d2 := integrate(step/2, 4)
	return d2, math.Abs(d2 - d1)
}

// cfEpsilon inverts cfDelta: ε with δ(ε) = delta, to a relative 10⁻¹⁰,
// by the Illinois variant of regula falsi on ln δ(ε) (nearly linear in ε
// there), from a bracket found in steps of two standard deviations of the
// loss from its mean. It also returns the largest relative self-error of
// the evaluations it used.
func cfEpsilon(rs []refRelease, delta float64) (eps, selfErr float64) {
	f := func(e float64) float64 {
		d, se := cfDelta(rs, e)
		selfErr = math.Max(selfErr, se/math.Max(d, 1e-300))
		return math.Log(math.Max(d, 1e-300)) - math.Log(delta)
	}
	var mean, vari, top float64
	for _, x := range rs {
		if x.gauss {
			mean += float64(x.n * x.r * x.r / 2)
			vari += float64(x.n * x.r * x.r)
			top = math.Inf(1)
			continue
		}
		e := x.r
		top += float64(x.n * e)
		m := -0.5 * math.Expm1(-e)
		mean += float64(x.n * (e - float64(2*m)))
		vari += float64(x.n * 4 * (-math.Expm1(-e) - float64(e*math.Exp(-e)) - float64(m*m)))
	}
	sd := math.Sqrt(vari)
	return invertLog(f, delta, math.Max(mean, 0)+2*sd, 2*sd, top), selfErr
}

// invertLog returns the ε ≥ 0 at which a decreasing δ(ε) crosses delta,
// given f(ε) = ln δ(ε) − ln delta, to a relative 10⁻¹⁰: the bracket grows
// from start in steps of step (δ is 0 from top on), then the Illinois
// variant of regula falsi closes it (ln δ is nearly linear in ε).
func invertLog(f func(float64) float64, delta, start, step, top float64) float64 {
	lo, hi := 0.0, start
	flo, fhi := f(lo), f(hi)
	if flo <= 0 {
		return 0
	}
	for fhi > 0 {
		lo, flo = hi, fhi
		hi += step
		if hi >= top {
			// δ is 0 from the largest loss on (and the quadrature
			// converges slowly near it, on the atoms of the loss).
			hi, fhi = top, math.Log(1e-300)-math.Log(delta)
			break
		}
		fhi = f(hi)
	}
	side := 0
	for range 200 {
		x := hi - fhi*(hi-lo)/(fhi-flo)
		if hi-lo < 1e-10*hi {
			return x
		}
		fx := f(x)
		if fx > 0 {
			lo, flo = x, fx
			if side == 1 {
				fhi /= 2
			}
			side = 1
		} else {
			hi, fhi = x, fx
			if side == -1 {
				flo /= 2
			}
			side = -1
		}
	}
	return hi
}

// gaussProfile is δ(ε) of a μ-GDP mechanism for any real ε, from the
// standard library (the closed form of Balle & Wang 2018).
func gaussProfile(mu, eps float64) float64 {
	if mu == 0 {
		if eps < 0 {
			return -math.Expm1(eps)
		}
		return 0
	}
	return float64(0.5*math.Erfc((eps/mu-float64(mu/2))/math.Sqrt2)) - float64(math.Exp(eps)*0.5*math.Erfc((eps/mu+float64(mu/2))/math.Sqrt2))
}

// bracket is a discretized law of Y = Σ_j U_j, U_j = min(max(o_j, 0), ε_j)
// for standard Laplace noise o_j: the Laplace losses compose to
// L = Σ ε_j − 2Y, so Y rounded down gives L rounded up (an upper bound on
// δ) and Y rounded up a lower bound.
type bracket struct {
	g    float64   // grid of Y
	p    []float64 // P(Y = i·g)
	sumE float64   // Σ ε_j
	mu   float64   // the Gaussian part's μ (0 if none)
}

// convBracket returns the laws of Y rounded down (upper) and up (lower)
// on the grid g, for Laplace releases eps (one per release) composed with
// a Gaussian part of parameter mu.
func convBracket(eps []float64, mu, g float64) (upper, lower bracket) {
	up, dn := []float64{1}, []float64{1}
	sum := 0.0
	for _, e := range eps {
		sum += e
		m := int(math.Ceil(e / g))
		ku, kd := make([]float64, m+1), make([]float64, m+1)
		// Atom ½ at 0.
		ku[0] += 0.5
		kd[0] += 0.5
		// Density ½e^{−u} on (0, ε): cell [ig, min((i+1)g, ε)).
		for i := 0; i < m; i++ {
			a, b := float64(i)*g, math.Min(float64(i+1)*g, e)
			w := float64(0.5 * (math.Exp(-a) - math.Exp(-b)))
			kd[i] += w   // rounded down: to the cell's bottom
			ku[i+1] += w // rounded up: to its top (past ε for the last)
		}
		// Atom ½e^{−ε} at ε.
		at := float64(0.5 * math.Exp(-e))
		kd[int(math.Floor(e/g))] += at
		ku[m] += at
		up = refConvolve(up, kd)
		dn = refConvolve(dn, ku)
	}
	return bracket{g: g, p: up, sumE: sum, mu: mu}, bracket{g: g, p: dn, sumE: sum, mu: mu}
}

// delta returns δ(eps) of the discretized composition.
func (b bracket) delta(eps float64) float64 {
	s := 0.0
	for i, v := range b.p {
		l := b.sumE - float64(2*float64(i)*b.g)
		if b.mu > 0 {
			s += float64(v * gaussProfile(b.mu, eps-l))
		} else if l > eps {
			s += float64(v * -math.Expm1(eps-l))
		}
	}
	return s
}

// epsilon inverts delta.
func (b bracket) epsilon(delta float64) float64 {
	top := b.sumE
	if b.mu > 0 {
		top = math.Inf(1)
	}
	f := func(e float64) float64 { return math.Log(math.Max(b.delta(e), 1e-300)) - math.Log(delta) }
	return invertLog(f, delta, float64(b.sumE/2)+float64(b.mu*b.mu/2)+b.mu, float64(b.sumE/4)+b.mu+0.1, top)
}

// refConvolve is a linear convolution by a plain recursive radix-2 FFT on
// complex128 (nothing shared with fft.go), or by the definition when one
// side is short.
func refConvolve(a, b []float64) []float64 {
	out := len(a) + len(b) - 1
	if len(a) < 64 || len(b) < 64 {
		r := make([]float64, out)
		for i, x := range a {
			for j, y := range b {
				r[i+j] += float64(x * y)
			}
		}
		return r
	}
	n := 1
	for n < out {
		n *= 2
	}
	fa, fb := make([]complex128, n), make([]complex128, n)
	for i, x := range a {
		fa[i] = complex(x, 0)
	}
	for i, x := range b {
		fb[i] = complex(x, 0)
	}
	refFFT(fa, false)
	refFFT(fb, false)
	for i := range fa {
		fa[i] *= fb[i]
	}
	refFFT(fa, true)
	r := make([]float64, out)
	for i := range r {
		r[i] = math.Max(real(fa[i])/float64(n), 0)
	}
	return r
}

// refFFT is the textbook iterative radix-2 transform (bit reversal, then
// butterflies with a twiddle from math.Sincos each), unnormalized.
func refFFT(x []complex128, inverse bool) {
	n := len(x)
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			x[i], x[j] = x[j], x[i]
		}
	}
	sign := -1.0
	if inverse {
		sign = 1
	}
	for size := 2; size <= n; size <<= 1 {
		for k := range size / 2 {
			s, c := math.Sincos(sign * 2 * math.Pi * float64(k) / float64(size))
			w := complex(c, s)
			for start := 0; start < n; start += size {
				a, b := x[start+k], w*x[start+k+size/2]
				x[start+k], x[start+k+size/2] = a+b, a-b
			}
		}
	}
}
