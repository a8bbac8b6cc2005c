package learn

import (
	"slices"
	"strings"
	"testing"

	"dpsim/core/data"
)

// A shuffled deal written out (Indices) deals the same rows in the same
// order when read back (Dealt), without the seed.
func TestDealRoundTrip(t *testing.T) {
	set := Synthetic(3, "train", 23, 2, 2, 0)
	want, err := Split(set, 4, Shuffled, 77)
	if err != nil {
		t.Fatal(err)
	}
	deal, n := Indices(want)
	if n != 23 {
		t.Fatalf("%d indices, want 23", n)
	}
	got, err := Dealt(set, 4, deal, FieldDeal)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !slices.Equal(want[i].Idx, got[i].Idx) {
			t.Errorf("agent %d holds %v, want %v", i, got[i].Idx, want[i].Idx)
		}
	}
}

// A deal that cannot be the set's is refused in one line naming the entry.
func TestDealtRefused(t *testing.T) {
	set := &data.Set{Name: "toy", Split: "train", Rows: 5, Cols: 1, Features: make([]float32, 5), Y: make([]uint8, 5)}
	for _, c := range []struct {
		deal [][]int
		want string
	}{
		{[][]int{{0, 1}}, "problem.params.deal: lists 1 agents' rows; the graph has 2 agents"},
		{[][]int{{0, 1}, {}}, "problem.params.deal[1]: is empty"},
		{[][]int{{0, 5}, {2}}, `problem.params.deal[0][1]: must be a row of "toy" (train: 0 … 4), got 5`},
		{[][]int{{0}, {-1}}, `problem.params.deal[1][0]: must be a row of "toy" (train: 0 … 4), got -1`},
	} {
		_, err := Dealt(set, 2, c.deal, FieldDeal)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want one line starting %q", c.deal, err, c.want)
		}
	}
	if err := CheckDeal("synthetic", [][]int{{0}}); err == nil || !strings.HasPrefix(err.Error(), "problem.params.deal: is read with a committed dataset") {
		t.Errorf("a deal of synthetic data: %v", err)
	}
}
