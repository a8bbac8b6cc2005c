package data

import (
	"fmt"
	"math"
)

// table is one parsed source before its labels become classes and its
// features are scaled: rows × cols features, row-major, and one raw label
// per row. Arrays of bytes (an .npy of dtype uint8) keep their bytes in
// px instead of f, so that images cost a byte a pixel.
type table struct {
	rows, cols int
	f          []float32
	px         []uint8
	y          []float64
	// header names the feature columns of a CSV file (nil for the other
	// formats), so that a test file with other columns is caught.
	header []string
}

// at returns feature j of row i.
func (t *table) at(i, j int) float64 {
	if t.px != nil {
		return float64(t.px[i*t.cols+j])
	}
	return float64(t.f[i*t.cols+j])
}

// checkShape refuses a shape beyond the limits before anything of that
// size is allocated.
func checkShape(rows, cols int) error {
	switch {
	case rows < 1:
		return fmt.Errorf("holds no rows")
	case cols < 1:
		return fmt.Errorf("holds no features")
	case cols > MaxUserColumns:
		return fmt.Errorf("%d features per row: at most %d", cols, MaxUserColumns)
	case rows > MaxUserValues/cols:
		return fmt.Errorf("%d rows × %d features: at most %d values (%d rows of %d features)", rows, cols, MaxUserValues, MaxUserValues/cols, cols)
	}
	return nil
}

// checkValue refuses a feature that is not finite or beyond
// MaxUserMagnitude.
func checkValue(v float64) error {
	switch {
	case math.IsNaN(v):
		return fmt.Errorf("NaN: every feature must be a finite number")
	case math.IsInf(v, 0):
		return fmt.Errorf("%v: every feature must be a finite number", v)
	case math.Abs(v) > MaxUserMagnitude:
		return fmt.Errorf("%g: every feature must lie within ±%g", v, MaxUserMagnitude)
	}
	return nil
}

// checkLabel refuses a label that is not finite.
func checkLabel(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("label %v: must be a finite number", v)
	}
	return nil
}
