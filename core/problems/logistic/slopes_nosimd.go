//go:build wasm && !purego && !(js && dpsimsimd)

package logistic

// slopesSIMD is the SIMD module's entry with the dpsimsimd tag
// (slopes_simd.go); without it slopes runs its assembly passes.
func slopesSIMD(z, e []float64, y *uint8, idx *int, first int) int { return slopesNone }
