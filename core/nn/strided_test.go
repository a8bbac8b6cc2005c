package nn

import (
	"math"
	"testing"

	"dpsim/core/num"
	"dpsim/core/rng"
)

// TestGemmStrided checks gemmStrided against the naive loop, bit for
// bit, with row strides wider than the matrices (C and B inside larger
// buffers, A read row-major and transposed) and every tile remainder,
// on both paths; the entries of C outside the m×n block must not move.
func TestGemmStrided(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		s := rng.NewStream(3, "strided")
		for _, sh := range [][3]int{{1, 1, 1}, {4, 8, 1}, {4, 16, 3}, {5, 9, 7}, {8, 24, 25}, {12, 40, 13}, {7, 3, 5}, {3, 7, 2}, {25, 8, 576}, {200, 16, 64}, {9, 17, 33}} {
			m, n, k := sh[0], sh[1], sh[2]
			for _, trans := range []bool{false, true} {
				sai, sap, la := k, 1, m*k
				if trans {
					sai, sap = 1, m
				}
				ldb, ldc := n+3, n+5
				a, b := randSlice(s, la), randSlice(s, k*ldb)
				c0 := randSlice(s, m*ldc)
				got, want := append([]float32(nil), c0...), append([]float32(nil), c0...)
				gemmStrided(m, n, k, a, sai, sap, b, ldb, got, ldc)
				naiveStrided(m, n, k, a, sai, sap, b, ldb, want, ldc)
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Errorf("%d×%d×%d transposed %v: C[%d] = %v, the naive loop %v", m, n, k, trans, i, got[i], want[i])
						break
					}
				}
			}
		}
	})
}

// naiveStrided is gemmStrided's definition: every output adds its
// products in increasing order of p from its value in C.
func naiveStrided(m, n, k int, a []float32, sai, sap int, b []float32, ldb int, c []float32, ldc int) {
	for i := range m {
		for j := range n {
			v := c[i*ldc+j]
			for p := range k {
				v += float32(a[i*sai+p*sap] * b[p*ldb+j])
			}
			c[i*ldc+j] = v
		}
	}
}

// TestGemmNTZeros checks gemmNT's masked tail against its definition
// where signed zeros decide the bits: products of −0 and finite values
// onto C = −0 (a vector path adds +0 past the tail; a lane that starts
// at +0 never holds −0, so that changes nothing), with every k mod 8.
func TestGemmNTZeros(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		neg := float32(math.Copysign(0, -1))
		for k := 1; k <= 17; k++ {
			m, n := 3, 5
			a, b := make([]float32, m*k), make([]float32, n*k)
			for i := range a {
				a[i] = neg
				if i%3 == 1 {
					a[i] = 1.5
				}
			}
			for i := range b {
				b[i] = float32(i%4) - 1.5
				if i%5 == 0 {
					b[i] = 0
				}
			}
			got, want := make([]float32, m*n), make([]float32, m*n)
			for i := range got {
				got[i], want[i] = neg, neg
			}
			gemmNT(m, n, k, a, b, got)
			naiveNT(m, n, k, a, b, want)
			same(t, "gemmNT", [3]int{m, n, k}, got, want)
		}
	})
}

// TestStridedPanics checks that a slice too short for the shape panics
// in Go before the micro-kernel reads past it.
func TestStridedPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("gemmStrided on a short C did not panic")
		}
	}()
	gemmStrided(8, 16, 4, make([]float32, 32), 4, 1, make([]float32, 64), 16, make([]float32, 127), 16)
}

// TestNTPanics checks that gemmNT on a short C panics in Go before the
// kernel writes past it.
func TestNTPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("gemmNT on a short C did not panic")
		}
	}()
	gemmNT(4, 5, 8, make([]float32, 32), make([]float32, 40), make([]float32, 19))
}

