package nn

// The three matrix products of the network, all row-major and all
// accumulating into C. Where useKernel is set (amd64 with AVX2, and
// wasm) gemmNN, gemmTN and gemmNT hand over to gemmStrided and its
// assembly micro-kernels (strided.go, kern_*.s); the Go kernels below
// run elsewhere and in the tests on every platform. Two shapes of loop, chosen by measurement
// (docs/cnn.md; the register tiles that suit a C compiler lose here,
// because Go's register allocator spills the slice headers and loop
// counters of a 4×4 tile):
//
//   - NN and TN run along a row of C, adding four rows of B scaled by
//     four entries of A in one pass (c_j += a_0·b_0j + a_1·b_1j + a_2·b_2j
//     + a_3·b_3j): four multiply–adds per load and store of c_j, and
//     every load contiguous;
//   - NT keeps a 2×4 tile of C in registers while it walks two rows of A
//     and four rows of B, all contiguous: eight multiply–adds per six
//     loads.
//
// Tiles are small enough that Go keeps them in registers on amd64 (15
// usable XMM registers). Under wasm, where every loop iteration is dear,
// the convolutions read im2colPacked's layout instead (gemmNNPacked,
// gemmNTPacked) and the axpy takes eight rows per pass; docs/cnn.md has
// the measurements behind each choice. Every output adds its terms in increasing order of the shared
// index, starting from C's value, so the bits do not depend on the tile
// shape or the platform. Products are converted to float32 before they
// are added so that no platform fuses them into an FMA.
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

// gemmNT computes C (m×n) += A (m×k) · B (n×k)ᵀ: every output is a dot
// product of a row of A and a row of B. panel is scratch of at least 4k
// values, and of k·n where useKernel is set (then Bᵀ is written there
// and gemmStrided does the product). Under wasm, four rows of B are first interleaved into panel,
// so the kernel walks three slices instead of six (Go's js/wasm code
// runs out of registers and keeps the loop counter in memory
// otherwise); natively the rows are read in place.
func gemmNT(m, n, k int, a, b, c, panel []float32) {
	if useKernel {
		gemmNTKernel(m, n, k, a, b, c, panel)
		return
	}
	if wasm {
		gemmNTPanel(m, n, k, a, b, c, panel)
		return
	}
	gemmNT24(m, n, k, a, b, c, n)
}

// gemmNTPanel is gemmNT with B's rows interleaved four at a time.
func gemmNTPanel(m, n, k int, a, b, c, panel []float32) {
	panel = panel[:4*k]
	j := 0
	for ; j+4 <= n; j += 4 {
		b0 := b[j*k : j*k+k]
		b1 := b[(j+1)*k : (j+1)*k+k]
		b2 := b[(j+2)*k : (j+2)*k+k]
		b3 := b[(j+3)*k : (j+3)*k+k]
		b1, b2, b3 = b1[:len(b0)], b2[:len(b0)], b3[:len(b0)]
		for p, v := range b0 {
			q := panel[4*p : 4*p+4 : 4*p+4]
			q[0], q[1], q[2], q[3] = v, b1[p], b2[p], b3[p]
		}
		i := 0
		for ; i+2 <= m; i += 2 {
			a0 := a[i*k : i*k+k]
			a1 := a[(i+1)*k : (i+1)*k+k]
			a1 = a1[:len(a0)]
			c0 := c[i*n+j : i*n+j+4 : i*n+j+4]
			c1 := c[(i+1)*n+j : (i+1)*n+j+4 : (i+1)*n+j+4]
			s00, s01, s02, s03 := c0[0], c0[1], c0[2], c0[3]
			s10, s11, s12, s13 := c1[0], c1[1], c1[2], c1[3]
			pn := panel[:4*len(a0)]
			for p, x0 := range a0 {
				x1 := a1[p]
				q := pn[4*p : 4*p+4 : 4*p+4]
				y := q[0]
				s00 += float32(x0 * y)
				s10 += float32(x1 * y)
				y = q[1]
				s01 += float32(x0 * y)
				s11 += float32(x1 * y)
				y = q[2]
				s02 += float32(x0 * y)
				s12 += float32(x1 * y)
				y = q[3]
				s03 += float32(x0 * y)
				s13 += float32(x1 * y)
			}
			c0[0], c0[1], c0[2], c0[3] = s00, s01, s02, s03
			c1[0], c1[1], c1[2], c1[3] = s10, s11, s12, s13
		}
		if i < m {
			gemmNT24(m-i, 4, k, a[i*k:], b[j*k:], c[i*n+j:], n)
		}
	}
	if j < n {
		gemmNT24(m, n-j, k, a, b[j*k:], c[j:], n)
	}
}

