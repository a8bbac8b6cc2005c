package audit

import (
	"fmt"
	"math"

	"dpsim/core/noise"
	"dpsim/core/rng"
)

// LogLikelihoodRatio is the likelihood-ratio statistic of an eavesdropper
// who knows the noise law: ln p(y | D′)/p(y | D) for a message y that is
// the value mean0 (on D) or mean1 (on D′) plus noise of law dist
// (noise.Laplace of scale b, or noise.Gaussian of σ = b) in each
// coordinate. By Neyman and Pearson, a threshold on it is the most
// powerful test at every false-positive rate.
//
// Each coordinate's term is computed in a form that is monotone in y_i:
// for Laplace noise, (|y−a| − |y−c|)/b = sign(c−a)·clip(2y − a − c,
// ±|c−a|)/b, whose two atoms are exact; for Gaussian noise,
// (c − a)(2y − a − c)/(2σ²). The literal |y−a| − |y−c| rounds differently
// according to the low bits of y, which differ between a + z and c + z
// for the same z; a threshold on it then tells the data sets apart far
// beyond ε (the floating-point leak of Mironov 2012), which TestRounding
// shows. A threshold on a monotone statistic is a threshold on y itself,
// up to the rounding of y at one point.
func LogLikelihoodRatio(dist string, b float64, y, mean0, mean1 []float64) float64 {
	var s float64
	for i, v := range y {
		a, c := mean0[i], mean1[i]
		if dist == noise.Gaussian {
			s += float64((c - a) * (2*v - a - c))
			continue
		}
		w := math.Abs(c - a)
		t := min(max(2*v-a-c, -w), w)
		if c < a {
			t = -t
		}
		s += t
	}
	if dist == noise.Gaussian {
		return s / (2 * b * b)
	}
	return s / b
}

// naiveLLR is the literal Laplace likelihood ratio, kept for TestRounding.
func naiveLLR(b float64, y, mean0, mean1 []float64) float64 {
	var s float64
	for i, v := range y {
		s += math.Abs(v-mean0[i]) - math.Abs(v-mean1[i])
	}
	return s / b
}

// Projection is the simple threshold test's statistic: the message's
// coordinate along the change, ⟨y − mean0, mean1 − mean0⟩/‖mean1 − mean0‖,
// which needs no knowledge of the noise (0 when the means agree).
func Projection(y, mean0, mean1 []float64) float64 {
	var s, n2 float64
	for i, v := range y {
		d := mean1[i] - mean0[i]
		s += float64((v - mean0[i]) * d)
		n2 += float64(d * d)
	}
	if n2 == 0 {
		return 0
	}
	return s / math.Sqrt(n2)
}

// Statistics names the eavesdropper's statistics Release computes.
const (
	LikelihoodRatio = "likelihood-ratio"
	Threshold       = "projection"
)

// Release runs the distinguishing experiment on one noised release:
// runs messages of the value 0 (on D) and as many of the value
// sensitivity (on D′, the change in one coordinate), each plus fresh noise
// of law dist and scale b drawn from core/noise's sampler on the stream
// (seed, "audit/null") or (seed, "audit/alt"), and the statistic stat of
// each. The mechanism's true ε is sensitivity/b for Laplace noise, and
// for Gaussian noise that of μ = sensitivity/b at the chosen δ.
func Release(dist string, b, sensitivity float64, runs int, seed uint64, stat string) (Experiment, error) {
	switch {
	case dist != noise.Laplace && dist != noise.Gaussian:
		return Experiment{}, fmt.Errorf("dist: must be %q or %q, got %q", noise.Laplace, noise.Gaussian, dist)
	case !(b > 0 && b < math.Inf(1)):
		return Experiment{}, fmt.Errorf("scale: must be > 0 and finite, got %v", b)
	case !(sensitivity > 0 && sensitivity < math.Inf(1)):
		return Experiment{}, fmt.Errorf("sensitivity: must be > 0 and finite, got %v", sensitivity)
	case runs < 1 || runs > MaxRuns:
		return Experiment{}, fmt.Errorf("runs: must be in 1…%d, got %d", MaxRuns, runs)
	case stat != LikelihoodRatio && stat != Threshold:
		return Experiment{}, fmt.Errorf("statistic: must be %q or %q, got %q", LikelihoodRatio, Threshold, stat)
	}
	m0, m1 := []float64{0}, []float64{sensitivity}
	var e Experiment
	for _, side := range []struct {
		label string
		mean  []float64
		out   *[]float64
	}{{"audit/null", m0, &e.Null}, {"audit/alt", m1, &e.Alt}} {
		s := noise.NewSampler(dist, rng.NewStream(seed, side.label))
		nz := make([]float64, runs)
		s.Fill(nz, b)
		*side.out = make([]float64, runs)
		for i, z := range nz {
			y := []float64{side.mean[0] + z}
			if stat == LikelihoodRatio {
				(*side.out)[i] = LogLikelihoodRatio(dist, b, y, m0, m1)
			} else {
				(*side.out)[i] = Projection(y, m0, m1)
			}
		}
	}
	return e, nil
}

// MaxRuns bounds the runs of one side of an experiment Release makes.
const MaxRuns = 10_000_000
