// Package nn is a small convolutional network in pure Go, fast enough to
// train in a browser tab without a GPU: the fixed architecture
//
//	conv 5×5×8 → ReLU → max-pool 2 → conv 5×5×16 → ReLU → max-pool 2 → dense → softmax cross-entropy
//
// (valid convolutions, stride 1; pools 2×2, stride 2) on C×H×W images,
// forward and backward, over flat float32 slices.
//
// All parameters live in one flat []float32 (Net.Layout says where each
// layer's weights sit), so an optimisation method sees one vector. A
// Workspace holds every buffer of one batch size and is reused: a
// training step allocates nothing.
//
// Results are bit-for-bit the same natively and under js/wasm: the
// arithmetic is float32 throughout with every product converted to
// float32 before it is added (so no platform fuses it into an FMA), every
// sum runs in a fixed order (each output of the forward convolutions and
// the patch and dense backward products adds its terms in increasing
// index order; the weight and bias gradients and the logits sum in
// core/num's eight-lane order: lanes.go), whatever the tiling, and the softmax
// uses core/num's pinned exp and log in float64.
package nn

import (
	"fmt"
	"math"

	"dpsim/core/num"
	"dpsim/core/rng"
)

// Kernel and pooling sizes, and the channels of the two convolutions:
// the architecture is fixed (issue 19; not the paper's, which gives none).
const (
	// Kernel is the side of both convolutions' square kernels.
	Kernel = 5
	// Channels1 and Channels2 are the output channels of the first and
	// second convolution.
	Channels1 = 8
	Channels2 = 16
)

const kk = Kernel * Kernel

// Net is the network's shape for one input shape and number of classes.
// It holds no parameters and is safe for concurrent use.
type Net struct {
	c, h, w, classes int
	h1, w1           int // first convolution's output
	q1h, q1w         int // after the first pool
	h2, w2           int // second convolution's output
	q2h, q2w         int // after the second pool
	feat             int // dense inputs: Channels2·q2h·q2w
	layout           Layout
}

// Layout gives the offsets of each layer's parameters in the flat
// parameter vector, in this order: conv1 weights (Channels1 × C·25,
// output-channel-major, then input channel, kernel row, kernel column),
// conv1 biases, conv2 weights (Channels2 × Channels1·25), conv2 biases,
// dense weights (classes × features, class-major; features in the
// pooled map's channel, row, column order) and dense biases. Size is the
// total.
type Layout struct {
	Conv1W, Conv1B, Conv2W, Conv2B, DenseW, DenseB, Size int
}

// New returns the network for c×h×w images (c channels, each an h×w
// plane, row-major) and the given number of classes (at least 2). Each
// side must leave at least one pixel after both convolutions and pools.
func New(c, h, w, classes int) (*Net, error) {
	if c < 1 || h < 1 || w < 1 || c > 64 || h > 1024 || w > 1024 {
		return nil, fmt.Errorf("input shape %d×%d×%d: channels must be in [1, 64] and sides in [1, 1024]", c, h, w)
	}
	if classes < 2 || classes > 1000 {
		return nil, fmt.Errorf("classes %d: must be in [2, 1000]", classes)
	}
	n := &Net{c: c, h: h, w: w, classes: classes}
	n.h1, n.w1 = h-Kernel+1, w-Kernel+1
	n.q1h, n.q1w = n.h1/2, n.w1/2
	n.h2, n.w2 = n.q1h-Kernel+1, n.q1w-Kernel+1
	n.q2h, n.q2w = n.h2/2, n.w2/2
	if n.q2h < 1 || n.q2w < 1 {
		return nil, fmt.Errorf("input %d×%d is too small: the two 5×5 convolutions and 2×2 pools need sides of at least 16", h, w)
	}
	n.feat = Channels2 * n.q2h * n.q2w
	l := &n.layout
	l.Conv1W = 0
	l.Conv1B = l.Conv1W + Channels1*c*kk
	l.Conv2W = l.Conv1B + Channels1
	l.Conv2B = l.Conv2W + Channels2*Channels1*kk
	l.DenseW = l.Conv2B + Channels2
	l.DenseB = l.DenseW + classes*n.feat
	l.Size = l.DenseB + classes
	return n, nil
}

