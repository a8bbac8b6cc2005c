package metrics

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// wideSeries returns a series of points points and cols value columns
// (the three generic ones and cols−3 extras), spilled to memory when
// spill is true.
func wideSeries(points, cols int, spill bool) *Series {
	s := &Series{}
	for k := 3; k < cols; k++ {
		s.ExtraNames = append(s.ExtraNames, fmt.Sprintf("g%d", k))
	}
	s.Extra = make([]Floats, len(s.ExtraNames))
	if spill {
		s.Spill(&memFile{}, 2)
	}
	for i := range points {
		p := Point{Iter: i, Optimality: 1 / float64(i+1), Consensus: 2, Objective: 3, Extra: make([]float64, cols-3)}
		for k := range p.Extra {
			p.Extra[k] = float64(k) + 0.5
		}
		s.add(p)
	}
	return s
}

// allocPerValue returns the bytes write allocates per value written.
func allocPerValue(s *Series, cols, points int, write func(*Series, io.Writer) error) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := write(s, io.Discard); err != nil {
		panic(err)
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(cols*points)
}

// TestExportLinearInColumns: writing a series allocates a bounded number
// of bytes per value, whatever the number of columns (DP-DGT with 5,000
// generators once took 187 s and 1 GB to export one iteration: a copy of
// every point's row per column made the export quadratic in the columns).
func TestExportLinearInColumns(t *testing.T) {
	writers := map[string]func(*Series, io.Writer) error{
		"json":    func(s *Series, w io.Writer) error { return s.WriteJSON(w, " ", " ") },
		"csv":     func(s *Series, w io.Writer) error { return s.WriteCSV(w) },
		"marshal": func(s *Series, w io.Writer) error { _, err := s.MarshalJSON(); return err },
	}
	for name, write := range writers {
		for _, spill := range []bool{false, true} {
			const points = 6
			small := allocPerValue(wideSeries(points, 100, spill), 100, points, write)
			large := allocPerValue(wideSeries(points, 2000, spill), 2000, points, write)
			// A marshalled series holds every byte it writes (~20 a value).
			limit := 64.0
			if large > limit || large > float64(4*small)+32 {
				t.Errorf("%s (spilled %v): %.0f bytes a value at 2000 columns, %.0f at 100: want at most %v and flat", name, spill, large, small, limit)
			}
		}
	}
}

// BenchmarkExportWide writes a two-point series of 100 and 2000 columns;
// the time per column should be flat.
func BenchmarkExportWide(b *testing.B) {
	for _, cols := range []int{100, 2000} {
		for _, spill := range []bool{false, true} {
			s := wideSeries(2, cols, spill)
			b.Run(fmt.Sprintf("cols=%d/spill=%v", cols, spill), func(b *testing.B) {
				for b.Loop() {
					if err := s.WriteJSON(io.Discard, " ", " "); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*cols), "ns/column")
			})
		}
	}
}

// TestSpillLayoutRoundTrip: a series spilled in chunks of 3 (7 points,
// so one point stays in memory) writes the bytes of the same series held
// in memory, through every reader.
func TestSpillLayoutRoundTrip(t *testing.T) {
	mem, sp := wideSeries(7, 9, false), &Series{}
	*sp = Series{ExtraNames: mem.ExtraNames, Extra: make([]Floats, len(mem.ExtraNames))}
	sp.Spill(&memFile{}, 3)
	for i := range 7 {
		sp.add(mem.At(i))
	}
	if sp.spilled != 6 {
		t.Fatalf("spilled %d points, want 6", sp.spilled)
	}
	for name, write := range map[string]func(*Series, io.Writer) error{
		"json": func(s *Series, w io.Writer) error { return s.WriteJSON(w, " ", " ") },
		"csv":  func(s *Series, w io.Writer) error { return s.WriteCSV(w) },
	} {
		var a, b strings.Builder
		if err := write(mem, &a); err != nil {
			t.Fatal(err)
		}
		if err := write(sp, &b); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: spilled\n%s\nin memory\n%s", name, b.String(), a.String())
		}
	}
	for i := range 7 {
		if got, want := sp.At(i), mem.At(i); !reflect.DeepEqual(got, want) {
			t.Errorf("At(%d) = %+v, want %+v", i, got, want)
		}
	}
}

