package rendezvous

import (
	"runtime"
	"strings"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/problem"
)

// A dimension too large for the network is refused before any target is
// drawn: 5000 agents × 100000 would be 4 GB of random numbers.
func TestHugeDimensionRefusedBeforeDrawing(t *testing.T) {
	g, err := graph.Ring(5000)
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	_, _, err = Factory.Build(&problem.Env{Graph: g}, &Params{Dim: 100_000, Box: 1})
	runtime.ReadMemStats(&ms)
	if err == nil || !strings.Contains(err.Error(), "problem.params.dim: agents × dimension must stay below") {
		t.Errorf("got %v", err)
	}
	if used := ms.TotalAlloc - before; used > 1<<20 {
		t.Errorf("allocated %d bytes before refusing", used)
	}
}
