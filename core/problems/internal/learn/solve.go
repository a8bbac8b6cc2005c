package learn

import (
	"errors"
	"fmt"
	"math"
)

// Func is a smooth convex function for the solvers: Eval returns F(x)
// and writes ∇F(x) into g.
type Func func(x, g []float64) float64

// Hessian writes ∇²F(x) into h (d×d, row-major), for Newton.
type Hessian func(x, h []float64)

// ErrNoConvergence is wrapped by a solver that stops at its iteration cap
// before its residual reaches the tolerance.
var ErrNoConvergence = errors.New("the central solver did not converge")

// Norm returns the Euclidean norm of v.
func Norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x * x)
	}
	return math.Sqrt(s)
}

// Newton minimises a strongly convex F from x (changed in place) by
// Newton's method with a hand-written Cholesky solve and a backtracking
// (Armijo) line search, until ‖∇F(x)‖ ≤ tol. It returns the iterations
// used.
func Newton(f Func, hess Hessian, x []float64, tol float64, maxIter int) (int, error) {
	d := len(x)
	g, h, p := make([]float64, d), make([]float64, d*d), make([]float64, d)
	xt, gt := make([]float64, d), make([]float64, d)
	fx := f(x, g)
	for it := 0; it < maxIter; it++ {
		if Norm(g) <= tol {
			return it, nil
		}
		hess(x, h)
		for j := range p {
			p[j] = -g[j]
		}
		if err := CholeskySolve(h, p); err != nil {
			return it, err
		}
		slope := 0.0
		for j := range p {
			slope += float64(g[j] * p[j])
		}
		t := 1.0
		for range 60 {
			for j := range x {
				xt[j] = x[j] + float64(t*p[j])
			}
			ft := f(xt, gt)
			// Near the optimum F's decrease sinks under rounding; accept a
			// full step there when the gradient shrinks instead.
			if ft <= fx+float64(1e-4*t*slope) || (t == 1 && Norm(gt) < Norm(g)) {
				copy(x, xt)
				copy(g, gt)
				fx = ft
				break
			}
			t /= 2
		}
		if t < 1e-15 {
			break
		}
	}
	if Norm(g) <= tol {
		return maxIter, nil
	}
	return maxIter, fmt.Errorf("%w: Newton stopped at ‖∇F‖ = %.3g > %.3g", ErrNoConvergence, Norm(g), tol)
}

// CholeskySolve overwrites b with the solution of h·x = b for symmetric
// positive definite h (d×d, row-major; overwritten by its factor).
func CholeskySolve(h, b []float64) error {
	if err := Cholesky(h, len(b)); err != nil {
		return err
	}
	CholeskyApply(h, len(b), b)
	return nil
}

// Cholesky overwrites the lower triangle of the symmetric positive
// definite h (d×d, row-major) with its factor G, h = G·Gᵀ.
func Cholesky(h []float64, d int) error {
	for j := range d {
		s := h[j*d+j]
		for k := range j {
			s -= float64(h[j*d+k] * h[j*d+k])
		}
		if !(s > 0) {
			return errors.New("the Hessian is not positive definite (numerically)")
		}
		h[j*d+j] = math.Sqrt(s)
		for i := j + 1; i < d; i++ {
			s := h[i*d+j]
			for k := range j {
				s -= float64(h[i*d+k] * h[j*d+k])
			}
			h[i*d+j] = s / h[j*d+j]
		}
	}
	return nil
}

// CholeskyApply overwrites b with the solution of G·Gᵀ·x = b, G the
// factor Cholesky left in h (d×d).
func CholeskyApply(h []float64, d int, b []float64) {
	for i := range d { // G y = b
		s := b[i]
		for k := range i {
			s -= float64(h[i*d+k] * b[k])
		}
		b[i] = s / h[i*d+i]
	}
	for i := d - 1; i >= 0; i-- { // Gᵀ x = y
		s := b[i]
		for k := i + 1; k < d; k++ {
			s -= float64(h[k*d+i] * b[k])
		}
		b[i] = s / h[i*d+i]
	}
}

