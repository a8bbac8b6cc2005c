package query

import (
	"strings"
	"testing"
	"time"

	"dpsim/render/scene"
)

// FuzzParse: no query makes Parse panic or take more than a second (see
// tooSlow), what
// it returns is always in range, and every error names the URL and stays
// short.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"?preset=gtdp-rendezvous&seed=7&speed=2.5", "?seed=9007199254740993", "?speed=NaN",
		"?seed=%zz", "?a=1&a=2;b", "?preset=%E2%82%AC", "?speed=1e-400", "??seed==1&&",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, search string) {
		if d, slow := tooSlow(func() { Parse(search) }); slow {
			t.Fatalf("%d bytes took %v", len(search), d)
		}
		p, errs := Parse(search)
		if p.Seed != nil && *p.Seed > MaxSeed {
			t.Fatalf("seed %d", *p.Seed)
		}
		if p.Speed != nil && !(*p.Speed >= scene.MinSpeed && *p.Speed <= scene.MaxSpeed) {
			t.Fatalf("speed %v", *p.Speed)
		}
		if p.Preset != "" && !presetRE.MatchString(p.Preset) {
			t.Fatalf("preset %q", p.Preset)
		}
		for _, e := range errs {
			if msg := e.Error(); !strings.HasPrefix(msg, "URL") || len(msg) > 300 {
				t.Fatalf("error %q", msg)
			}
		}
	})
}

// tooSlow reports whether f takes more than a second, twice in a row: a
// stall of a loaded machine does not repeat, a slow input does.
func tooSlow(f func()) (time.Duration, bool) {
	var d time.Duration
	for range 2 {
		start := time.Now()
		f()
		if d = time.Since(start); d <= time.Second {
			return d, false
		}
	}
	return d, true
}
