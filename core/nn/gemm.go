package nn

// The network's NN and TN matrix products (gemmNT, the dot products,
// is in lanes.go), row-major and accumulating into C. Where useKernel
// is set (amd64 with AVX2, and wasm) gemmNN and gemmTN hand over to
// gemmStrided and its assembly micro-kernels (strided.go, kern_*.s);
// the Go kernels below run elsewhere and in the tests on every
// platform. They run along a row of C, adding four rows of B scaled by
// four entries of A in one pass (c_j += a_0·b_0j + a_1·b_1j + a_2·b_2j
// + a_3·b_3j): four multiply–adds per load and store of c_j, and every
// load contiguous — chosen by measurement (docs/cnn.md; the register
// tiles that suit a C compiler lose here, because Go's register
// allocator spills the slice headers and loop counters of a 4×4 tile).
// Under wasm, where every loop iteration is dear, the forward
// convolutions read im2colPacked's layout instead (gemmNNPacked) and
// the axpy takes eight rows per pass. Every output adds its terms in
// increasing order of the shared index, starting from C's value, so the
// bits do not depend on the tile shape or the platform. Products are
// converted to float32 before they are added so that no platform fuses
// them into an FMA.
//
// Slices are resliced to their exact lengths before the hot loops so
// that the compiler can prove the indices in range and drop the bounds
// checks.

// gemmNN computes C (m×n) += A (m×k) · B (k×n).
func gemmNN(m, n, k int, a, b, c []float32) {
	if useKernel {
		gemmStrided(m, n, k, a, k, 1, b, n, c, n)
		return
	}
	b = b[:k*n]
	for i := range m {
		axpyRows(a[i*k:i*k+k], 1, b, n, c[i*n:i*n+n])
	}
}

// gemmTN computes C (m×n) += A (k×m)ᵀ · B (k×n).
func gemmTN(m, n, k int, a, b, c []float32) {
	if useKernel {
		gemmStrided(m, n, k, a, 1, m, b, n, c, n)
		return
	}
	a, b = a[:k*m], b[:k*n]
	for i := range m {
		axpyRows(a[i:], m, b, n, c[i*n:i*n+n])
	}
}

// axpyRows adds Σ_p x[p·stride]·B_p to the row cr (len n), B_p the p-th
// row of b (k×n), in increasing order of p: eight rows per pass under
// wasm, four natively (measured: docs/cnn.md). Both add the same terms
// in the same order, so they give the same bits.
func axpyRows(x []float32, stride int, b []float32, n int, cr []float32) {
	if wasm {
		axpyRows8(x, stride, b, n, cr)
		return
	}
	axpyRows4(x, stride, b, n, cr)
}

// axpyRows8 is axpyRows eight rows of B per pass over cr: fewer passes
// for Go's js/wasm code, whose every loop iteration is dear.
func axpyRows8(x []float32, stride int, b []float32, n int, cr []float32) {
	k := len(b) / max(n, 1)
	p := 0
	for ; p+8 <= k; p += 8 {
		x0, x1, x2, x3 := x[p*stride], x[(p+1)*stride], x[(p+2)*stride], x[(p+3)*stride]
		x4, x5, x6, x7 := x[(p+4)*stride], x[(p+5)*stride], x[(p+6)*stride], x[(p+7)*stride]
		b0 := b[p*n : p*n+n]
		b1 := b[(p+1)*n : (p+1)*n+n]
		b2 := b[(p+2)*n : (p+2)*n+n]
		b3 := b[(p+3)*n : (p+3)*n+n]
		b4 := b[(p+4)*n : (p+4)*n+n]
		b5 := b[(p+5)*n : (p+5)*n+n]
		b6 := b[(p+6)*n : (p+6)*n+n]
		b7 := b[(p+7)*n : (p+7)*n+n]
		b0, b1, b2, b3 = b0[:len(cr)], b1[:len(cr)], b2[:len(cr)], b3[:len(cr)]
		b4, b5, b6, b7 = b4[:len(cr)], b5[:len(cr)], b6[:len(cr)], b7[:len(cr)]
		for j, v := range cr {
			v += float32(x0 * b0[j])
			v += float32(x1 * b1[j])
			v += float32(x2 * b2[j])
			v += float32(x3 * b3[j])
			v += float32(x4 * b4[j])
			v += float32(x5 * b5[j])
			v += float32(x6 * b6[j])
			v += float32(x7 * b7[j])
			cr[j] = v
		}
	}
	if p < k {
		axpyRows4(x[p*stride:], stride, b[p*n:], n, cr)
	}
}

