package noise

import (
	"sync"
	"testing"
)

func TestTableMatchesAt(t *testing.T) {
	for _, s := range []Schedule{Geom(0.015, 0.991), Poly(2, 1, 1.1), Const(3), Geom(1, 0)} {
		tab := Tabulate(s)
		if Tabulate(s) != tab {
			t.Errorf("%v: Tabulate returned two tables", s)
		}
		for _, k := range []int{0, 1, 2, 1023, 1024, 5000, TableLen - 1, TableLen, TableLen + 7} {
			if got, want := tab.At(k), s.At(k); got != want {
				t.Errorf("%v at %d: table %v, At %v", s, k, got, want)
			}
		}
	}
}

func TestTableConcurrent(t *testing.T) {
	tab := Tabulate(Geom(0.5, 0.999))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < 20000; k += 3 {
				if tab.At(k) != tab.Schedule().At(k) {
					t.Errorf("k = %d differs", k)
					return
				}
			}
		}()
	}
	wg.Wait()
}
