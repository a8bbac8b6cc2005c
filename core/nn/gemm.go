package nn

// The three matrix products of the network, all row-major and all
// accumulating into C. Two shapes of loop, chosen by measurement
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
// usable XMM registers) and in locals under wasm. Every output adds its terms in increasing order of the shared
// index, starting from C's value, so the bits do not depend on the tile
// shape or the platform. Products are converted to float32 before they
// are added so that no platform fuses them into an FMA.
//
// Slices are resliced to their exact lengths before the hot loops so
// that the compiler can prove the indices in range and drop the bounds
// checks.

// gemmNN computes C (m×n) += A (m×k) · B (k×n).
func gemmNN(m, n, k int, a, b, c []float32) {
	b = b[:k*n]
	for i := range m {
		axpyRows(a[i*k:i*k+k], 1, b, n, c[i*n:i*n+n])
	}
}

// gemmTN computes C (m×n) += A (k×m)ᵀ · B (k×n).
func gemmTN(m, n, k int, a, b, c []float32) {
	a, b = a[:k*m], b[:k*n]
	for i := range m {
		axpyRows(a[i:], m, b, n, c[i*n:i*n+n])
	}
}

// axpyRows adds Σ_p x[p·stride]·B_p to the row cr (len n), B_p the p-th
// row of b (k×n, k = the number of x's), in increasing order of p.
func axpyRows(x []float32, stride int, b []float32, n int, cr []float32) {
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
// product of a row of A and a row of B.
func gemmNT(m, n, k int, a, b, c []float32) {
	i := 0
	for ; i+2 <= m; i += 2 {
		a0 := a[i*k : i*k+k]
		a1 := a[(i+1)*k : (i+1)*k+k]
		c0 := c[i*n : i*n+n]
		c1 := c[(i+1)*n : (i+1)*n+n]
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
		cr := c[i*n : i*n+n]
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