// A history longer than the spill threshold, taken before or after Spill
// (a resumed run's: issue 28 found "reading the spilled points: EOF" once
// a resumed history held more than 65,536 points), spills in chunks of
// exactly keep points and reads back as the same series in memory.
func TestHistorySpills(t *testing.T) {
	const keep, points = 3, 17
	mem := wideSeries(points, 6, false)
	for _, before := range []bool{true, false} {
		for _, upTo := range []int{0, 4, 7, points - 1} {
			sp := &Series{ExtraNames: mem.ExtraNames, Extra: make([]Floats, len(mem.ExtraNames))}
			if !before {
				sp.Spill(&memFile{}, keep)
			}
			if err := sp.AppendUpTo(mem, upTo); err != nil {
				t.Fatal(err)
			}
			if before {
				sp.Spill(&memFile{}, keep)
			}
			for i := upTo + 1; i < points; i++ {
				sp.add(mem.At(i))
			}
			if sp.spilled%keep != 0 || len(sp.Iter) >= keep {
				t.Fatalf("before %v, up to %d: %d spilled, %d held", before, upTo, sp.spilled, len(sp.Iter))
			}
			var a, b strings.Builder
			if err := mem.WriteJSON(&a, " ", " "); err != nil {
				t.Fatal(err)
			}
			if err := sp.WriteJSON(&b, " ", " "); err != nil {
				t.Fatalf("before %v, up to %d: %v", before, upTo, err)
			}
			if a.String() != b.String() {
				t.Errorf("before %v, up to %d: the spilled history writes other bytes", before, upTo)
			}
		}
	}
}

// A series' JSON keeps NaN, +Inf and −Inf apart (null, "Inf", "-Inf") and
// reads them back; a series no run writes is refused naming its column.
func TestSeriesJSON(t *testing.T) {
	s := &Series{Iter: []int{0, 5}, Optimality: Floats{math.Inf(1), 1}, Consensus: Floats{math.NaN(), math.Inf(-1)},
		Objective: Floats{2, 3}, ExtraNames: []string{"messages"}, Extra: []Floats{{0, 4}}}
	js, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"iteration":[0,5],"optimality":["Inf",1],"consensus":[null,"-Inf"],"objective":[2,3],"messages":[0,4]}`
	if string(js) != want {
		t.Fatalf("got %s\nwant %s", js, want)
	}
	var back Series
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := back.MarshalJSON()
	if string(again) != want || !math.IsInf(back.Optimality[0], 1) || !math.IsNaN(back.Consensus[0]) {
		t.Fatalf("read back as %s", again)
	}
	for _, c := range []struct{ js, want string }{
		{`[]`, "must be an object"},
		{`{"iteration":[0],"consensus":[1],"optimality":[1],"objective":[1]}`, `consensus: comes where "optimality" belongs`},
		{`{"iteration":[0],"optimality":[1],"consensus":[1]}`, "objective: is missing"},
		{`{"iteration":[0],"optimality":[1],"consensus":[1],"objective":[1],"m":[1],"m":[2]}`, "m: is given twice"},
		{`{"iteration":[0,1],"optimality":[1],"consensus":[1,1],"objective":[1,1]}`, "optimality: has 1 values; the iteration column has 2"},
		{`{"iteration":[0,1.5],"optimality":[1,1],"consensus":[1,1],"objective":[1,1]}`, "iteration[1]: is 1.5; must be a whole number"},
		{`{"iteration":[0],"optimality":["NaN"],"consensus":[1],"objective":[1]}`, `optimality[0]: is "NaN"; must be a number, null (NaN), "Inf" or "-Inf"`},
		{`{"iteration":[0],"optimality":{},"consensus":[1],"objective":[1]}`, "optimality: is {}; must be a list"},
	} {
		var s Series
		err := json.Unmarshal([]byte(c.js), &s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.js, err, c.want)
		}
	}
}
