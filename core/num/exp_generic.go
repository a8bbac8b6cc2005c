package num

// expToGeneric sets dst[i] = Exp(src[i]) for every i (len(dst) ≥
// len(src); dst may be src): Exp in a loop. It is ExpTo where there is no
// assembly (off amd64 and wasm, and with the purego tag); on amd64 and
// wasm ExpTo's kernels do Exp's operations in Exp's order, several values
// at a time. TestExpToBits holds every path to Exp's bits.
func expToGeneric(dst, src []float64) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = Exp(x)
	}
}
