package num

import (
	"hash/fnv"
	"math"
	"testing"
)

// refDot is the lane order of lanes.go written from its definition, one
// term at a time: term j to lane j mod 8 from +0, then the tree.
func refDot(a, b []float64) float64 {
	var l [Lanes]float64
	for j := range a {
		l[j%Lanes] = l[j%Lanes] + float64(a[j]*b[j])
	}
	return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

// dotsPaths are Dots' code paths on this machine: the assembly where
// there is one (then Dots itself), and the portable Go.
func dotsPaths() []struct {
	name string
	f    func(z, x, out []float64)
} {
	return []struct {
		name string
		f    func(z, x, out []float64)
	}{{"Dots", Dots}, {"dotsGo", dotsGo}, {"portable", dotsPortable}}
}

// laneVector fills v with values of the given pattern from state:
// "wide" mixes exponents over ±2⁶⁰ and both signs, "sparse" zeros about
// three values in four (−0 among them, the pattern of a sparse row),
// "special" plants −0, ±Inf and huge values that overflow when summed.
func laneVector(v []float64, pattern string, state *uint64) {
	for j := range v {
		u := unit(state)
		w := (float64(2*unit(state)) - 1) * math.Ldexp(1, int(120*u)-60)
		switch pattern {
		case "sparse":
			switch {
			case u < 0.7:
				w = 0
			case u < 0.75:
				w = math.Copysign(0, -1)
			}
		case "special":
			switch {
			case u < 0.02:
				w = math.Inf(1)
			case u < 0.04:
				w = math.Inf(-1)
			case u < 0.2:
				w = math.Copysign(0, -1)
			case u < 0.3:
				w = math.Copysign(math.MaxFloat64/4, w)
			}
		}
		v[j] = w
	}
}

// TestDotsBits holds every path of Dots (and Dot) to the lane order's
// definition, bit for bit (tolerance: none), on seven rows of every
// length 0…100 and a few long ones, for wide, sparse and special values.
func TestDotsBits(t *testing.T) {
	state := uint64(11)
	lengths := []int{1000, 4096, 4099, 100003}
	for d := 100; d >= 0; d-- {
		lengths = append([]int{d}, lengths...)
	}
	for _, pattern := range []string{"wide", "sparse", "special"} {
		for _, d := range lengths {
			const rows = 7 // a group of four rows and three alone (the AVX2 kernel's two loops)
			z, x := make([]float64, rows*d), make([]float64, d)
			laneVector(z, pattern, &state)
			laneVector(x, pattern, &state)
			want := make([]float64, rows)
			for s := range want {
				want[s] = refDot(z[s*d:(s+1)*d], x)
			}
			for _, p := range dotsPaths() {
				got := make([]float64, rows)
				for s := range got {
					got[s] = math.NaN() // every output must be written
				}
				p.f(z, x, got)
				for s := range got {
					if !sameBits(got[s], want[s]) {
						t.Fatalf("%s %s d=%d row %d: %v (%#x), want %v (%#x)", p.name, pattern, d, s,
							got[s], math.Float64bits(got[s]), want[s], math.Float64bits(want[s]))
					}
				}
			}
			if d > 0 {
				if got := Dot(z[:d], x); !sameBits(got, want[0]) {
					t.Fatalf("Dot %s d=%d: %v, want %v", pattern, d, got, want[0])
				}
			}
		}
	}
}

// TestDotsOrderPinned pins the lane order's bits by a hash of Dot over
// vectors of every length 0…200 (computed by the amd64 build): every
// architecture and build (GOAMD64=v3, js/wasm, purego) must give it, and
// a change of the order must change it. It fails on a sum left to right.
func TestDotsOrderPinned(t *testing.T) {
	h := fnv.New64a()
	state := uint64(5)
	var buf [8]byte
	for d := range 201 {
		a, b := make([]float64, d), make([]float64, d)
		for j := range a {
			a[j], b[j] = float64(2*unit(&state))-1, float64(2*unit(&state))-1
		}
		v := math.Float64bits(Dot(a, b))
		for k := range buf {
			buf[k] = byte(v >> (8 * k))
		}
		h.Write(buf[:])
	}
	const want = 0x3713866e140311e9
	if got := h.Sum64(); got != want {
		t.Errorf("hash %#x, want %#x", got, want)
	}
}

// TestDotsPanics checks that too few rows panic before any assembly runs.
func TestDotsPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Dots over too few rows did not panic")
		}
	}()
	Dots(make([]float64, 5), make([]float64, 3), make([]float64, 2))
}

