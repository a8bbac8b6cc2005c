package nn

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"reflect"
	"runtime"
	"testing"

	"dpsim/core/num"
	"dpsim/core/rng"
)

// naive products in the kernels' order: every output of naiveNN and
// naiveTN starts from C and adds its terms in increasing order of the
// shared index, so the tiled kernels must match them bit for bit.
func naiveNN(m, n, k int, a, b, c []float32) {
	for i := range m {
		for j := range n {
			s := c[i*n+j]
			for p := range k {
				s += float32(a[i*k+p] * b[p*n+j])
			}
			c[i*n+j] = s
		}
	}
}

// naiveNT is gemmNT's definition (lanes.go): term p of each output to
// lane p mod 8 from +0, the lanes combined by num's tree, then added to C.
func naiveNT(m, n, k int, a, b, c []float32) {
	for i := range m {
		for j := range n {
			var l [num.Lanes]float32
			for p := range k {
				l[p%num.Lanes] += float32(a[i*k+p] * b[j*k+p])
			}
			c[i*n+j] += ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
		}
	}
}

func naiveTN(m, n, k int, a, b, c []float32) {
	for i := range m {
		for j := range n {
			s := c[i*n+j]
			for p := range k {
				s += float32(a[p*m+i] * b[p*n+j])
			}
			c[i*n+j] = s
		}
	}
}

func randSlice(s *rng.Stream, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(2*s.Float64() - 1)
	}
	return v
}

// TestGemmBits checks every kernel against the naive loop, bit for bit,
// on shapes that exercise every tile and every tail.
func TestGemmBits(t *testing.T) {
	eachPath(t, testGemmBits)
}

// kernelPaths are the code paths this machine can run: the Go kernels
// of gemm.go, and the platform's micro-kernel (useKernel) where it has
// one.
func kernelPaths() []bool {
	if useKernel {
		return []bool{false, true}
	}
	return []bool{false}
}

// eachPath runs f once on every path of kernelPaths, setting useKernel.
func eachPath(t *testing.T, f func(t *testing.T)) {
	old := useKernel
	defer func() { useKernel = old }()
	for _, on := range kernelPaths() {
		useKernel = on
		t.Run(map[bool]string{false: "go", true: "kernel"}[on], f)
	}
}

func testGemmBits(t *testing.T) {
	type kernel struct {
		name         string
		tiled, naive func(m, n, k int, a, b, c []float32)
		aSize, bSize func(m, n, k int) int
	}
	mk := func(m, n, k int) int { return m * k }
	// Every variant on every platform: the native and the wasm kernels
	// must agree with the naive loop, and so with each other.
	rows := func(f func(x []float32, stride int, b []float32, n int, cr []float32)) func(m, n, k int, a, b, c []float32) {
		return func(m, n, k int, a, b, c []float32) {
			for i := range m {
				f(a[i*k:i*k+k], 1, b[:k*n], n, c[i*n:i*n+n])
			}
		}
	}
	kernels := []kernel{
		{"NN", gemmNN, naiveNN, mk, func(m, n, k int) int { return k * n }},
		{"NN rows of 4", rows(axpyRows4), naiveNN, mk, func(m, n, k int) int { return k * n }},
		{"NN rows of 8", rows(axpyRows8), naiveNN, mk, func(m, n, k int) int { return k * n }},
		{"NT", gemmNT, naiveNT, mk, func(m, n, k int) int { return n * k }},
		{"NT Go", gemmNTGo, naiveNT, mk, func(m, n, k int) int { return n * k }},
		{"NN packed", func(m, n, k int, a, b, c []float32) {
			bp := make([]float32, k*n)
			pack8(b, k, n, bp)
			gemmNNPacked(m, n, k, a, bp, c)
		}, naiveNN, mk, func(m, n, k int) int { return k * n }},
		{"TN", gemmTN, naiveTN, mk, func(m, n, k int) int { return k * n }},
		{"TN rows of 8", func(m, n, k int, a, b, c []float32) {
			for i := range m {
				axpyRows8(a[i:], m, b[:k*n], n, c[i*n:i*n+n])
			}
		}, naiveTN, mk, func(m, n, k int) int { return k * n }},
	}
	shapes := [][3]int{{1, 1, 1}, {8, 576, 25}, {16, 64, 200}, {5, 7, 3}, {3, 5, 9}, {16, 200, 64}, {200, 64, 16}, {7, 13, 1}, {10, 256, 32}, {9, 11, 17}, {3, 6, 20},
		// gemmNT's shapes (conv1 and conv2 weight gradients on MNIST and
		// CIFAR, the logits) and every tail of its 2×4 tile and of k mod 8.
		{8, 25, 576}, {8, 75, 784}, {16, 200, 100}, {32, 10, 256}, {33, 2, 400}, {3, 7, 15}, {1, 5, 9}}
	s := rng.NewStream(1, "test")
	for _, kn := range kernels {
		for _, sh := range shapes {
			m, n, k := sh[0], sh[1], sh[2]
			a, b := randSlice(s, kn.aSize(m, n, k)), randSlice(s, kn.bSize(m, n, k))
			c0 := randSlice(s, m*n)
			got, want := append([]float32(nil), c0...), append([]float32(nil), c0...)
			kn.tiled(m, n, k, a, b, got)
			kn.naive(m, n, k, a, b, want)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Errorf("%s %d×%d×%d: C[%d] = %v, the naive loop %v", kn.name, m, n, k, i, got[i], want[i])
					break
				}
			}
		}
	}
}

