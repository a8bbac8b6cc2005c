package nn

import "dpsim/core/num"

// The network's dot-product products — the convolutions' weight
// gradients ∂W += ∂a·colsᵀ and the dense layer's logits z += q2·Wdᵀ,
// both C (m×n) += A (m×k)·B (n×k)ᵀ with k, the shared index, contiguous
// in A's and B's rows — sum each output's k terms in core/num's lane
// order (num/lanes.go), in float32, and so do the convolutions' bias
// gradients (rowSums: the terms are ∂a's values, no products):
//
//   - term p goes to lane p mod 8, each lane adding its terms in
//     increasing p from +0, every product rounded to float32 first (no
//     fused multiply-add on any path);
//   - the lanes combine by num's tree ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7));
//   - the output becomes c + that sum: one rounding onto C's value.
//
// So one YMM register (AVX2) or two f32x4 (WebAssembly SIMD) carry an
// output's eight lanes, loading k-consecutive values of both rows, with
// no transpose, and the tail k mod 8 leaves the lanes past its end as
// they were (a vector path may add +0 there, a product of two zeros,
// which changes no lane: num's argument holds in float32). The other
// products (NN, TN: the forward convolutions, the patch gradient, the
// dense layer's backward) keep the rule of gemm.go — each output adds
// its terms one by one in increasing order from C's value — because
// there the vector lanes run along C's rows, eight independent outputs,
// and already carry the sums without reordering them.

// combine32 is num.Combine in float32.
func combine32(l *[num.Lanes]float32) float32 {
	return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

// gemmNT computes C (m×n) += A (m×k) · B (n×k)ᵀ, all row-major, every
// output in the lane order above (naiveNT in the tests is its
// definition, which every path matches bit for bit: TestGemmBits): the
// platform's kernel where useKernel is set (kernNT), gemmNTGo
// elsewhere. Out-of-range slices panic here, before any assembly runs.
func gemmNT(m, n, k int, a, b, c []float32) {
	if m <= 0 || n <= 0 {
		return
	}
	a, b, c = a[:m*k], b[:n*k], c[:m*n]
	if useKernel && k > 0 {
		kernNT(m, n, k, a, b, c)
		return
	}
	gemmNTGo(m, n, k, a, b, c)
}

// gemmNTGo is gemmNT in portable Go: eight scalar accumulators per
// output (which also keeps eight additions in flight), every product
// wrapped in float32(…) so that no build fuses it into the sum.
func gemmNTGo(m, n, k int, a, b, c []float32) {
	k8 := k &^ 7
	for i := range m {
		ar := a[i*k : i*k+k : i*k+k]
		cr := c[i*n : i*n+n]
		for j := range cr {
			br := b[j*k : j*k+k : j*k+k]
			br = br[:len(ar)]
			var l0, l1, l2, l3, l4, l5, l6, l7 float32
			p := 0
			for ; p < k8; p += 8 {
				x, y := ar[p:p+8:p+8], br[p:p+8:p+8]
				l0 += float32(x[0] * y[0])
				l1 += float32(x[1] * y[1])
				l2 += float32(x[2] * y[2])
				l3 += float32(x[3] * y[3])
				l4 += float32(x[4] * y[4])
				l5 += float32(x[5] * y[5])
				l6 += float32(x[6] * y[6])
				l7 += float32(x[7] * y[7])
			}
			// The last k mod 8 terms, to lanes 0… in turn.
			l := [num.Lanes]float32{l0, l1, l2, l3, l4, l5, l6, l7}
			for q, v := range ar[p:] {
				l[q] += float32(v * br[p+q])
			}
			cr[j] += combine32(&l)
		}
	}
}