// gemmNT24 is gemmNT on B's rows in place, with a 2×4 tile; ldc is
// C's row stride (n when C is the whole matrix).
func gemmNT24(m, n, k int, a, b, c []float32, ldc int) {
	i := 0
	for ; i+2 <= m; i += 2 {
		a0 := a[i*k : i*k+k]
		a1 := a[(i+1)*k : (i+1)*k+k]
		c0 := c[i*ldc : i*ldc+n]
		c1 := c[(i+1)*ldc : (i+1)*ldc+n]
		j := 0
		for ; j+4 <= n; j += 4 {
			b0 := b[j*k : j*k+k]
			b1 := b[(j+1)*k : (j+1)*k+k]
			b2 := b[(j+2)*k : (j+2)*k+k]
			b3 := b[(j+3)*k : (j+3)*k+k]
			s00, s01, s02, s03 := c0[j], c0[j+1], c0[j+2], c0[j+3]
			s10, s11, s12, s13 := c1[j], c1[j+1], c1[j+2], c1[j+3]
			for p := range k {
				x0, x1 := a0[p], a1[p]
				y := b0[p]
				s00 += float32(x0 * y)
				s10 += float32(x1 * y)
				y = b1[p]
				s01 += float32(x0 * y)
				s11 += float32(x1 * y)
				y = b2[p]
				s02 += float32(x0 * y)
				s12 += float32(x1 * y)
				y = b3[p]
				s03 += float32(x0 * y)
				s13 += float32(x1 * y)
			}
			c0[j], c0[j+1], c0[j+2], c0[j+3] = s00, s01, s02, s03
			c1[j], c1[j+1], c1[j+2], c1[j+3] = s10, s11, s12, s13
		}
		for ; j < n; j++ {
			br := b[j*k : j*k+k]
			s0, s1 := c0[j], c1[j]
			for p := range k {
				s0 += float32(a0[p] * br[p])
				s1 += float32(a1[p] * br[p])
			}
			c0[j], c1[j] = s0, s1
		}
	}
	for ; i < m; i++ {
		ar := a[i*k : i*k+k]
		cr := c[i*ldc : i*ldc+n]
		for j := range cr {
			br := b[j*k : j*k+k]
			br = br[:len(ar)]
			s := cr[j]
			for p, x := range ar {
				s += float32(x * br[p])
			}
			cr[j] = s
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

// gemmNTPacked computes C (m×n) += A (m×k) · Bᵀ with B (n×k) in pack8's
// layout (its rows in groups of eight, interleaved along k): eight dot
// products at once, one address per eight multiply–adds. Under wasm the
// weight gradients use it on im2colPacked's output.
func gemmNTPacked(m, n, k int, a, bp, c []float32) {
	g := n / 8
	for i := range m {
		ar := a[i*k : i*k+k]
		cr := c[i*n : i*n+n]
		for gi := range g {
			cs := cr[gi*8 : gi*8+8 : gi*8+8]
			s0, s1, s2, s3, s4, s5, s6, s7 := cs[0], cs[1], cs[2], cs[3], cs[4], cs[5], cs[6], cs[7]
			bg := bp[gi*8*k : (gi+1)*8*k]
			bg = bg[:8*len(ar)]
			for p, x := range ar {
				q := bg[8*p : 8*p+8 : 8*p+8]
				s0 += float32(x * q[0])
				s1 += float32(x * q[1])
				s2 += float32(x * q[2])
				s3 += float32(x * q[3])
				s4 += float32(x * q[4])
				s5 += float32(x * q[5])
				s6 += float32(x * q[6])
				s7 += float32(x * q[7])
			}
			cs[0], cs[1], cs[2], cs[3], cs[4], cs[5], cs[6], cs[7] = s0, s1, s2, s3, s4, s5, s6, s7
		}
		if j := g * 8; j < n {
			gemmNT24(1, n-j, k, ar, bp[j*k:n*k], cr[j:], n)
		}
	}
}