// TestIm2colPacked checks that im2colPacked writes pack8 of im2col, on
// channel counts whose patch rows (c·25) leave every remainder mod 8.
func TestIm2colPacked(t *testing.T) {
	s := rng.NewStream(3, "test")
	for _, c := range []int{1, 2, 3, 8} {
		h, w := 9, 11
		x := randSlice(s, c*h*w)
		k, p := c*kk, (h-Kernel+1)*(w-Kernel+1)
		cols, want, got := make([]float32, k*p), make([]float32, k*p), make([]float32, k*p)
		im2col(x, c, h, w, cols)
		pack8(cols, k, p, want)
		im2colPacked(x, c, h, w, got)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%d channels: value %d is %v, pack8(im2col) has %v", c, i, got[i], want[i])
			}
		}
	}
}

// fixture returns a network, parameters, images and labels drawn from
// seed.
func fixture(t testing.TB, c, h, w, classes, batch int, seed uint64) (*Net, []float32, []float32, []uint8) {
	net, err := New(c, h, w, classes)
	if err != nil {
		t.Fatal(err)
	}
	s := rng.NewStream(seed, "nn/test")
	params := make([]float32, net.Size())
	net.Init(params, s)
	// Nonzero biases, so their gradients are exercised away from 0.
	l := net.Layout()
	for _, r := range [][2]int{{l.Conv1B, l.Conv2W}, {l.Conv2B, l.DenseW}, {l.DenseB, l.Size}} {
		for k := r[0]; k < r[1]; k++ {
			params[k] = float32(0.1 * (2*s.Float64() - 1))
		}
	}
	x := make([]float32, batch*net.Input())
	for i := range x {
		x[i] = float32(s.Float64())
	}
	y := make([]uint8, batch)
	for i := range y {
		y[i] = uint8(s.Uint64() % uint64(classes))
	}
	return net, params, x, y
}