// Layout returns where each layer's parameters sit in the flat vector.
func (n *Net) Layout() Layout { return n.layout }

// Size returns the number of parameters.
func (n *Net) Size() int { return n.layout.Size }

// Input returns the number of values in one image, C·H·W.
func (n *Net) Input() int { return n.c * n.h * n.w }

// Classes returns the number of classes.
func (n *Net) Classes() int { return n.classes }

// Features returns the dense layer's inputs per image.
func (n *Net) Features() int { return n.feat }

// String describes the architecture with every layer's output shape.
func (n *Net) String() string {
	return fmt.Sprintf("%d×%d×%d → conv 5×5×%d (%d×%d) → ReLU → max-pool 2 (%d×%d) → conv 5×5×%d (%d×%d) → ReLU → max-pool 2 (%d×%d) → dense %d→%d → softmax cross-entropy; %d parameters",
		n.c, n.h, n.w, Channels1, n.h1, n.w1, n.q1h, n.q1w, Channels2, n.h2, n.w2, n.q2h, n.q2w, n.feat, n.classes, n.layout.Size)
}

// FLOPs returns the floating-point operations of one training step on
// one image by the usual count (forward, weight gradient and input
// gradient each 2 per multiply–add; the first convolution's input
// gradient, which is never computed, included), for throughput figures.
func (n *Net) FLOPs() int {
	macs := Channels1*n.c*kk*n.h1*n.w1 + Channels2*Channels1*kk*n.h2*n.w2 + n.classes*n.feat
	return 3 * 2 * macs
}

// Init writes a seeded initialisation into params (len Size): every
// weight uniform in ±√(6/fan-in) (He et al.'s scale for ReLU layers),
// drawn from s in layout order, and every bias 0.
func (n *Net) Init(params []float32, s *rng.Stream) {
	l := n.layout
	fill := func(lo, hi, fanIn int) {
		a := math.Sqrt(6 / float64(fanIn))
		for k := lo; k < hi; k++ {
			params[k] = float32((float64(2*s.Float64()) - 1) * a)
		}
	}
	fill(l.Conv1W, l.Conv1B, n.c*kk)
	clear(params[l.Conv1B:l.Conv2W])
	fill(l.Conv2W, l.Conv2B, Channels1*kk)
	clear(params[l.Conv2B:l.DenseW])
	fill(l.DenseW, l.DenseB, n.feat)
	clear(params[l.DenseB:l.Size])
}

// Workspace holds every buffer of a forward and backward pass over
// batches of up to Batch images. It is reused from step to step (no
// allocation per step) and is not safe for concurrent use: give each
// goroutine its own.
type Workspace struct {
	net   *Net
	batch int

	// One image's, kept from its forward pass for its backward pass: an
	// image goes forward and back before the next one starts, so the
	// patch matrices of both convolutions are built once.
	cols1 []float32 // im2col of the image: C·25 × h1·w1
	cols2 []float32 // im2col of the pooled first map: Channels1·25 × h2·w2
	a1    []float32 // first convolution's output, Channels1·h1·w1
	q1    []float32 // pooled, ReLU'd first map: Channels1·q1h·q1w
	arg1  []uint8   // which of the 2×2 window each q1 value came from
	a2    []float32 // Channels2·h2·w2
	q2    []float32 // feat
	arg2  []uint8
	z     []float32 // logits, classes
	dz    []float32 // ∂loss/∂z
	dq2   []float32 // feat
	dcols []float32 // Channels1·25·h2·w2
	dq1   []float32 // Channels1·q1h·q1w
}

// NewWorkspace returns buffers for batches of up to batch images.
func (n *Net) NewWorkspace(batch int) *Workspace {
	n1 := Channels1 * n.q1h * n.q1w
	return &Workspace{
		net: n, batch: max(batch, 1),
		cols1: make([]float32, n.c*kk*n.h1*n.w1),
		cols2: make([]float32, Channels1*kk*n.h2*n.w2),
		a1:    make([]float32, Channels1*n.h1*n.w1),
		q1:    make([]float32, n1), arg1: make([]uint8, n1),
		a2: make([]float32, Channels2*n.h2*n.w2),
		q2: make([]float32, n.feat), arg2: make([]uint8, n.feat),
		z: make([]float32, n.classes), dz: make([]float32, n.classes),
		dq2:   make([]float32, n.feat),
		dcols: make([]float32, Channels1*kk*n.h2*n.w2),
		dq1:   make([]float32, n1),
	}
}

