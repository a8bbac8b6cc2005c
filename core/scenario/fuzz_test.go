package scenario

import (
	"strings"
	"testing"
	"time"
)

// FuzzScenario drives decoding, validation and building with arbitrary
// bytes: no input may panic, none may take long to decode (1 s; the pass
// is linear and depth-limited) or to build (5 s; the limits on sizes keep
// every build small). It starts from the presets and the bad corpus.
// test.sh fuzzes it with the other fuzz targets.
func FuzzScenario(f *testing.F) {
	f.Add([]byte(base))
	for _, p := range Presets() {
		js, _ := PresetJSON(p.Name)
		f.Add(js)
	}
	f.Add([]byte(`{"name":"x","graph":{"kind":"random-geometric","n":30,"radius":0.1,"tries":3}}`))
	f.Add([]byte(`{"name":"x","graph":{"kind":"edges","n":3,"directed":true,"edges":[[0,1],[1,2],[2,0]]},"weights":{"kind":"column-stochastic"}}`))
	f.Add([]byte(strings.Replace(base, `"metropolis"`, `"matrix","matrix":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]`, 1)))
	f.Add([]byte(strings.Replace(base, `"metropolis"`, `"entries","entries":[[0,0,0.5],[0,1,0.5],[1,1,0.5],[1,0,0.5],[2,2,1],[3,3,1]]`, 1)))
	f.Add([]byte(`{"a": [[1, 2], [3, NaN]]}`))
	for _, c := range loadBadCorpus(f) {
		f.Add(c.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		s, err := Parse(data)
		if d := time.Since(start); d > time.Second {
			// Timed again: a stall of a loaded machine does not repeat.
			again := time.Now()
			Parse(data)
			if d2 := time.Since(again); d2 > time.Second {
				t.Fatalf("decoding %d bytes took %v, then %v", len(data), d, d2)
			}
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error message")
			}
			return
		}
		b, err := Build(s)
		if err != nil {
			if !strings.Contains(err.Error(), ":") && !strings.Contains(err.Error(), " ") {
				t.Fatalf("an error that explains nothing: %q", err)
			}
			return
		}
		// A valid scenario can be pinned and re-parsed.
		if _, err := Parse(b.Pinned().JSON()); err != nil {
			t.Fatalf("the pinned form of a valid scenario does not parse: %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("building took %v", d)
		}
	})
}
