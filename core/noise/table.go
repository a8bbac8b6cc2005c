package noise

import (
	"sync"
	"sync/atomic"
)

// Table serves a schedule's values At(k) from memory, bit for bit: a sweep
// of thousands of runs with the same geometric or polynomial schedule
// evaluates each c·r^k (a portable Pow, tens of nanoseconds) once instead
// of once per run and iteration. Tables are shared between runs and
// goroutines; reads take no lock.
type Table struct {
	s    Schedule
	mu   sync.Mutex // serialises growth
	vals atomic.Pointer[[]float64]
}

// TableLen is the number of leading values a table keeps (512 KiB);
// later iterations are computed as At(k), so a run of 10⁷ iterations
// does not hold 80 MB per schedule.
const TableLen = 1 << 16

// maxTables bounds the shared tables; past it Tabulate returns private
// ones, still correct, just not shared.
const maxTables = 256

var (
	tablesMu sync.Mutex
	tables   = map[Schedule]*Table{}
)

// Tabulate returns the shared table of s.
func Tabulate(s Schedule) *Table {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	if t, ok := tables[s]; ok {
		return t
	}
	t := &Table{s: s}
	if len(tables) < maxTables {
		tables[s] = t
	}
	return t
}

// At returns the schedule's value at iteration k ≥ 0, exactly At(k) of
// the schedule.
func (t *Table) At(k int) float64 {
	if t.s.Kind == Constant || k >= TableLen {
		return t.s.At(k)
	}
	if p := t.vals.Load(); p != nil && k < len(*p) {
		return (*p)[k]
	}
	return t.grow(k)
}

// grow extends the table past k (doubling, up to TableLen) and returns
// the value at k.
func (t *Table) grow(k int) float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	var old []float64
	if p := t.vals.Load(); p != nil {
		old = *p
		if k < len(old) {
			return old[k]
		}
	}
	n := min(TableLen, max(1024, 2*len(old), k+1))
	vals := make([]float64, n)
	copy(vals, old)
	for i := len(old); i < n; i++ {
		vals[i] = t.s.At(i)
	}
	t.vals.Store(&vals)
	return vals[k]
}

// Schedule returns the tabulated schedule.
func (t *Table) Schedule() Schedule { return t.s }
