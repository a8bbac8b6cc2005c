package noise

import (
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/num"
)

// Schedule kinds.
const (
	Constant   = "constant"   // c
	Geometric  = "geometric"  // c·r^k
	Polynomial = "polynomial" // c/(m+k)^p
)

// Schedule is a sequence indexed by the iteration k = 0, 1, …: a constant
// c, a geometric c·r^k, or a polynomial c/(m+k)^p. It serves both as a
// noise decay and as a step-size sequence. The zero Schedule is invalid;
// use Const(1) for "no decay".
//
// Powers follow the convention 0^0 = 1, so a geometric schedule with r = 0
// is c at k = 0 and 0 afterwards ("noise at k = 0 only").
type Schedule struct {
	Kind string  `json:"kind" doc:"constant (c), geometric (c·r^k) or polynomial (c/(m+k)^p)"`
	C    float64 `json:"c" doc:"the factor c: the value at k = 0 of a constant or geometric schedule"`
	R    float64 `json:"r,omitempty" doc:"the ratio r of a geometric schedule"`
	M    float64 `json:"m,omitempty" doc:"the shift m of a polynomial schedule"`
	P    float64 `json:"p,omitempty" doc:"the power p of a polynomial schedule"`
}

// Const returns the constant schedule c.
func Const(c float64) Schedule { return Schedule{Kind: Constant, C: c} }

// Geom returns the geometric schedule c·r^k.
func Geom(c, r float64) Schedule { return Schedule{Kind: Geometric, C: c, R: r} }

// Poly returns the polynomial schedule c/(m+k)^p.
func Poly(c, m, p float64) Schedule { return Schedule{Kind: Polynomial, C: c, M: m, P: p} }

// At returns the schedule's value at iteration k.
func (s Schedule) At(k int) float64 {
	if s.C == 0 {
		// Zero at every k, even where r^k or (m+k)^p leaves float64's
		// range (0·∞ and 0/0 would read NaN).
		return 0
	}
	switch s.Kind {
	case Geometric:
		return s.C * num.Pow(s.R, float64(k))
	case Polynomial:
		return s.C / num.Pow(s.M+float64(k), s.P)
	default:
		return s.C
	}
}

// Validate checks the schedule's parameters; field names it in errors.
func (s Schedule) Validate(field string) error {
	if err := check.NonNegative(check.Join(field, "c"), s.C); err != nil {
		return err
	}
	switch s.Kind {
	case Constant:
		if s.R != 0 || s.M != 0 || s.P != 0 {
			return check.Errorf(field, "a constant schedule takes only c")
		}
	case Geometric:
		if s.M != 0 || s.P != 0 {
			return check.Errorf(field, "a geometric schedule c·r^k takes only c and r")
		}
		if err := check.NonNegative(check.Join(field, "r"), s.R); err != nil {
			return err
		}
	case Polynomial:
		if s.R != 0 {
			return check.Errorf(field, "a polynomial schedule c/(m+k)^p takes only c, m and p")
		}
		if err := check.Positive(check.Join(field, "m"), s.M); err != nil {
			return check.Errorf(check.Join(field, "m"), "must be > 0 so that m+k > 0 at k = 0 (got %v)", s.M)
		}
		if err := check.Finite(check.Join(field, "p"), s.P); err != nil {
			return err
		}
	case "":
		return check.Errorf(check.Join(field, "kind"), "is required: one of %q, %q, %q", Constant, Geometric, Polynomial)
	default:
		return check.Errorf(check.Join(field, "kind"), "must be one of %q, %q, %q (got %q)", Constant, Geometric, Polynomial, s.Kind)
	}
	// A first value past float64 (c/m^p with a tiny m and p > 0, or a c
	// near the largest float64) is no step or scale at all: the run would
	// diverge at its first iteration and its ledger read +Inf.
	if v := s.At(0); math.IsInf(v, 0) || math.IsNaN(v) {
		return check.Errorf(field, "must be finite at k = 0 (got %s = %v): lower c, or raise m of a polynomial schedule", s, v)
	}
	return nil
}

// Decays reports whether the schedule is non-increasing in k.
func (s Schedule) Decays() bool {
	switch s.Kind {
	case Geometric:
		return s.R <= 1
	case Polynomial:
		return s.P >= 0
	}
	return true
}

// String writes the schedule in the notation of the papers.
func (s Schedule) String() string {
	switch s.Kind {
	case Geometric:
		return fmt.Sprintf("%g·%g^k", s.C, s.R)
	case Polynomial:
		return fmt.Sprintf("%g/(%g+k)^%g", s.C, s.M, s.P)
	case Constant:
		return fmt.Sprintf("%g", s.C)
	}
	return "invalid schedule"
}

// Summable reports whether Σ_k At(k) is finite.
func (s Schedule) Summable() bool {
	switch s.Kind {
	case Geometric:
		return s.C == 0 || s.R < 1
	case Polynomial:
		return s.C == 0 || s.P > 1
	}
	return s.C == 0
}

// LogAt returns the natural log of At(k) without underflow, so that
// privacy accountants can divide by scales like r^k at large k. It is −Inf
// where the schedule is 0.
func (s Schedule) LogAt(k int) float64 {
	if s.C == 0 {
		return math.Inf(-1)
	}
	switch s.Kind {
	case Geometric:
		if s.R == 0 {
			if k == 0 {
				return num.Log(s.C)
			}
			return math.Inf(-1)
		}
		// float64(…) keeps the product from fusing with the sum (as in
		// core/num), so budgets are the same bits on every build.
		return num.Log(s.C) + float64(float64(k)*num.Log(s.R))
	case Polynomial:
		return num.Log(s.C) - float64(s.P*num.Log(s.M+float64(k)))
	}
	return num.Log(s.C)
}
