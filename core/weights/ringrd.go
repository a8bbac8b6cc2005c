package weights

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/graph"
)

// KindRingRD is the four-agent ring W(r, d) of the GT-DP paper, eq. (37).
const KindRingRD = "ring-rd"

// RingRDInfo describes the kind. W(r, d) takes parameters that Build's
// signature has no room for, so the scenario builds it with RingRD and
// lists it beside Kinds().
var RingRDInfo = KindInfo{Kind: KindRingRD, Description: "the GT-DP paper's four-agent ring W(r, d), eq. (37): 1 − r on the diagonal, r·d on links 0–1 and 2–3, r(1 − d) on links 1–2 and 3–0; ρ(W_o) = r, ρ_w = 1 − 2r·min(d, 1 − d) (needs r, and d or rho_w)"}

// RingRDParams are the parameters of RingRDBuilder: r, and d or a target
// ρ_w (d = (1 − ρ_w)/(2r)); 0 means not given.
type RingRDParams struct {
	R    float64 `json:"r" doc:"ρ(W_o) = r, the weight off the diagonal (eq. 37 needs r ≤ ½)" range:"(0, 0.5]" required:"true"`
	D    float64 `json:"d" doc:"split of r between the ring's two kinds of link (give d or rho_w; 0: not given)" range:"[0, 1)"`
	RhoW float64 `json:"rho_w" doc:"target ρ_w = 1 − 2r·min(d, 1 − d), instead of d (0: not given)" range:"[0, 1)"`
}

// RingRDBuilder builds the GT-DP paper's W(r, d) (RingRD) from r and
// either d or a target ρ_w.
var RingRDBuilder = Builder{
	Name: KindRingRD, Title: "GT-DP's W(r, d)", Doc: RingRDInfo.Description,
	// d and rho_w are alternatives, so neither has a default: a scenario
	// gives one of them.
	NewParams: func() any { return &RingRDParams{R: 0.3} },
	Build: func(params any, g *graph.Graph) (*Matrix, error) {
		p := params.(*RingRDParams)
		d := p.D
		switch {
		case p.D != 0 && p.RhoW != 0:
			return nil, check.Errorf(fieldRingD, "give either d or rho_w, not both")
		case p.RhoW != 0:
			var err error
			if d, err = RingRDForRhoW(p.R, p.RhoW); err != nil {
				return nil, err
			}
		case p.D == 0:
			return nil, check.Errorf(fieldRingD, "is required for kind %q (or give rho_w, and d = (1 − ρ_w)/(2r))", KindRingRD)
		}
		return RingRD(g, p.R, d)
	},
}

// Fields of the ring's parameters in errors.
const (
	fieldRingR   = "weights.r"
	fieldRingD   = "weights.d"
	fieldRingRho = "weights.rho_w"
)

// RingRD returns the GT-DP paper's W(r, d) (eq. 37) on the ring 0–1–2–3–0:
//
//	[[1−r,    r·d,    0,      r(1−d)],
//	 [r·d,    1−r,    r(1−d), 0     ],
//	 [0,      r(1−d), 1−r,    r·d   ],
//	 [r(1−d), 0,      r·d,    1−r   ]]     0 < d < 1, 0 < r ≤ ½
//
// It is symmetric and doubly stochastic, with eigenvalues
// {1, 1−2r, 1−2r(1−d), 1−2rd} and W_o's eigenvalues ±r, ±r(2d−1)
// (RingRDSpectrum).
func RingRD(g *graph.Graph, r, d float64) (*Matrix, error) {
	if err := needGraph(g, "W(r, d)", true); err != nil {
		return nil, err
	}
	ring := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}}
	ok := g.N == 4 && len(g.Edges) == 4
	for _, e := range ring {
		ok = ok && g.HasLink(e[0], e[1])
	}
	if !ok {
		return nil, check.Errorf(fieldKind, "W(r, d) is defined on the four-agent ring 0–1–2–3–0 only (use \"graph\": {\"kind\": \"ring\", \"n\": 4})")
	}
	if !(r > 0 && r <= 0.5) {
		return nil, check.Errorf(fieldRingR, "must be in (0, 0.5] (eq. 37 needs r ≤ ½ for w_ii ≥ ½ and 1 − 2r ≥ 0; got %v)", r)
	}
	if !(d > 0 && d < 1) {
		return nil, check.Errorf(fieldRingD, "must be in (0, 1) so that every ring link carries weight (got %v)", d)
	}
	a, b := r*d, r*(1-d)
	return FromRows([][]float64{
		{1 - r, a, 0, b},
		{a, 1 - r, b, 0},
		{0, b, 1 - r, a},
		{b, 0, a, 1 - r},
	})
}

// RingRDSpectrum returns ρ(W_o) = r and ρ_w = ρ(W − 11ᵀ/4) =
// max{|1−2r|, |1−2r(1−d)|, |1−2rd|} = 1 − 2r·min(d, 1−d) for r ≤ ½: the
// closed forms of W(r, d)'s eigenvalues. The paper prints
// ρ_w = 1 − r(1 − d), which is wrong (spec §5.6: r = 0.3, d = 0.5 gives
// 0.7, not 0.85).
func RingRDSpectrum(r, d float64) (rhoWo, rhoW float64) {
	rhoW = math.Max(math.Abs(1-float64(2*r)), math.Max(math.Abs(1-float64(2*r*(1-d))), math.Abs(1-float64(2*r*d))))
	return r, rhoW
}

// RingRDForRhoW returns the d that gives ρ_w = rhoW for a given r:
// d = (1 − ρ_w)/(2r), which needs 0 < d ≤ ½, i.e. 1 − 2r ≤ ρ_w < 1.
func RingRDForRhoW(r, rhoW float64) (float64, error) {
	if !(r > 0 && r <= 0.5) {
		return 0, check.Errorf(fieldRingR, "must be in (0, 0.5] (got %v)", r)
	}
	d := (1 - rhoW) / (2 * r)
	if !(rhoW < 1) || !(d > 0 && d <= 0.5) {
		return 0, check.Errorf(fieldRingRho, "must be in [1 − 2r, 1) = [%g, 1) for r = %g: ρ_w = 1 − 2r·min(d, 1 − d) (got %v)", 1-2*r, r, rhoW)
	}
	return d, nil
}