// WorkspaceBytes returns the bytes of NewWorkspace's buffers, for
// memory estimates (TestWorkspaceBytes holds it to a workspace's); they
// do not depend on the batch.
func (n *Net) WorkspaceBytes() int64 {
	n1 := Channels1 * n.q1h * n.q1w
	f32 := n.c*kk*n.h1*n.w1 + 2*Channels1*kk*n.h2*n.w2 + Channels1*n.h1*n.w1 + Channels2*n.h2*n.w2 +
		2*n1 + 2*n.feat + 2*n.classes
	return 4*int64(f32) + int64(n1+n.feat)
}

// Batch returns the largest batch the workspace holds.
func (ws *Workspace) Batch() int { return ws.batch }

// Forward runs the network on the images x (len(labels) images of Input
// values each, image-major) with parameters params, and returns the
// mean softmax cross-entropy loss over the batch and the number of
// images whose highest logit is their label. labels are in [0, Classes).
// The losses are summed in chunks of Batch images, the chunks' sums
// then added up (so the result does not depend on anything but Batch).
func (ws *Workspace) Forward(params, x []float32, labels []uint8) (loss float64, correct int) {
	in := ws.net.Input()
	for lo := 0; lo < len(labels); lo += ws.batch {
		hi := min(lo+ws.batch, len(labels))
		chunk := 0.0
		for i := lo; i < hi; i++ {
			l, ok := ws.forward(params, x[i*in:(i+1)*in], labels[i], 0)
			chunk += l
			if ok {
				correct++
			}
		}
		loss += chunk
	}
	return loss / float64(len(labels)), correct
}

// Gradient writes into grad (len Size) the gradient of the mean softmax
// cross-entropy over the batch (at most Batch images) with respect to
// params, and returns that mean loss.
func (ws *Workspace) Gradient(params, x []float32, labels []uint8, grad []float32) float64 {
	clear(grad)
	return ws.AddGradient(params, x, labels, 1/float64(len(labels)), grad) / float64(len(labels))
}

// AddGradient adds scale times the sum over the batch (at most Batch
// images) of every image's cross-entropy gradient to grad, and returns
// the summed loss: a long list of images is done in chunks of Batch,
// with scale = 1/(the list's length) for the mean. Each image goes
// forward and back in turn; every gradient entry adds the images'
// terms in image order.
func (ws *Workspace) AddGradient(params, x []float32, labels []uint8, scale float64, grad []float32) float64 {
	if b := len(labels); b > ws.batch {
		panic(fmt.Sprintf("nn: batch of %d images in a workspace for %d", b, ws.batch))
	}
	in := ws.net.Input()
	loss := 0.0
	for i, y := range labels {
		img := x[i*in : (i+1)*in]
		l, _ := ws.forward(params, img, y, scale)
		loss += l
		ws.backward(params, grad)
	}
	return loss
}