// TestGradientFiniteDifference checks the backward pass against central
// differences of refLoss, an independent float64 forward pass, on every
// parameter of conv1 and every bias, and on every 11th weight of conv2
// and the dense layer, of small networks. In float64 a step of eps = 1e-6 leaves
// the difference quotient accurate to about 1e-8 and almost never
// straddles a ReLU or pool kink; the tolerance tol·max(|g|, |fd|) + abs
// is set by the float32 gradient's own rounding. It also checks that the
// float32 forward loss agrees with refLoss to lossTol (relative).
func TestGradientFiniteDifference(t *testing.T) {
	cases := []struct {
		name                   string
		c, h, w, classes, b    int
		eps, tol, abs, lossTol float64
	}{
		{"1x16x16 3 classes batch 3", 1, 16, 16, 3, 3, 1e-6, 1e-3, 1e-5, 1e-5},
		{"3x17x18 2 classes batch 2", 3, 17, 18, 2, 2, 1e-6, 1e-3, 1e-5, 1e-5},
		{"1x20x20 10 classes batch 4", 1, 20, 20, 10, 4, 1e-6, 1e-3, 1e-5, 1e-5},
	}
	if runtime.GOARCH == "wasm" {
		// The float64 reference is slow under wasm; the backward pass is
		// the same code there, its kernels are checked bit for bit
		// (TestGemmBits) and its result pinned (TestGoldenBits).
		cases = cases[:1]
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net, params, x, y := fixture(t, tc.c, tc.h, tc.w, tc.classes, tc.b, 7)
			ws := net.NewWorkspace(tc.b)
			g := make([]float32, net.Size())
			loss := ws.Gradient(params, x, y, g)
			p64 := make([]float64, len(params))
			for k, v := range params {
				p64[k] = float64(v)
			}
			ref := refLoss(net, p64, x, y)
			if math.Abs(loss-ref) > tc.lossTol*math.Abs(ref) {
				t.Errorf("float32 loss %.9g, float64 reference %.9g", loss, ref)
			}
			bad, worst := 0, 0.0
			l := net.Layout()
			for k := range p64 {
				// Every parameter of conv1 and the biases; every 11th
				// of conv2's and the dense weights (the test's time).
				if (k >= l.Conv2W && k < l.Conv2B || k >= l.DenseW && k < l.DenseB) && k%11 != 0 {
					continue
				}
				old := p64[k]
				p64[k] = old + tc.eps
				lp := refLoss(net, p64, x, y)
				p64[k] = old - tc.eps
				lm := refLoss(net, p64, x, y)
				p64[k] = old
				fd := (lp - lm) / (2 * tc.eps)
				gk := float64(g[k])
				err := math.Abs(fd - gk)
				lim := float64(tc.tol*math.Max(math.Abs(fd), math.Abs(gk))) + tc.abs
				if err > lim {
					if bad < 5 {
						t.Errorf("parameter %d: gradient %.6g, central difference %.6g", k, gk, fd)
					}
					bad++
					worst = math.Max(worst, err/lim)
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d coordinates off (worst %.3g× the tolerance)", bad, len(params), worst)
			}
		})
	}
}

// TestGradientCoversEveryLayer guards the finite-difference test against
// a gradient that is zero where it should not be: every layer's block
// must have a nonzero gradient.
func TestGradientCoversEveryLayer(t *testing.T) {
	net, params, x, y := fixture(t, 1, 28, 28, 10, 4, 3)
	g := make([]float32, net.Size())
	net.NewWorkspace(4).Gradient(params, x, y, g)
	l := net.Layout()
	blocks := map[string][2]int{"conv1 W": {l.Conv1W, l.Conv1B}, "conv1 b": {l.Conv1B, l.Conv2W}, "conv2 W": {l.Conv2W, l.Conv2B},
		"conv2 b": {l.Conv2B, l.DenseW}, "dense W": {l.DenseW, l.DenseB}, "dense b": {l.DenseB, l.Size}}
	for name, r := range blocks {
		s := 0.0
		for _, v := range g[r[0]:r[1]] {
			s += math.Abs(float64(v))
		}
		if !(s > 0) {
			t.Errorf("%s: gradient is all zero", name)
		}
	}
}

