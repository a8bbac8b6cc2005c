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
		"?seed=%zz", "?a=1&a=2;b", "?hide=plot,x&classroom", "?epsilon=1e-6&compare=q1YqSy0qzszPU7JSUMrMS0mtUKoFAA", "?preset=%E2%82%AC", "?speed=1e-400", "??seed==1&&",
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
		if p.Epsilon != nil && !(*p.Epsilon >= MinEpsilon && *p.Epsilon <= MaxEpsilon) {
			t.Fatalf("epsilon %v", *p.Epsilon)
		}
		for _, h := range p.Hide {
			if !isPart(h) {
				t.Fatalf("hide %q", h)
			}
		}
		if n := btoi(p.Scenario != nil) + btoi(p.Compare != nil) + btoi(p.Preset != ""); n > 1 {
			t.Fatalf("%d runs described", n)
		}
		for _, e := range errs {
			if msg := e.Error(); !strings.HasPrefix(msg, "URL") || len(msg) > 300 {
				t.Fatalf("error %q", msg)
			}
		}
	})
}

// FuzzDecode: no compressed parameter makes Decode panic, stall or return
// more than MaxText bytes; what it returns is a JSON object's text that
// Encode and Decode carry unchanged; every error is one short line naming
// the parameter.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		Encode([]byte(`{"name": "x", "seed": 1}`)), "", "____", "abcde", "q1YqSy0qzszPU7JSUMrMS0mtUKoFAA==",
		Encode([]byte("[]")), Encode([]byte(strings.Repeat("{", 5000))),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var text []byte
		var err error
		if d, slow := tooSlow(func() { text, err = Decode("scenario", v) }); slow {
			t.Fatalf("%d characters took %v", len(v), d)
		}
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "URL parameter scenario: ") || len(msg) > 300 || strings.Contains(msg, "\n") {
				t.Fatalf("error %q", msg)
			}
			return
		}
		if len(text) > MaxText || !json(text) {
			t.Fatalf("%d bytes: %.40q", len(text), text)
		}
		back, err := Decode("scenario", Encode(text))
		if err != nil || string(back) != string(text) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
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