// forward runs one image x, keeping what its backward pass needs, and
// returns its loss and whether its highest logit is its label; with
// scale ≠ 0 it also fills dz = scale·∂loss/∂z.
func (ws *Workspace) forward(params, x []float32, label uint8, scale float64) (float64, bool) {
	n, l := ws.net, ws.net.layout
	p1, p2 := n.h1*n.w1, n.h2*n.w2
	w1, b1 := params[l.Conv1W:l.Conv1B], params[l.Conv1B:l.Conv2W]
	w2, b2 := params[l.Conv2W:l.Conv2B], params[l.Conv2B:l.DenseW]
	wd, bd := params[l.DenseW:l.DenseB], params[l.DenseB:l.Size]
	// conv1: a1 (Channels1 × p1) = b1 + W1 (Channels1 × C·25) · cols1 (C·25 × p1).
	fillBias(ws.a1, b1, p1)
	if wasm && !useKernel {
		// Go's own wasm code: the packed layout, and cols1 rebuilt
		// plainly for the backward pass's weight gradient.
		im2colPacked(x, n.c, n.h, n.w, ws.cols1)
		gemmNNPacked(Channels1, p1, n.c*kk, w1, ws.cols1, ws.a1)
		im2col(x, n.c, n.h, n.w, ws.cols1)
	} else {
		im2col(x, n.c, n.h, n.w, ws.cols1)
		gemmNN(Channels1, p1, n.c*kk, w1, ws.cols1, ws.a1)
	}
	poolReLU(ws.a1, Channels1, n.h1, n.w1, ws.q1, ws.arg1)
	// conv2 on the pooled map.
	fillBias(ws.a2, b2, p2)
	if wasm && !useKernel {
		im2colPacked(ws.q1, Channels1, n.q1h, n.q1w, ws.cols2)
		gemmNNPacked(Channels2, p2, Channels1*kk, w2, ws.cols2, ws.a2)
		im2col(ws.q1, Channels1, n.q1h, n.q1w, ws.cols2)
	} else {
		im2col(ws.q1, Channels1, n.q1h, n.q1w, ws.cols2)
		gemmNN(Channels2, p2, Channels1*kk, w2, ws.cols2, ws.a2)
	}
	poolReLU(ws.a2, Channels2, n.h2, n.w2, ws.q2, ws.arg2)
	// dense: z (classes) = bd + Wd (classes × feat) · q2.
	copy(ws.z, bd)
	gemmNT(1, n.classes, n.feat, ws.q2, wd, ws.z)
	return ws.softmax(label, scale)
}

// softmax returns the cross-entropy of the logits ws.z and whether the
// highest is the label; with scale ≠ 0 it writes dz = scale·(softmax(z)
// − onehot(y)). In float64 with core/num's exp and log, so every
// platform gives the same bits.
func (ws *Workspace) softmax(y uint8, scale float64) (float64, bool) {
	z := ws.z
	best := 0
	for c := range z {
		if z[c] > z[best] {
			best = c
		}
	}
	top := float64(z[best])
	s := 0.0
	for _, v := range z {
		s += num.Exp(float64(v) - top)
	}
	lse := top + num.Log(s)
	if scale != 0 {
		for c, v := range z {
			p := num.Exp(float64(v) - lse)
			if c == int(y) {
				p--
			}
			ws.dz[c] = float32(p * scale)
		}
	}
	return lse - float64(z[y]), best == int(y)
}

// backward adds the gradient of the image forward last ran to grad.
func (ws *Workspace) backward(params []float32, grad []float32) {
	n, l := ws.net, ws.net.layout
	p1, p2 := n.h1*n.w1, n.h2*n.w2
	w2, wd := params[l.Conv2W:l.Conv2B], params[l.DenseW:l.DenseB]
	gw1, gb1 := grad[l.Conv1W:l.Conv1B], grad[l.Conv1B:l.Conv2W]
	gw2, gb2 := grad[l.Conv2W:l.Conv2B], grad[l.Conv2B:l.DenseW]
	gwd, gbd := grad[l.DenseW:l.DenseB], grad[l.DenseB:l.Size]
	// dense: ∂Wd (classes × feat) += dz (classes) ⊗ q2 (feat); ∂bd += dz;
	// ∂q2 = Wdᵀ · dz.
	gemmTN(n.classes, n.feat, 1, ws.dz, ws.q2, gwd)
	for c, v := range ws.dz {
		gbd[c] += v
	}
	clear(ws.dq2)
	gemmNN(1, n.feat, n.classes, ws.dz, wd, ws.dq2)
	// Back through the second pool and ReLU into a2's gradient.
	unpool(ws.dq2, ws.q2, ws.arg2, Channels2, n.h2, n.w2, ws.a2)
	rowSums(ws.a2, Channels2, p2, gb2)
	// ∂W2 += ∂a2 (Channels2 × p2) · cols2ᵀ; ∂cols2 = W2ᵀ · ∂a2.
	gemmNT(Channels2, Channels1*kk, p2, ws.a2, ws.cols2, gw2)
	clear(ws.dcols)
	gemmTN(Channels1*kk, p2, Channels2, w2, ws.a2, ws.dcols)
	clear(ws.dq1)
	col2im(ws.dcols, Channels1, n.q1h, n.q1w, ws.dq1)
	// Back through the first pool and ReLU; the input's own gradient is
	// never needed.
	unpool(ws.dq1, ws.q1, ws.arg1, Channels1, n.h1, n.w1, ws.a1)
	rowSums(ws.a1, Channels1, p1, gb1)
	gemmNT(Channels1, n.c*kk, p1, ws.a1, ws.cols1, gw1)
}