// axpyRows4 is axpyRows four rows of B per pass over cr.
func axpyRows4(x []float32, stride int, b []float32, n int, cr []float32) {
	k := len(b) / max(n, 1)
	p := 0
	for ; p+4 <= k; p += 4 {
		x0, x1, x2, x3 := x[p*stride], x[(p+1)*stride], x[(p+2)*stride], x[(p+3)*stride]
		b0 := b[p*n : p*n+n]
		b1 := b[(p+1)*n : (p+1)*n+n]
		b2 := b[(p+2)*n : (p+2)*n+n]
		b3 := b[(p+3)*n : (p+3)*n+n]
		b0, b1, b2, b3 = b0[:len(cr)], b1[:len(cr)], b2[:len(cr)], b3[:len(cr)]
		for j, v := range cr {
			v += float32(x0 * b0[j])
			v += float32(x1 * b1[j])
			v += float32(x2 * b2[j])
			v += float32(x3 * b3[j])
			cr[j] = v
		}
	}
	for ; p < k; p++ {
		x0 := x[p*stride]
		bp := b[p*n : p*n+n]
		bp = bp[:len(cr)]
		for j := range cr {
			cr[j] += float32(x0 * bp[j])
		}
	}
}

// pack8 writes B (k×n, row-major) into dst (k·n values) in the layout
// axpyPacked reads: each group of eight rows interleaved, so that a
// column's eight values sit side by side (dst[g·8n + 8j + r] =
// B[8g + r][j]), then the last k mod 8 rows as they are. im2colPacked
// writes the same layout directly.
func pack8(b []float32, k, n int, dst []float32) {
	g := k / 8
	for gi := range g {
		d := dst[gi*8*n : (gi+1)*8*n]
		for r := range 8 {
			row := b[(gi*8+r)*n : (gi*8+r+1)*n]
			for j, v := range row {
				d[8*j+r] = v
			}
		}
	}
	copy(dst[g*8*n:k*n], b[g*8*n:k*n])
}

// gemmNNPacked computes C (m×n) += A (m×k) · B with B (k×n) in pack8's
// layout: per row of C, one contiguous run of eight values per column
// and group, so one address and one bounds check per eight
// multiply–adds. Under wasm the forward convolutions use it on
// im2colPacked's output (docs/cnn.md).
func gemmNNPacked(m, n, k int, a, bp, c []float32) {
	g := k / 8
	for i := range m {
		x := a[i*k : i*k+k]
		cr := c[i*n : i*n+n]
		for gi := range g {
			xs := x[gi*8 : gi*8+8 : gi*8+8]
			x0, x1, x2, x3, x4, x5, x6, x7 := xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6], xs[7]
			bg := bp[gi*8*n : (gi+1)*8*n]
			bg = bg[:8*len(cr)]
			for j, v := range cr {
				q := bg[8*j : 8*j+8 : 8*j+8]
				v += float32(x0 * q[0])
				v += float32(x1 * q[1])
				v += float32(x2 * q[2])
				v += float32(x3 * q[3])
				v += float32(x4 * q[4])
				v += float32(x5 * q[5])
				v += float32(x6 * q[6])
				v += float32(x7 * q[7])
				cr[j] = v
			}
		}
		if p := g * 8; p < k {
			axpyRows4(x[p:], 1, bp[p*n:k*n], n, cr)
		}
	}
}
