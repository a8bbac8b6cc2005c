package zcdpgauss

import (
	"slices"
	"testing"

	"dpsim/core/method"
)

// Buffers names the buffers in order; Snapshot copies them (a later write
// to a buffer leaves the snapshot alone); method.Restore over the same
// Buffers writes a snapshot back.
func TestBuffersSnapshotRestore(t *testing.T) {
	x, z := []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}
	vs := Buffers(2, []string{"x", "z"}, x, z)
	if len(vs) != 2 || vs[0].Name != "x" || vs[1].Name != "z" || vs[0].Dim != 2 || &vs[1].Data[0] != &z[0] {
		t.Fatalf("Buffers = %+v: want x then z, dimension 2, over the buffers", vs)
	}
	snap := Snapshot(vs)
	x[0], z[3] = -1, -8
	if !slices.Equal(snap[0].Data, []float64{1, 2, 3, 4}) || !slices.Equal(snap[1].Data, []float64{5, 6, 7, 8}) {
		t.Fatalf("Snapshot aliases the buffers: %+v", snap)
	}
	if err := method.Restore(snap, Buffers(2, []string{"x", "z"}, x, z)...); err != nil {
		t.Fatal(err)
	}
	if x[0] != 1 || z[3] != 8 {
		t.Errorf("Restore gave x = %v, z = %v", x, z)
	}
	if err := method.Restore(snap, Buffers(2, []string{"z", "x"}, z, x)...); err == nil {
		t.Error("Restore accepted the names in the other order")
	}
}
