package learn

import (
	"testing"

	"dpsim/core/data"
	_ "dpsim/core/data/files" // the committed datasets
)

// BenchmarkShardGradient times the kernels of one full gradient over an
// eighth of a committed training split (DP-RECAL's shard on 8 agents):
// Dots, then Axpys, 64 rows at a time, as the logistic model's gradRows
// runs them, over the dense loops, over the sparse form (built here
// whatever the set's density, to show where SparseDensity should sit:
// the benchmark then leaves it in the process's cache), over the
// packed layouts (Packed; float32 sets only), and the squared loss's
// whole gradient sum on the sparse form (Rows.SquaresGrad) and on the
// packed layouts (Packed.SquaresGrad), its residuals included, with the
// rates reached (floors).
func BenchmarkShardGradient(b *testing.B) {
	for _, name := range []string{"ijcnn1", "mnist-01", "fmnist-tshirt-trouser"} {
		set, err := data.Load(name, "train")
		if err != nil {
			b.Fatal(err)
		}
		shard := Rows{Set: set}.Sub(0, set.Rows/8)
		for _, form := range []string{"dense", "sparse", "sparse-squares", "packed", "packed-squares"} {
			r := shard
			if (form == "packed" || form == "packed-squares") && set.Pixels != nil {
				continue
			}
			b.Run(name+"/"+form, func(b *testing.B) {
				x, out := make([]float64, set.Cols), make([]float64, set.Cols)
				for c := range x {
					x[c] = 0.01 * float64(c%7-3)
				}
				var z [64]float64
				useSparse = form == "sparse" || form == "sparse-squares"
				defer func() { useSparse = true }()
				sparseForms.force(set, newSparseRows(set, 1)) // whatever the density
				signs := make([]int8, r.Len())                // ±1 labels for the squared loss's forms
				for k := range signs {
					signs[k] = int8(2*int(r.Label(k)) - 1)
				}
				if form == "sparse-squares" {
					// The squared loss's passes over the sparse form
					// (Rows.SquaresGrad; in the SIMD module under
					// js/wasm with the dpsimsimd tag).
					b.ResetTimer()
					for range b.N {
						r.SquaresGrad(x, signs, out)
					}
					floors(b, r, "sparse")
					return
				}
				if form == "packed-squares" {
					// The squared loss's pass with ±1 labels
					// (Packed.SquaresGrad: one pass where fused).
					p := pack(r, packFeatureMajor())
					b.ResetTimer()
					for range b.N {
						p.SquaresGrad(x, signs, out)
					}
					floors(b, r, form)
					return
				}
				if form == "packed" {
					p := pack(r, packFeatureMajor())
					b.ResetTimer()
					for range b.N {
						clear(out)
						for lo := 0; lo < r.Len(); lo += len(z) {
							blk := z[:min(len(z), r.Len()-lo)]
							p.Dots(lo, x, blk)
							p.Axpys(lo, blk, out)
						}
					}
					floors(b, r, form)
					return
				}
				for range b.N {
					clear(out)
					for lo := 0; lo < r.Len(); lo += len(z) {
						blk := z[:min(len(z), r.Len()-lo)]
						r.Dots(lo, x, blk)
						r.Axpys(lo, blk, out)
					}
				}
				floors(b, r, form)
			})
		}
	}
}

// floors reports the rate a shard gradient's two passes over the rows
// reached: 4 operations per entry (a multiply and an add in the dot
// products, again in the weighted sum; per nonzero on the sparse form,
// which reads 2 bytes of column and the value per nonzero) and the
// bytes of the rows read twice (once by the fused squared-loss pass) —
// the floors to set beside core/internal/peak's ceilings.
func floors(b *testing.B, r Rows, form string) {
	set := r.Set
	vb := 4.0 // a float32 feature
	if set.Pixels != nil {
		vb = 1
	}
	n := float64(r.Len() * set.Cols)
	if form == "sparse" {
		n = 0
		for k := range r.Len() {
			i := r.Row(k)
			for j := range set.Cols {
				if (set.Pixels != nil && set.Pixels[i*set.Cols+j] != 0) || (set.Features != nil && set.Features[i*set.Cols+j] != 0) {
					n++
				}
			}
		}
		vb += 2
	}
	per := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(4*n*per/1e9, "GFLOP/s")
	reads := 2.0
	if form == "packed-squares" && packKernels() && r.Set.Cols <= squaresTile {
		reads = 1 // the fused pass (packedSquares) where it runs
	}
	b.ReportMetric(reads*vb*n*per/1e9, "GB/s")
}