// LBFGS minimises F from x (changed in place) by limited-memory BFGS
// with mem correction pairs and a backtracking line search satisfying
// Armijo's condition, until ‖∇F(x)‖ ≤ tol. It returns the iterations
// used.
func LBFGS(f Func, x []float64, mem int, tol float64, maxIter int) (int, error) {
	d := len(x)
	g, p := make([]float64, d), make([]float64, d)
	xt, gt := make([]float64, d), make([]float64, d)
	s, y := make([][]float64, 0, mem), make([][]float64, 0, mem)
	rho := make([]float64, 0, mem)
	alpha := make([]float64, mem)
	fx := f(x, g)
	for it := 0; it < maxIter; it++ {
		if Norm(g) <= tol {
			return it, nil
		}
		// Two-loop recursion: p = −H·g.
		copy(p, g)
		for k := len(s) - 1; k >= 0; k-- {
			alpha[k] = rho[k] * Dot(s[k], p)
			axpy(-alpha[k], y[k], p)
		}
		if k := len(s) - 1; k >= 0 {
			scale(Dot(s[k], y[k])/Dot(y[k], y[k]), p)
		} else {
			scale(1/math.Max(Norm(g), 1), p)
		}
		for k := range s {
			b := float64(rho[k] * Dot(y[k], p))
			axpy(alpha[k]-b, s[k], p)
		}
		scale(-1, p)
		slope := Dot(g, p)
		if slope >= 0 { // not a descent direction: restart from −g
			s, y, rho = s[:0], y[:0], rho[:0]
			copy(p, g)
			scale(-1/math.Max(Norm(g), 1), p)
			slope = Dot(g, p)
		}
		t := 1.0
		ok := false
		for range 60 {
			for j := range x {
				xt[j] = x[j] + float64(t*p[j])
			}
			ft := f(xt, gt)
			// Near the optimum F's decrease sinks under rounding; accept a
			// step there that keeps F within rounding and shrinks ∇F.
			if ft <= fx+float64(1e-4*t*slope) || (ft <= fx+float64(1e-15*math.Abs(fx)) && Norm(gt) < Norm(g)) {
				ok = true
				fx = ft
				break
			}
			t /= 2
		}
		if !ok {
			break
		}
		var sk, yk []float64
		if len(s) == mem {
			sk, yk = s[0], y[0]
			s, y, rho = append(s[:0], s[1:]...), append(y[:0], y[1:]...), append(rho[:0], rho[1:]...)
		} else {
			sk, yk = make([]float64, d), make([]float64, d)
		}
		for j := range x {
			sk[j] = xt[j] - x[j]
			yk[j] = gt[j] - g[j]
		}
		copy(x, xt)
		copy(g, gt)
		if sy := Dot(sk, yk); sy > 1e-300 {
			s, y, rho = append(s, sk), append(y, yk), append(rho, 1/sy)
		}
	}
	if Norm(g) <= tol {
		return maxIter, nil
	}
	return maxIter, fmt.Errorf("%w: L-BFGS stopped at ‖∇F‖ = %.3g > %.3g", ErrNoConvergence, Norm(g), tol)
}

// Curvature returns, at the point x, the Hessian-vector product
// hv(v, out): out = ∇²F(x)·v, and a preconditioner prec(r, out): out =
// M⁻¹·r for a symmetric positive definite M ≈ ∇²F(x), for NewtonCG. Both
// are evaluated at x and may keep state of x (e.g. the class
// probabilities) until Curvature is called again.
type Curvature func(x []float64) (hv, prec func(v, out []float64))

// CGStats counts NewtonCG's work: Newton steps, Hessian-vector products
// and evaluations of F (with its gradient).
type CGStats struct {
	Steps, Products, Evals int
}

