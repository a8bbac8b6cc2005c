package experiment

import (
	"context"
	"reflect"
	"testing"
)

// A run reports every iteration it made, in order, against its horizon,
// and its record is the one RunTask gives.
func TestRunTaskReporting(t *testing.T) {
	e, err := PresetExperiment("gtdp-error-bands")
	if err != nil {
		t.Fatal(err)
	}
	e.Runs = 1
	p, err := NewPlan(e)
	if err != nil {
		t.Fatal(err)
	}
	var done []int
	total := -1
	got, err := p.RunTaskReporting(context.Background(), 0, func(d, n int) {
		done = append(done, d)
		total = n
	})
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.RunTask(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the reporting run's record differs from RunTask's")
	}
	if total != 500 || len(done) != got.Iterations {
		t.Fatalf("reported %d iterations of %d; the run made %d of 500", len(done), total, got.Iterations)
	}
	for i, d := range done {
		if d != i+1 {
			t.Fatalf("report %d says %d iterations done", i, d)
		}
	}
}