// fillBiasGo sets row r of a (rows × p) to bias[r].
func fillBiasGo(a, bias []float32, p int) {
	for r, v := range bias {
		row := a[r*p : (r+1)*p]
		for j := range row {
			row[j] = v
		}
	}
}

// rowSumsGo adds each row's sum of a (rows × p) to out[row]: the bias
// gradient, a sum in lanes.go's order (value j of a row to lane j mod 8
// from +0, the lanes combined by num's tree, then added to out), with
// eight scalar accumulators.
func rowSumsGo(a []float32, rows, p int, out []float32) {
	p8 := p &^ 7
	for r := range rows {
		row := a[r*p : (r+1)*p : (r+1)*p]
		var l0, l1, l2, l3, l4, l5, l6, l7 float32
		j := 0
		for ; j < p8; j += 8 {
			v := row[j : j+8 : j+8]
			l0 += v[0]
			l1 += v[1]
			l2 += v[2]
			l3 += v[3]
			l4 += v[4]
			l5 += v[5]
			l6 += v[6]
			l7 += v[7]
		}
		l := [num.Lanes]float32{l0, l1, l2, l3, l4, l5, l6, l7}
		for q, v := range row[j:] {
			l[q] += v
		}
		out[r] += combine32(&l)
	}
}

// im2colGo writes the 5×5 patches of the c×h×w image x as the columns of
// cols ((c·25) × (ho·wo), ho = h−4, wo = w−4): row (ch, ky, kx), column
// (y, x) holds x[ch][y+ky][x+kx].
func im2colGo(x []float32, c, h, w int, cols []float32) {
	ho, wo := h-Kernel+1, w-Kernel+1
	p := ho * wo
	r := 0
	for ch := range c {
		plane := x[ch*h*w : (ch+1)*h*w]
		for ky := range Kernel {
			for kx := range Kernel {
				row := cols[r*p : (r+1)*p]
				for y := range ho {
					copy(row[y*wo:(y+1)*wo], plane[(y+ky)*w+kx:])
				}
				r++
			}
		}
	}
}

// im2colPacked writes what im2col does in pack8's layout (for
// gemmNNPacked): row r of the patch matrix, in group r/8, lane r mod 8,
// lands at dst[(r/8)·8p + 8j + r mod 8] for column j; the last (c·25)
// mod 8 rows as im2col writes them.
func im2colPacked(x []float32, c, h, w int, dst []float32) {
	ho, wo := h-Kernel+1, w-Kernel+1
	p := ho * wo
	k := c * kk
	g := k / 8
	var off [8]int
	for gi := range g {
		// Where each lane's patch row starts in x: channel, kernel row,
		// kernel column of row 8·gi + lane.
		for l := range off {
			r := 8*gi + l
			off[l] = (r/kk)*h*w + (r%kk/Kernel)*w + r%Kernel
		}
		d := dst[gi*8*p : (gi+1)*8*p]
		for y := range ho {
			dy := d[8*y*wo : 8*(y+1)*wo]
			s0, s1, s2, s3 := x[off[0]+y*w:], x[off[1]+y*w:], x[off[2]+y*w:], x[off[3]+y*w:]
			s4, s5, s6, s7 := x[off[4]+y*w:], x[off[5]+y*w:], x[off[6]+y*w:], x[off[7]+y*w:]
			s0, s1, s2, s3 = s0[:wo], s1[:wo], s2[:wo], s3[:wo]
			s4, s5, s6, s7 = s4[:wo], s5[:wo], s6[:wo], s7[:wo]
			for xx := range s0 {
				q := dy[8*xx : 8*xx+8 : 8*xx+8]
				q[0], q[1], q[2], q[3] = s0[xx], s1[xx], s2[xx], s3[xx]
				q[4], q[5], q[6], q[7] = s4[xx], s5[xx], s6[xx], s7[xx]
			}
		}
	}
	for r := 8 * g; r < k; r++ {
		src := x[(r/kk)*h*w+(r%kk/Kernel)*w+r%Kernel:]
		row := dst[r*p : (r+1)*p]
		for y := range ho {
			copy(row[y*wo:(y+1)*wo], src[y*w:])
		}
	}
}

