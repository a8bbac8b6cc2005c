//go:build amd64 && !purego

package num

// dotsPortable is Dots with the AVX2 path switched off.
func dotsPortable(z, x, out []float64) {
	old := hasAVX2
	hasAVX2 = false
	defer func() { hasAVX2 = old }()
	Dots(z, x, out)
}
