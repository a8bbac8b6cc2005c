package privacy

import (
	"hash/fnv"
	"math"
	"testing"

	"dpsim/core/num"
)

// gaussian predicts the ε of k Gaussian releases of sensitivity 1 at noise
// scale λ through zero-concentrated DP, ρ = k/(2λ²) and ε = ρ + 2√(ρ ln(1/δ))
// at δ = 10⁻⁵: not proportional to 1/λ, so Calibrate bisects.
type gaussian struct{}

func (gaussian) PredictEpsilon(iterations int, factor float64) Amount {
	rho := float64(iterations) / float64(2*factor*factor)
	return Of(rho + float64(2*math.Sqrt(float64(rho*num.Log(1e5)))))
}

// TestCalibrateBits pins the bits of calibrated factors: 300 bisections
// (targets 10⁻² … 10⁴ at horizons 1 … 10⁶) and 300 proportional factors,
// hashed. The hash was computed on amd64 and is the same as an arm64
// binary, with GOAMD64=v3 and under js/wasm: the factor multiplies every
// noise scale, so one bit of it moves a run. When the bisection took
// math.Exp and math.Log10, amd64 (an FMA CPU, v1 and v3) gave
// 0x942cd6936741a582, js/wasm and arm64 this hash: a calibrated run
// differed natively from the browser.
func TestCalibrateBits(t *testing.T) {
	h := fnv.New64a()
	var buf [8]byte
	put := func(v float64) {
		b := math.Float64bits(v)
		for i := range buf {
			buf[i] = byte(b >> (8 * i))
		}
		h.Write(buf[:])
	}
	for i := range 300 {
		target := num.Pow(10, float64(-2+float64(6*float64(i)/299)))
		k := int(num.Pow(10, float64(i%7)))
		c, err := Calibrate(gaussian{}, k, target, "calibrate.epsilon")
		if err != nil {
			t.Fatalf("target %g after %d: %v", target, k, err)
		}
		if err := c.Check("calibrate.epsilon"); err != nil {
			t.Fatal(err)
		}
		put(c.Factor)
		f, err := ProportionalFactor(Of(float64(k)), k, target)
		if err != nil {
			t.Fatal(err)
		}
		put(f)
	}
	if got, want := h.Sum64(), uint64(0x2a78cb14382c8f6c); got != want {
		t.Errorf("hash of 600 factors = %#x, want %#x", got, want)
	}
}