// TestDotOfGather holds DotOf (rows of float32 and bytes) and GatherDot
// (a sparse row's stored terms) to the definition, bit for bit: DotOf
// to refDot over the row converted to float64, GatherDot to refDot over
// the gathered pairs (v_t, x[c_t]) — term t to lane t mod 8 — for every
// length 0…70.
func TestDotOfGather(t *testing.T) {
	state := uint64(7)
	for d := range 71 {
		x := make([]float64, 3*d+1)
		laneVector(x, "wide", &state)
		w := make([]float64, d)
		laneVector(w, "special", &state)
		f32, u8 := make([]float32, d), make([]uint8, d)
		a32, a8 := make([]float64, d), make([]float64, d)
		for j, v := range w {
			f32[j] = float32(v)
			a32[j] = float64(f32[j])
			u8[j] = uint8(unit(&state) * 256)
			a8[j] = float64(u8[j])
		}
		if got, want := DotOf(f32, x), refDot(a32, x); !sameBits(got, want) {
			t.Fatalf("DotOf float32 d=%d: %v, want %v", d, got, want)
		}
		if got, want := DotOf(u8, x), refDot(a8, x); !sameBits(got, want) {
			t.Fatalf("DotOf bytes d=%d: %v, want %v", d, got, want)
		}
		// Increasing columns with gaps, as a sparse row stores them.
		c, g := make([]uint16, d), make([]float64, d)
		col := 0
		for t := range c {
			col += 1 + int(unit(&state)*3)
			c[t], g[t] = uint16(col), x[col]
		}
		if got, want := GatherDot(c, f32, x), refDot(a32, g); !sameBits(got, want) {
			t.Fatalf("GatherDot float32 n=%d: %v, want %v", d, got, want)
		}
		if got, want := GatherDot(c, u8, x), refDot(a8, g); !sameBits(got, want) {
			t.Fatalf("GatherDot bytes n=%d: %v, want %v", d, got, want)
		}
	}
}

// TestDotsAtBits holds DotsAt's kernel and its Go to the definition, bit
// for bit, over float32 rows at scattered offsets (seven: a group of four
// and three alone), every width 0…40, wide and special values.
func TestDotsAtBits(t *testing.T) {
	state := uint64(9)
	for _, pattern := range []string{"wide", "special"} {
		for d := range 41 {
			const rows = 7
			w := make([]float64, 3*rows*(d+2))
			laneVector(w, pattern, &state)
			f := make([]float32, len(w))
			for j, v := range w {
				f[j] = float32(v)
			}
			x := make([]float64, d)
			laneVector(x, pattern, &state)
			off := make([]int, rows)
			want := make([]float64, rows)
			for k := range off {
				off[k] = int(unit(&state) * float64(len(f)-d))
				a := make([]float64, d)
				for j := range a {
					a[j] = float64(f[off[k]+j])
				}
				want[k] = refDot(a, x)
			}
			for name, fn := range map[string]func(f []float32, off []int, x, out []float64){"DotsAt": DotsAt, "dotsAtGo": dotsAtGo} {
				got := make([]float64, rows)
				fn(f, off, x, got)
				for k := range got {
					if !sameBits(got[k], want[k]) {
						t.Fatalf("%s %s d=%d row %d: %v, want %v", name, pattern, d, k, got[k], want[k])
					}
				}
			}
		}
	}
}