// TestShapes checks the layout and the sizes for MNIST and CIFAR shapes.
func TestShapes(t *testing.T) {
	cases := []struct {
		c, h, w, k, size, feat, flops int
	}{
		{1, 28, 28, 10, 8*25 + 8 + 16*8*25 + 16 + 10*256 + 10, 256, 6 * (115200 + 204800 + 2560)},
		{3, 32, 32, 2, 8*75 + 8 + 16*8*25 + 16 + 2*400 + 2, 400, 6 * (470400 + 320000 + 800)},
	}
	for _, tc := range cases {
		n, err := New(tc.c, tc.h, tc.w, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		if n.Size() != tc.size || n.Features() != tc.feat || n.FLOPs() != tc.flops {
			t.Errorf("%d×%d×%d: size %d features %d FLOPs %d, want %d %d %d", tc.c, tc.h, tc.w, n.Size(), n.Features(), n.FLOPs(), tc.size, tc.feat, tc.flops)
		}
	}
	for _, bad := range [][4]int{{1, 15, 28, 10}, {0, 28, 28, 10}, {1, 28, 28, 1}, {1, 28, 2000, 10}} {
		if _, err := New(bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("New%v: no error", bad)
		}
	}
}

// TestNoAllocation checks that a training step and an evaluation
// allocate nothing once the workspace exists.
func TestNoAllocation(t *testing.T) {
	net, params, x, y := fixture(t, 1, 28, 28, 10, 32, 5)
	ws := net.NewWorkspace(32)
	g := make([]float32, net.Size())
	if a := testing.AllocsPerRun(3, func() { ws.Gradient(params, x, y, g) }); a != 0 {
		t.Errorf("Gradient: %v allocations per step", a)
	}
	if a := testing.AllocsPerRun(3, func() { ws.Forward(params, x, y) }); a != 0 {
		t.Errorf("Forward: %v allocations per call", a)
	}
}

// TestWorkspaceBytes holds WorkspaceBytes to the buffers NewWorkspace
// makes (every slice of a Workspace), on both shapes and three batch
// sizes.
func TestWorkspaceBytes(t *testing.T) {
	for _, sh := range [][4]int{{1, 28, 28, 10}, {3, 32, 32, 2}} {
		net, err := New(sh[0], sh[1], sh[2], sh[3])
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []int{1, 7, 32} {
			// Every slice field, so that a buffer added later is counted.
			v := reflect.ValueOf(net.NewWorkspace(b)).Elem()
			got := int64(0)
			for i := range v.NumField() {
				if f := v.Field(i); f.Kind() == reflect.Slice {
					got += int64(f.Len()) * int64(f.Type().Elem().Size())
				}
			}
			if want := net.WorkspaceBytes(); got != want {
				t.Errorf("%v batch %d: workspace holds %d bytes, WorkspaceBytes says %d", sh, b, got, want)
			}
		}
	}
}

// goldenGrad is the SHA-256 of the float32 bits of the loss and the
// gradient of fixture(1, 28, 28, 10, 8, seed 11) and fixture(3, 32, 32,
// 2, 4, seed 12). The same test runs under js/wasm
// (GOOS=js GOARCH=wasm go test ./core/nn, with go_js_wasm_exec on the
// PATH), so the constant pins the bits on both platforms.
const goldenGrad = "cafa014f7d63b69aaacb4fe890d851d111fb183a8468db01e9d5254e957fc7f4"

// TestGoldenBits pins the bits of two gradients (see goldenGrad).
func TestGoldenBits(t *testing.T) {
	eachPath(t, testGoldenBits)
}

func testGoldenBits(t *testing.T) {
	h := sha256.New()
	for _, f := range [][6]int{{1, 28, 28, 10, 8, 11}, {3, 32, 32, 2, 4, 12}} {
		net, params, x, y := fixture(t, f[0], f[1], f[2], f[3], f[4], uint64(f[5]))
		g := make([]float32, net.Size())
		loss := net.NewWorkspace(f[4]).Gradient(params, x, y, g)
		binary.Write(h, binary.LittleEndian, math.Float64bits(loss))
		for _, v := range g {
			binary.Write(h, binary.LittleEndian, math.Float32bits(v))
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != goldenGrad {
		t.Errorf("gradient bits hash %s, want %s", got, goldenGrad)
	}
}

// TestTrains checks that plain SGD on a fixed batch drives the loss down
// (the gradient points downhill end to end).
func TestTrains(t *testing.T) {
	net, params, x, y := fixture(t, 1, 16, 16, 3, 8, 9)
	ws := net.NewWorkspace(8)
	g := make([]float32, net.Size())
	first := ws.Gradient(params, x, y, g)
	var last float64
	for range 60 {
		last = ws.Gradient(params, x, y, g)
		for k := range params {
			params[k] -= float32(0.1 * g[k])
		}
	}
	if !(last < 0.5*first) {
		t.Errorf("loss %.4g → %.4g after 60 SGD steps on one batch: want at least halved", first, last)
	}
}

func benchStep(b *testing.B, c, h, w, classes int) {
	net, params, x, y := fixture(b, c, h, w, classes, 32, 1)
	ws := net.NewWorkspace(32)
	g := make([]float32, net.Size())
	cpu, unlock := threadCPU()
	defer unlock()
	b.ReportAllocs()
	b.ResetTimer()
	t0 := cpu()
	for range b.N {
		ws.Gradient(params, x, y, g)
	}
	if t := cpu() - t0; t > 0 {
		// CPU time per step: immune to being descheduled on a shared
		// machine (bench/cnn/run.sh prints both).
		b.ReportMetric(t/float64(b.N)/1e6, "cpu-ms/op")
	}
	b.ReportMetric(float64(b.N)*32*float64(net.FLOPs())/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkStep times one training step (forward and backward, batch 32)
// on the MNIST and CIFAR shapes: bench/cnn/run.sh compares it with
// PyTorch, TensorFlow.js and ConvNetJS.
func BenchmarkStep(b *testing.B) {
	b.Run("mnist", func(b *testing.B) { benchStep(b, 1, 28, 28, 10) })
	b.Run("cifar", func(b *testing.B) { benchStep(b, 3, 32, 32, 10) })
}

// TestChunks checks that a batch done in chunks with AddGradient gives
// the bits of Gradient on the whole batch: every sum keeps its order.
func TestChunks(t *testing.T) {
	net, params, x, y := fixture(t, 1, 28, 28, 10, 8, 13)
	whole := make([]float32, net.Size())
	lw := net.NewWorkspace(8).Gradient(params, x, y, whole)
	ws := net.NewWorkspace(3)
	chunks := make([]float32, net.Size())
	ls := 0.0
	for lo := 0; lo < 8; lo += 3 {
		hi := min(lo+3, 8)
		ls += ws.AddGradient(params, x[lo*net.Input():hi*net.Input()], y[lo:hi], 1.0/8, chunks)
	}
	if math.Abs(float64(ls/8)-lw) > 1e-12 {
		t.Errorf("loss %v in chunks, %v whole", ls/8, lw)
	}
	for k := range whole {
		if math.Float32bits(whole[k]) != math.Float32bits(chunks[k]) {
			t.Fatalf("gradient[%d] = %v in chunks, %v whole", k, chunks[k], whole[k])
		}
	}
}

// TestMax32 checks the written-out max (wasm's) against the builtin on the
// values that differ in sign of zero and on ordinary ones (the builtin's
// NaN is a NaN, whatever its bits).
func TestMax32(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	nan := float32(math.NaN())
	vals := []float32{negZero, 0, 1, -1, 2.5, -3, float32(math.Inf(1)), float32(math.Inf(-1)), nan}
	for _, a := range vals {
		for _, b := range vals {
			got, want := maxWritten(a, b), max(a, b)
			if want != want {
				if got == got {
					t.Errorf("max32(%v, %v) = %v, want NaN", a, b, got)
				}
				continue
			}
			if math.Float32bits(got) != math.Float32bits(want) {
				t.Errorf("max32(%v, %v) = %v (bits %x), the builtin %v (bits %x)", a, b, got, math.Float32bits(got), want, math.Float32bits(want))
			}
		}
	}
}
