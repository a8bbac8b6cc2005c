package experiment

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Assemble and MergeCancel look at their cancel hook every checkEvery
// steps: over 20,000 records a cancel stops them within one look, and an
// uncancelled assembly looks about records/checkEvery times, not per
// record.
func TestAssembleAndMergeCancel(t *testing.T) {
	text := strings.Replace(small["field"], `"runs":6`, `"runs":5000`, 1)
	p := plan(t, text)
	one, err := p.RunTask(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	recs := make([]RunRecord, p.Tasks())
	for i := range recs {
		k := p.Task(i)
		recs[i] = one
		recs[i].Task, recs[i].Series, recs[i].Point, recs[i].Run = i, k.Series, k.Point, k.Run
	}

	asks := 0
	p.Cancel = func() bool { asks++; return false }
	res, err := Assemble(p, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Records, then 4 points of 5000 runs × 3 metric/quantity columns
	// (one look each), then 3 expectations.
	if maxAsks := len(recs)/checkEvery + 1 + 4*4 + 3; asks < 2 || asks > maxAsks {
		t.Errorf("uncancelled Assemble looked %d times, want 2 to %d", asks, maxAsks)
	}
	for _, after := range []int{0, 1, 3, 6} {
		asks = 0
		p.Cancel = func() bool { asks++; return asks > after }
		if _, err := Assemble(p, recs, nil); !errors.Is(err, ErrInterrupted) {
			t.Errorf("Assemble cancelled after %d looks: %v, want ErrInterrupted", after, err)
		}
		if asks != after+1 {
			t.Errorf("Assemble cancelled after %d looks went on to %d looks", after, asks)
		}
	}
	p.Cancel = nil

	data := res.JSON()
	for _, after := range []int{0, 2, 7} {
		asks = 0
		_, err := MergeCancel(nil, [][]byte{data}, func() bool { asks++; return asks > after })
		if !errors.Is(err, ErrInterrupted) {
			t.Errorf("MergeCancel cancelled after %d looks: %v, want ErrInterrupted", after, err)
		}
		if asks != after+1 {
			t.Errorf("MergeCancel cancelled after %d looks went on to %d looks", after, asks)
		}
	}
}
