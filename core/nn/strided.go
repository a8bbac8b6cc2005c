package nn

// gemmStrided computes C (m×n, row stride ldc) += A·B, where A's (i, p)
// entry is a[i·sai + p·sap] (sai = k, sap = 1 for A row-major; sai = 1,
// sap = m for Aᵀ of a k×m matrix) and B (k×n) is row-major with row
// stride ldb. Where useKernel is set, the platform's micro-kernel
// (kern_*.s) does the largest block of whole tiles and the Go loop
// below the rest; every output adds its k products, each rounded to
// float32, in increasing order of p starting from its value in C, so
// the split changes no bit. Out-of-range slices panic here, before any
// assembly runs.
func gemmStrided(m, n, k int, a []float32, sai, sap int, b []float32, ldb int, c []float32, ldc int) {
	if m <= 0 || n <= 0 || k <= 0 {
		return
	}
	_ = a[(m-1)*sai+(k-1)*sap]
	_ = b[(k-1)*ldb+n-1]
	_ = c[(m-1)*ldc+n-1]
	mt, nt := m/kernRows*kernRows, n/kernCols*kernCols
	if useKernel && mt > 0 && nt > 0 {
		kernel(&a[0], sai, sap, &b[0], ldb, &c[0], ldc, mt, nt, k)
	} else {
		mt, nt = 0, 0
	}
	gemmStridedGo(0, mt, nt, n, k, a, sai, sap, b, ldb, c, ldc)
	gemmStridedGo(mt, m, 0, n, k, a, sai, sap, b, ldb, c, ldc)
}

// gemmStridedGo is gemmStrided on rows [i0, i1) and columns [j0, j1)
// in plain Go: the tiles' edges.
func gemmStridedGo(i0, i1, j0, j1, k int, a []float32, sai, sap int, b []float32, ldb int, c []float32, ldc int) {
	for i := i0; i < i1; i++ {
		for j := j0; j < j1; j++ {
			s := c[i*ldc+j]
			for p := range k {
				s += float32(a[i*sai+p*sap] * b[p*ldb+j])
			}
			c[i*ldc+j] = s
		}
	}
}

// patchShape reports whether the assembly may run on these lengths
// (otherwise the Go loops run, and panic where they must).
func patchShape(x []float32, c, h, w int, cols []float32) bool {
	ho, wo := h-Kernel+1, w-Kernel+1
	return c > 0 && ho > 0 && wo > 0 && len(x) >= c*h*w && len(cols) >= c*kk*ho*wo
}

// poolShape reports whether the pool's assembly may run on these
// lengths.
func poolShape(a []float32, c, h, w int, out []float32, arg []uint8) bool {
	oh, ow := h/2, w/2
	return c > 0 && oh > 0 && ow > 0 && len(a) >= c*h*w && len(out) >= c*oh*ow && len(arg) >= c*oh*ow
}
