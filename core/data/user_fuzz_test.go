package data

import (
	"math"
	"testing"

	"dpsim/core/data/usertest"
)

// checkTable fails unless a parsed table is consistent: its shape within
// the limits, one label per row, every feature finite.
func checkTable(t *testing.T, tb *table) {
	t.Helper()
	if err := checkShape(tb.rows, tb.cols); err != nil {
		t.Fatalf("a table of a refused shape: %v", err)
	}
	if len(tb.f)+len(tb.px) != tb.rows*tb.cols || len(tb.y) != tb.rows {
		t.Fatalf("%d×%d with %d features, %d bytes and %d labels", tb.rows, tb.cols, len(tb.f), len(tb.px), len(tb.y))
	}
	for _, v := range tb.f {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("feature %v", v)
		}
	}
}

func FuzzLIBSVM(f *testing.F) {
	f.Add(usertest.LIBSVM(rowsX, rowsY), 0)
	f.Add([]byte("+1 qid:3 1:0.5 7:1e3 # comment\n\n-1 2:-4\n"), 10)
	f.Add([]byte("1 2:1 2:3\n"), 0)
	f.Fuzz(func(t *testing.T, b []byte, columns int) {
		if columns < 0 || columns > 1000 {
			return
		}
		if tb, err := parseLIBSVM(b, columns); err == nil {
			checkTable(t, tb)
		}
	})
}

func FuzzCSV(f *testing.F) {
	f.Add(usertest.CSV(rowsX, rowsY), "")
	f.Add([]byte("\xef\xbb\xbfa,\"b\",y\n1,2,3\n\"4\",5,6\n"), "y")
	f.Add([]byte("a,a,label\n"), "")
	f.Fuzz(func(t *testing.T, b []byte, label string) {
		if tb, err := parseCSV(b, label); err == nil {
			checkTable(t, tb)
			if len(tb.header) != tb.cols {
				t.Fatalf("%d header names for %d columns", len(tb.header), tb.cols)
			}
		}
	})
}

func FuzzNPY(f *testing.F) {
	shape, vals := usertest.Matrix(rowsX)
	f.Add(usertest.NPY("<f8", shape, vals), usertest.NPY("<i8", []int{6}, rowsY))
	f.Add(usertest.NPY("|u1", []int{1, 2, 2, 3}, make([]float64, 12)), usertest.NPY(">f4", []int{1, 1}, []float64{1}))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if tb, err := parseNPY(x, y, "y.npy"); err == nil {
			checkTable(t, tb)
		}
	})
}

func FuzzNPZ(f *testing.F) {
	shape, vals := usertest.Matrix(rowsX)
	x, y := usertest.NPY("<f4", shape, vals), usertest.NPY("|u1", []int{6}, rowsY)
	f.Add(usertest.NPZ(false, []string{"x", "y"}, x, y))
	f.Add(usertest.NPZ(true, []string{"x", "y"}, x, y))
	f.Fuzz(func(t *testing.T, b []byte) {
		if tb, err := parseNPZ(b, "", ""); err == nil {
			checkTable(t, tb)
		}
	})
}
