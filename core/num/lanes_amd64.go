//go:build amd64 && !purego

package num

// dotsAVX2 sets out[s] for n rows of d values from z, in the lane order
// of lanes.go: lanes 0–3 in one register and 4–7 in another, the last
// d mod 8 terms by masked loads (the lanes past the end add 0·0 = +0),
// then the tree by one vector add, a 128-bit fold and a scalar add.
//
//go:noescape
func dotsAVX2(z, x, out *float64, d, n int)

// dots is Dots' kernel: the AVX2 assembly where the CPU has it, dotsGo
// otherwise (hasAVX2 is a variable so that the tests run both).
func dots(z, x, out []float64) {
	if hasAVX2 && len(out) > 0 && len(x) > 0 {
		dotsAVX2(&z[0], &x[0], &out[0], len(x), len(out))
		return
	}
	dotsGo(z, x, out)
}

// dotsAtAVX2 sets out[k] for n float32 rows of d values at f + 4·off[k]
// in the lane order, dotsAVX2's way (lanes_amd64.s).
//
//go:noescape
func dotsAtAVX2(f *float32, off *int, n int, x *float64, d int, out *float64)

// dotsAt is DotsAt's kernel: the AVX2 assembly where the CPU has it,
// DotOf row after row otherwise.
func dotsAt(f []float32, off []int, x, out []float64) {
	if hasAVX2 && len(out) > 0 && len(x) > 0 {
		dotsAtAVX2(&f[0], &off[0], len(out), &x[0], len(x), &out[0])
		return
	}
	dotsAtGo(f, off, x, out)
}
