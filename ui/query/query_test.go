package query

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	u := func(n uint64) *uint64 { return &n }
	f := func(x float64) *float64 { return &x }
	cases := []struct {
		search string
		preset string
		seed   *uint64
		speed  *float64
		errs   []string
	}{
		{"", "", nil, nil, nil},
		{"?", "", nil, nil, nil},
		{"?preset=gtdp-rendezvous&seed=7&speed=2.5", "gtdp-rendezvous", u(7), f(2.5), nil},
		{"preset=a.b_c&seed=0&speed=2000", "a.b_c", u(0), f(2000), nil},
		{"?seed=9007199254740992&speed=.25", "", u(1 << 53), f(0.25), nil},
		{"?speed=1e3", "", nil, f(1000), nil},
		{"?speed=4.", "", nil, f(4), nil},
		{"?seed=9007199254740993", "", nil, nil, []string{`URL parameter seed: must be a whole number from 0 to 9007199254740992 (got "9007199254740993")`}},
		{"?seed=-1", "", nil, nil, []string{`URL parameter seed: must be a whole number from 0 to 9007199254740992 (got "-1")`}},
		{"?seed=1.5", "", nil, nil, []string{"URL parameter seed: must be a whole number"}},
		{"?seed=1e3", "", nil, nil, []string{"URL parameter seed: must be a whole number"}},
		{"?seed=+5", "", nil, nil, []string{"URL parameter seed: must be a whole number"}},
		{"?seed=", "", nil, nil, []string{`URL parameter seed: must be a whole number from 0 to 9007199254740992 (got "")`}},
		{"?seed=99999999999999999999999", "", nil, nil, []string{"URL parameter seed: must be a whole number"}},
		{"?speed=0.1", "", nil, nil, []string{`URL parameter speed: must be a number from 0.25 to 2000 iterations per second (got "0.1")`}},
		{"?speed=2001", "", nil, nil, []string{"URL parameter speed: must be a number from 0.25 to 2000"}},
		{"?speed=NaN", "", nil, nil, []string{"URL parameter speed: must be a number"}},
		{"?speed=Inf", "", nil, nil, []string{"URL parameter speed: must be a number"}},
		{"?speed=0x10", "", nil, nil, []string{"URL parameter speed: must be a number"}},
		{"?speed=1_0", "", nil, nil, []string{"URL parameter speed: must be a number"}},
		{"?speed=-4", "", nil, nil, []string{"URL parameter speed: must be a number"}},
		{"?speed=1e999", "", nil, nil, []string{"URL parameter speed: must be a number"}},
		{"?preset=../go.mod", "", nil, nil, []string{`URL parameter preset: must be a preset name: letters, digits, '-', '_' and '.' (got "../go.mod")`}},
		{"?preset=", "", nil, nil, []string{"URL parameter preset: must be a preset name"}},
		{"?preset=a%20b", "", nil, nil, []string{`URL parameter preset: must be a preset name: letters, digits, '-', '_' and '.' (got "a b")`}},
		{"?seed=1&seed=2", "", nil, nil, []string{"URL parameter seed: is given 2 times; give it once"}},
		{"?sped=3&seed=4", "", u(4), nil, []string{"URL parameter sped: is unknown; the page takes scenario, compare, preset, seed, epsilon, speed, hide, classroom, experiment"}},
		{"?seed=%zz&speed=3", "", nil, f(3), []string{`URL: the query is malformed: "%zz"`}},
		{"?seed=x&speed=y&preset=!", "", nil, nil, []string{"URL parameter preset", "URL parameter seed", "URL parameter speed"}},
		{"?" + strings.Repeat("k", 500) + "=1", "", nil, nil, []string{"URL parameter kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…: is unknown"}},
	}
	for _, c := range cases {
		p, errs := Parse(c.search)
		if p.Preset != c.preset || !eqU(p.Seed, c.seed) || !eqF(p.Speed, c.speed) {
			t.Errorf("%q: got preset %q seed %v speed %v", c.search, p.Preset, deref(p.Seed), deref(p.Speed))
		}
		if len(errs) != len(c.errs) {
			t.Errorf("%q: errors %v, want %d", c.search, errs, len(c.errs))
			continue
		}
		for i, e := range errs {
			if !strings.HasPrefix(e.Error(), c.errs[i]) {
				t.Errorf("%q: error %d is %q, want it to start with %q", c.search, i, e, c.errs[i])
			}
		}
	}
	if got := Describe([]error{errorString("a"), errorString("b")}); got != "a; b" {
		t.Errorf("Describe: %q", got)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

func eqU(a, b *uint64) bool  { return a == nil && b == nil || a != nil && b != nil && *a == *b }
func eqF(a, b *float64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