// TestPatches checks im2col and col2im (WebAssembly loops under wasm)
// against im2colGo and col2imGo bit for bit, on both paths, on every
// shape the network uses and odd ones; col2im adds onto a nonzero dx.
func TestPatches(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		s := rng.NewStream(6, "patches")
		for _, sh := range [][3]int{{1, 28, 28}, {8, 12, 12}, {3, 32, 32}, {8, 14, 14}, {2, 5, 5}, {3, 6, 9}} {
			c, h, w := sh[0], sh[1], sh[2]
			p := (h - Kernel + 1) * (w - Kernel + 1)
			x := randSlice(s, c*h*w)
			got, want := make([]float32, c*kk*p), make([]float32, c*kk*p)
			im2col(x, c, h, w, got)
			im2colGo(x, c, h, w, want)
			same(t, "im2col", sh, got, want)
			dcols := randSlice(s, c*kk*p)
			dx := randSlice(s, c*h*w)
			gx, wx := append([]float32(nil), dx...), append([]float32(nil), dx...)
			col2im(dcols, c, h, w, gx)
			col2imGo(dcols, c, h, w, wx)
			same(t, "col2im", sh, gx, wx)
		}
	})
}

func same(t *testing.T, what string, sh [3]int, got, want []float32) {
	t.Helper()
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Errorf("%s %v: value %d is %v, want %v", what, sh, i, got[i], want[i])
			return
		}
	}
}

// TestPool checks poolReLU (WebAssembly under wasm) against poolReLUGo
// bit for bit on both paths, on maps whose windows hold ties, ±0, NaNs
// and infinities, with odd and even sides.
func TestPool(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		s := rng.NewStream(7, "pool")
		nan := float32(math.NaN())
		special := []float32{0, float32(math.Copysign(0, -1)), nan, float32(math.Inf(1)), float32(math.Inf(-1)), 1, -1, 0.5}
		for _, sh := range [][3]int{{8, 24, 24}, {16, 8, 8}, {3, 5, 7}, {2, 6, 3}} {
			c, h, w := sh[0], sh[1], sh[2]
			a := randSlice(s, c*h*w)
			for i := range a {
				if s.Float64() < 0.5 {
					a[i] = special[int(s.Float64()*float64(len(special)))]
				}
			}
			n := c * (h / 2) * (w / 2)
			got, want := make([]float32, n), make([]float32, n)
			ga, wa := make([]uint8, n), make([]uint8, n)
			poolReLU(a, c, h, w, got, ga)
			poolReLUGo(a, c, h, w, want, wa)
			same(t, "pool", sh, got, want)
			for i := range ga {
				if ga[i] != wa[i] {
					t.Errorf("pool %v: position %d is %d, want %d", sh, i, ga[i], wa[i])
					break
				}
			}
		}
	})
}

// TestSmallLoops checks fillBias, rowSums and unpool
// (WebAssembly under wasm) against their Go loops bit for bit, on both
// paths; rowSums starts from nonzero sums, unpool's pooled values are
// half non-positive (a third exactly 0) and its output starts dirty.
func TestSmallLoops(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		s := rng.NewStream(8, "small")
		for _, sh := range [][3]int{{8, 24, 24}, {16, 8, 8}, {3, 5, 7}, {1, 1, 1}, {5, 10, 10}, {7, 2, 6}} {
			c, h, w := sh[0], sh[1], sh[2]
			p := h * w
			bias := randSlice(s, c)
			got, want := randSlice(s, c*p), make([]float32, c*p)
			fillBias(got, bias, p)
			fillBiasGo(want, bias, p)
			same(t, "fillBias", sh, got, want)

			a := randSlice(s, c*p)
			s0 := randSlice(s, c)
			gs, ws := append([]float32(nil), s0...), append([]float32(nil), s0...)
			rowSums(a, c, p, gs)
			rowSumsGo(a, c, p, ws)
			same(t, "rowSums", sh, gs, ws)
			// rowSumsGo is lanes.go's order: each row's lanes onto out.
			ns := append([]float32(nil), s0...)
			for r := range c {
				var l [num.Lanes]float32
				for j, v := range a[r*p : (r+1)*p] {
					l[j%num.Lanes] += v
				}
				ns[r] += ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
			}
			same(t, "rowSumsGo", sh, ws, ns)

			n := c * (h / 2) * (w / 2)
			dq, q := randSlice(s, n), randSlice(s, n)
			arg := make([]uint8, n)
			for i := range arg {
				arg[i] = uint8(4 * s.Float64())
				if i%3 == 0 {
					q[i] = 0 // what the ReLU leaves most often: no gradient
				}
			}
			gd, wd := randSlice(s, c*p), randSlice(s, c*p)
			unpool(dq, q, arg, c, h, w, gd)
			unpoolGo(dq, q, arg, c, h, w, wd)
			same(t, "unpool", sh, gd, wd)
		}
	})
}
