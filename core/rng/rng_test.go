package rng

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestStreamsAreReproducibleAndDistinct(t *testing.T) {
	a, b := New(7, "noise/eta"), New(7, "noise/eta")
	c := New(7, "noise/xi")
	same, diff := true, false
	for range 100 {
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		same = same && x == y
		diff = diff || x != z
	}
	if !same {
		t.Error("same seed and label gave different streams")
	}
	if !diff {
		t.Error("different labels gave the same stream")
	}
}

// The raw generator is SplitMix64: check it against the reference
// implementation's output from state 1234567.
func TestSplitMix64Reference(t *testing.T) {
	s := Stream{state: 1234567}
	for i, want := range []uint64{
		6457827717110365317, 3203168211198807973, 9817491932198370423,
		4593380528125082431, 16408922859458223821,
	} {
		if got := s.Uint64(); got != want {
			t.Fatalf("draw %d = %d, want %d", i, got, want)
		}
	}
}

// A fixed seed must give the same first draws on every architecture; the
// values pin the generator and the (seed, label) derivation so that a
// change cannot slip by.
func TestGolden(t *testing.T) {
	if got := New(1, "graph").Uint64(); got != goldenFirst {
		t.Errorf("first draw = %d, want %d", got, goldenFirst)
	}
	if got := NewStream(1, "graph").Uint64(); got != goldenFirst {
		t.Errorf("NewStream and New disagree: %d, want %d", got, goldenFirst)
	}
	if got := New(1, "graph").Float64(); got != goldenFloat {
		t.Errorf("rand.Rand.Float64 = %v, want %v", got, goldenFloat)
	}
	s := FromOne(42)
	if s.Data == s.Graph || s.Graph == s.Noise || s.Noise == s.Algorithm {
		t.Errorf("FromOne gave repeated seeds: %+v", s)
	}
	if s != goldenSeeds {
		t.Errorf("FromOne(42) = %+v, want %+v (FromOne must not change)", s, goldenSeeds)
	}
}

const (
	goldenFirst uint64  = 2943638720045174195
	goldenFloat float64 = 0.809548317227771
)

var goldenSeeds = Seeds{Data: 13679457532755275413, Graph: 2949826092126892291, Noise: 5139283748462763858, Algorithm: 6349198060258255764}

func TestFloat64(t *testing.T) {
	if got := (&Stream{state: math.MaxUint64 - golden + 1}).Float64(); got != 0 {
		// state+golden wraps to 0 and fin(0) = 0: the smallest draw is 0.
		t.Errorf("Float64 of a zero word = %v, want 0", got)
	}
	s := NewStream(3, "float")
	for range 10000 {
		if f := s.Float64(); f < 0 || f >= 1 || f != math.Ldexp(math.Floor(math.Ldexp(f, 53)), -53) {
			t.Fatalf("Float64 = %v, not on the 2⁻⁵³ grid in [0, 1)", f)
		}
	}
}

// Streams of neighbouring seeds and of similar labels must look
// independent: every output bit is balanced and pairs of streams differ in
// half their bits on average. With n = 20000 draws a bit's frequency has a
// standard error of 1/(2√n) ≈ 0.0035; the tolerance is 6 of those, and the
// mean Hamming distance (standard error 4/√n ≈ 0.028) must lie within 0.2 of
// 32.
func TestStreamsLookIndependent(t *testing.T) {
	const n = 20000
	pairs := [][2]*Stream{
		{NewStream(0, "noise/eta"), NewStream(1, "noise/eta")},
		{NewStream(5, "a"), NewStream(5, "b")},
		{NewStream(5, "gt-dp/eta"), NewStream(5, "gt-dp/xi")},
		{NewStream(5, ""), NewStream(6, "")},
	}
	for p, pr := range pairs {
		var ones [64]int
		ham := 0
		for range n {
			x, y := pr[0].Uint64(), pr[1].Uint64()
			ham += bits.OnesCount64(x ^ y)
			for b := range 64 {
				ones[b] += int(x >> b & 1)
			}
		}
		for b, c := range ones {
			if f := float64(c) / n; math.Abs(f-0.5) > 6*0.5/math.Sqrt(n) {
				t.Errorf("pair %d: bit %d set with frequency %.4f", p, b, f)
			}
		}
		if m := float64(ham) / n; math.Abs(m-32) > 0.2 {
			t.Errorf("pair %d: mean Hamming distance %.3f, want 32", p, m)
		}
	}
}

func TestIsARandSource(t *testing.T) {
	s, r := NewStream(9, "src"), rand.New(NewStream(9, "src"))
	for range 10 {
		if a, b := s.Uint64(), r.Uint64(); a != b {
			t.Fatalf("rand.New(stream) draws %d, stream draws %d", b, a)
		}
	}
}

// The benchmarks fill a buffer, as the noise samplers do, and report the
// cost of one draw as ns/draw. The loops live in functions of their own
// because the compiler does not inline calls made directly in a b.Loop
// loop, and a draw is only cheap inlined.
const benchN = 1000

func perDraw(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchN), "ns/draw")
}

func fillUint64(buf []uint64, s *Stream) {
	for i := range buf {
		buf[i] = s.Uint64()
	}
}

func fillFloat64(buf []float64, s *Stream) {
	for i := range buf {
		buf[i] = s.Float64()
	}
}

func fillPCG(buf []uint64, s *rand.PCG) {
	for i := range buf {
		buf[i] = s.Uint64()
	}
}

func BenchmarkStreamUint64(b *testing.B) {
	s, buf := NewStream(1, "bench"), make([]uint64, benchN)
	for b.Loop() {
		fillUint64(buf, s)
	}
	perDraw(b)
}

func BenchmarkStreamFloat64(b *testing.B) {
	s, buf := NewStream(1, "bench"), make([]float64, benchN)
	for b.Loop() {
		fillFloat64(buf, s)
	}
	perDraw(b)
}

// BenchmarkPCG is the generator dpsim used before, for comparison.
func BenchmarkPCG(b *testing.B) {
	s, buf := rand.NewPCG(1, 2), make([]uint64, benchN)
	for b.Loop() {
		fillPCG(buf, s)
	}
	perDraw(b)
}
