package metrics

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"dpsim/core/problems/rendezvous"
	"dpsim/core/sim"
)

func TestCompute(t *testing.T) {
	p, _ := rendezvous.New([][]float64{{0, 0}, {2, 0}})
	s := &sim.Step{Iter: 3, Dim: 2, Estimates: []float64{1, 1, 1, -1}}
	got := Compute(p, p.Optimum(), s, make([]float64, 2))
	// x* = (1,0): errors 1 and 1 → 1; mean (1,0): disagreements 1 and 1 → 1.
	if math.Abs(got.Optimality-1) > 1e-15 || math.Abs(got.Consensus-1) > 1e-15 {
		t.Errorf("got %+v", got)
	}
	if math.Abs(got.Objective-1) > 1e-15 { // (1+1)/2 at x̄ = x*
		t.Errorf("objective %v, want 1", got.Objective)
	}
}

func TestRecorderAndExports(t *testing.T) {
	p, _ := rendezvous.New([][]float64{{0, 0}, {2, 0}})
	r := NewRecorder(p, 2, 5)
	for k := range 6 {
		r.Record(&sim.Step{Iter: k, Dim: 2, Estimates: []float64{1, 0, 1, 0}})
	}
	if want := []int{0, 2, 4, 5}; len(r.Series.Iter) != len(want) {
		t.Fatalf("recorded %v, want %v", r.Series.Iter, want)
	}
	var b bytes.Buffer
	if err := r.Series.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(b.String()), "\n"); len(lines) != 5 || lines[0] != "iteration,optimality,consensus,objective" {
		t.Errorf("csv: %q", b.String())
	}
	r.Series.Optimality[0] = math.NaN()
	js, err := json.Marshal(&r.Series)
	if err != nil {
		t.Fatal(err)
	}
	var back Series
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(back.Optimality[0]) || back.Optimality[1] != 0 {
		t.Errorf("round trip: %s → %+v", js, back)
	}
}

// memFile is an in-memory SpillFile.
type memFile struct{ b []byte }

func (m *memFile) Write(p []byte) (int, error) { m.b = append(m.b, p...); return len(p), nil }
func (m *memFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(m.b)) {
		return 0, io.EOF
	}
	n := copy(p, m.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// measured is a problem with one extra metric, the first coordinate's sum.
type measured struct{ *rendezvous.Rendezvous }

func (measured) MetricNames() []string { return []string{"first_sum"} }
func (measured) Measure(x []float64, dim int, out []float64) {
	out[0] = 0
	for i := 0; i < len(x); i += dim {
		out[0] += x[i]
	}
}

// A spilled series reads back exactly what an in-memory one holds, in the
// same JSON and CSV, extra metrics included.
func TestSpillMatchesMemory(t *testing.T) {
	rv, _ := rendezvous.New([][]float64{{0, 0}, {2, 0}})
	p := measured{rv}
	mem, disk := NewRecorder(p, 1, 99), NewRecorder(p, 1, 99)
	f := &memFile{}
	disk.Series.Spill(f, 7)
	for k := range 100 {
		v := float64(k) * 0.1
		s := &sim.Step{Iter: k, Dim: 2, Estimates: []float64{v, 1, -v, math.Inf(1)}}
		mem.Record(s)
		disk.Record(s)
	}
	if disk.Series.Len() != 100 || len(disk.Series.Iter) >= 7 || len(f.b) == 0 {
		t.Fatalf("spill: Len %d, %d in memory, %d bytes on disk", disk.Series.Len(), len(disk.Series.Iter), len(f.b))
	}
	for _, i := range []int{0, 6, 7, 50, 99} {
		a, b := mem.Series.At(i), disk.Series.At(i)
		if a.Iter != b.Iter || a.Optimality != b.Optimality || !(a.Consensus == b.Consensus || math.IsNaN(a.Consensus)) || a.Extra[0] != b.Extra[0] {
			t.Fatalf("point %d: memory %+v, spilled %+v", i, a, b)
		}
	}
	for _, indent := range []string{"", " "} {
		var a, b bytes.Buffer
		if err := mem.Series.WriteJSON(&a, " ", indent); err != nil {
			t.Fatal(err)
		}
		if err := disk.Series.WriteJSON(&b, " ", indent); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Fatalf("indent %q: JSON differs", indent)
		}
	}
	// The streamed layout is MarshalIndent's.
	want, _ := json.MarshalIndent(map[string]*Series{"m": &mem.Series}, "", " ")
	var got bytes.Buffer
	got.WriteString("{\n \"m\": ")
	if err := disk.Series.WriteJSON(&got, " ", " "); err != nil {
		t.Fatal(err)
	}
	got.WriteString("\n}")
	if got.String() != string(want) {
		t.Fatalf("streamed JSON differs from MarshalIndent:\n%s\n---\n%s", got.String()[:200], string(want)[:200])
	}
	var ca, cb bytes.Buffer
	_ = mem.Series.WriteCSV(&ca)
	_ = disk.Series.WriteCSV(&cb)
	if ca.String() != cb.String() || !strings.HasPrefix(ca.String(), "iteration,optimality,consensus,objective,first_sum\n") {
		t.Fatalf("CSV differs or lacks the extra column: %q", ca.String()[:80])
	}
	var back Series
	if err := json.Unmarshal(want[len("{\n \"m\": "):len(want)-2], &back); err != nil {
		t.Fatal(err)
	}
	if back.Len() != 100 || len(back.ExtraNames) != 1 || back.Extra[0][3] != mem.Series.Extra[0][3] {
		t.Fatalf("round trip: %d points, extras %v", back.Len(), back.ExtraNames)
	}
}

// Spilling keeps memory flat: a million points cost about the spill
// threshold in memory, not 32 MB.
func TestSpillKeepsMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("a million points")
	}
	rv, _ := rendezvous.New([][]float64{{0}, {1}})
	r := NewRecorder(rv, 1, 1<<30)
	f := &discard{}
	r.Series.Spill(f, 1024)
	s := &sim.Step{Dim: 1, Estimates: []float64{0, 1}}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for k := range 1_000_000 {
		s.Iter = k
		r.Record(s)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if grow := int64(m1.HeapAlloc) - int64(m0.HeapAlloc); grow > 1<<20 {
		t.Errorf("the heap grew by %d bytes over a million spilled points", grow)
	}
	if r.Series.Len() != 1_000_000 || f.n != 32*(1_000_000-len(r.Series.Iter)) {
		t.Errorf("Len %d, %d bytes spilled", r.Series.Len(), f.n)
	}
}

// discard counts what is spilled and keeps nothing.
type discard struct{ n int }

func (d *discard) Write(p []byte) (int, error)           { d.n += len(p); return len(p), nil }
func (d *discard) ReadAt(p []byte, _ int64) (int, error) { return 0, io.EOF }