// col2imGo adds the columns of dcols back onto the c×h×w gradient dx: the
// adjoint of im2col, in the same order.
func col2imGo(dcols []float32, c, h, w int, dx []float32) {
	ho, wo := h-Kernel+1, w-Kernel+1
	p := ho * wo
	r := 0
	for ch := range c {
		plane := dx[ch*h*w : (ch+1)*h*w]
		for ky := range Kernel {
			for kx := range Kernel {
				row := dcols[r*p : (r+1)*p]
				for y := range ho {
					src := row[y*wo : (y+1)*wo]
					dst := plane[(y+ky)*w+kx : (y+ky)*w+kx+wo]
					for j, v := range src {
						dst[j] += v
					}
				}
				r++
			}
		}
	}
}

// poolReLUGo writes max(0, max of each 2×2 window) of the c×h×w map a into
// out (c × h/2 × w/2; an odd last row or column is dropped) and which
// window position (0–3, row-major, the first on ties) held the maximum
// into arg. ReLU and max commute, so one pass does both.
func poolReLUGo(a []float32, c, h, w int, out []float32, arg []uint8) {
	oh, ow := h/2, w/2
	k := 0
	for ch := range c {
		plane := a[ch*h*w : (ch+1)*h*w]
		for y := range oh {
			r0 := plane[2*y*w : 2*y*w+2*ow]
			r1 := plane[(2*y+1)*w : (2*y+1)*w+2*ow]
			o := out[k : k+ow]
			g := arg[k : k+ow]
			for x := range o {
				// Branch-free: the window's values are random, so
				// branches on them would be mispredicted half the time.
				v0, v1, v2, v3 := r0[2*x], r0[2*x+1], r1[2*x], r1[2*x+1]
				m := max32(max32(v0, v1), max32(v2, v3))
				// The first position holding m, found from the last.
				at := 3
				at ^= (at ^ 2) & -b2i(v2 == m)
				at ^= (at ^ 1) & -b2i(v1 == m)
				at &= -(1 - b2i(v0 == m))
				o[x], g[x] = max32(m, 0), uint8(at)
			}
			k += ow
		}
	}
}

// max32 is Go's max on two float32s. Under wasm Go calls a runtime
// function for the builtin (a tenth of the wasm step went there), so
// there it is written out with the builtin's results: the larger value;
// +0 over −0; NaN if either is NaN.
func max32(a, b float32) float32 {
	if !wasm {
		return max(a, b)
	}
	return maxWritten(a, b)
}

// maxWritten is max32's written-out form.
func maxWritten(a, b float32) float32 {
	switch {
	case a != a:
		return a
	case b != b:
		return b
	case a > b:
		return a
	case b > a:
		return b
	case math.Signbit(float64(a)):
		return b
	}
	return a
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// unpoolGo writes into da (the c×h×w pre-activation gradient) the pooled
// gradient dq routed to each window's maximum where the pooled value q is
// positive (ReLU's derivative), and zero elsewhere.
func unpoolGo(dq, q []float32, arg []uint8, c, h, w int, da []float32) {
	clear(da[:c*h*w])
	oh, ow := h/2, w/2
	k := 0
	for ch := range c {
		plane := da[ch*h*w : (ch+1)*h*w]
		for y := range oh {
			for x := range ow {
				if q[k] > 0 {
					a := arg[k]
					plane[(2*y+int(a>>1))*w+2*x+int(a&1)] = dq[k]
				}
				k++
			}
		}
	}
}