// NewtonCG minimises a strongly convex F from x (changed in place) by
// line-search Newton-CG (Nocedal & Wright, Algorithm 7.1): each Newton
// system ∇²F·p = −∇F is solved by conjugate gradients preconditioned by
// the Curvature's M, only to the relative residual η = min(½, √‖∇F‖)
// (Nocedal & Wright, Theorem 7.2: superlinear convergence without ever
// forming the Hessian; on MNIST softmax this forcing needs 177 products
// where η = min(½, ‖∇F‖), quadratic, needs 260), then a backtracking (Armijo) line search, until
// ‖∇F(x)‖ ≤ tol. maxIter bounds the Newton steps; every step is
// deterministic (no randomness, fixed orders).
func NewtonCG(f Func, curv Curvature, x []float64, tol float64, maxIter int) (CGStats, error) {
	d := len(x)
	g, p, r, z, dir, hd := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	xt, gt := make([]float64, d), make([]float64, d)
	var st CGStats
	fx := f(x, g)
	st.Evals++
	for ; st.Steps < maxIter; st.Steps++ {
		gn := Norm(g)
		if gn <= tol {
			return st, nil
		}
		hv, prec := curv(x)
		// Conjugate gradients on ∇²F·p = −g from p = 0, r = ∇²F·p + g.
		eta := math.Min(0.5, math.Sqrt(gn))
		stop := math.Max(eta*gn, tol/4)
		clear(p)
		copy(r, g)
		prec(r, z)
		rz := Dot(r, z)
		for j := range z {
			dir[j] = -z[j]
		}
		for k := 0; k < 4*d; k++ {
			hv(dir, hd)
			st.Products++
			dhd := Dot(dir, hd)
			if !(dhd > 0) {
				if k == 0 { // no curvature along −g: a gradient step
					copy(p, dir)
				}
				break
			}
			a := rz / dhd
			axpy(a, dir, p)
			axpy(a, hd, r)
			if Norm(r) <= stop {
				break
			}
			prec(r, z)
			rz1 := Dot(r, z)
			b := rz1 / rz
			rz = rz1
			for j := range dir {
				dir[j] = float64(b*dir[j]) - z[j]
			}
		}
		slope := Dot(g, p)
		t := 1.0
		ok := false
		for range 60 {
			for j := range x {
				xt[j] = x[j] + float64(t*p[j])
			}
			ft := f(xt, gt)
			st.Evals++
			// Near the optimum F's decrease sinks under rounding; accept a
			// full step there when the gradient shrinks instead.
			if ft <= fx+float64(1e-4*t*slope) || (t == 1 && Norm(gt) < gn) {
				copy(x, xt)
				copy(g, gt)
				fx = ft
				ok = true
				break
			}
			t /= 2
		}
		if !ok {
			break
		}
	}
	if Norm(g) <= tol {
		return st, nil
	}
	return st, fmt.Errorf("%w: Newton-CG stopped at ‖∇F‖ = %.3g > %.3g after %d steps", ErrNoConvergence, Norm(g), tol, st.Steps)
}

// Prox is the proximal operator of a convex r: out = argmin_u r(u) +
// ‖u − x‖²/(2·step).
type Prox func(x []float64, step float64, out []float64)

// Residual returns the prox-gradient fixed-point residual of F = g + r
// at x: ‖x − prox_{r,t}(x − t∇g(x))‖/t, zero exactly at a minimiser.
func Residual(f Func, prox Prox, t float64, x []float64) float64 {
	d := len(x)
	g, u := make([]float64, d), make([]float64, d)
	f(x, g)
	for j := range u {
		u[j] = x[j] - float64(t*g[j])
	}
	prox(u, t, u)
	for j := range u {
		u[j] = x[j] - u[j]
	}
	return Norm(u) / t
}

// FISTA minimises F = g + r from x (changed in place) by accelerated
// proximal gradient with step 1/lip (lip ≥ the smoothness of g) and
// gradient-based adaptive restart (O'Donoghue & Candès, 2015), until the
// fixed-point residual ‖x − prox(x − ∇g(x)/lip)‖·lip ≤ tol. It returns
// the iterations used.
func FISTA(f Func, prox Prox, lip float64, x []float64, tol float64, maxIter int) (int, error) {
	d := len(x)
	t := 1 / lip
	yv, g, xn := append([]float64(nil), x...), make([]float64, d), make([]float64, d)
	theta := 1.0
	for it := 0; it < maxIter; it++ {
		f(yv, g)
		for j := range xn {
			xn[j] = yv[j] - float64(t*g[j])
		}
		prox(xn, t, xn)
		// Residual at y: the gradient map's size, a KKT measure.
		res := 0.0
		restart := 0.0
		for j := range xn {
			dj := yv[j] - xn[j]
			res += float64(dj * dj)
			restart += float64(dj * (xn[j] - x[j]))
		}
		if math.Sqrt(res)/t <= tol {
			copy(x, xn)
			if Residual(f, prox, t, x) <= tol {
				return it, nil
			}
		}
		thetaN := (1 + math.Sqrt(1+float64(4*theta*theta))) / 2
		mom := (theta - 1) / thetaN
		if restart > 0 { // the momentum points uphill: restart it
			thetaN, mom = 1, 0
		}
		for j := range yv {
			yv[j] = xn[j] + float64(mom*(xn[j]-x[j]))
		}
		copy(x, xn)
		theta = thetaN
	}
	if r := Residual(f, prox, t, x); r <= tol {
		return maxIter, nil
	} else {
		return maxIter, fmt.Errorf("%w: proximal gradient stopped at residual %.3g > %.3g", ErrNoConvergence, r, tol)
	}
}

// Dot returns aᵀb.
func Dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += float64(v * b[i])
	}
	return s
}

func axpy(c float64, a, out []float64) {
	for i, v := range a {
		out[i] += float64(c * v)
	}
}

func scale(c float64, a []float64) {
	for i := range a {
		a[i] *= c
	}
}
