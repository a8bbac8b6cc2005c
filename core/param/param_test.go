package param

import (
	"math"
	"strings"
	"testing"
)

type inner struct {
	R float64 `json:"r" doc:"ratio" range:"[0, 1)"`
}

type params struct {
	Alpha float64   `json:"alpha" doc:"step size α" range:"(0, inf)"`
	N     int       `json:"n" doc:"count" range:"[1, 10]"`
	Mode  string    `json:"mode" doc:"reading" options:"vector|coordinate"`
	Flag  bool      `json:"flag,omitempty" doc:"a switch"`
	In    inner     `json:"inner" doc:"nested"`
	List  []float64 `json:"list" doc:"numbers"`
	skip  int
	Dash  int `json:"-"`
}

func TestIntervals(t *testing.T) {
	for _, c := range []struct {
		s       string
		in, out []float64
		str     string
	}{
		{"(0, 1]", []float64{1e-300, 0.5, 1}, []float64{0, -1, 1.0000001, math.NaN()}, "(0, 1]"},
		{"[0,inf)", []float64{0, 1e308}, []float64{-1e-300, math.NaN(), math.Inf(1)}, "[0, ∞)"},
		{"(-inf, 2)", []float64{-1e308, 1.999}, []float64{2, 3}, "(−∞, 2)"},
	} {
		iv, err := ParseInterval(c.s)
		if err != nil {
			t.Fatalf("%q: %v", c.s, err)
		}
		if iv.String() != c.str {
			t.Errorf("%q prints as %q, want %q", c.s, iv, c.str)
		}
		for _, x := range c.in {
			if !iv.Contains(x) {
				t.Errorf("%s should contain %v", iv, x)
			}
		}
		for _, x := range c.out {
			if iv.Contains(x) {
				t.Errorf("%s should not contain %v", iv, x)
			}
		}
	}
	for _, bad := range []string{"", "0,1", "(0 1)", "{0,1}", "(a, 1)"} {
		if _, err := ParseInterval(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := params{Alpha: 0.1, N: 3, Mode: "vector", In: inner{R: 0.5}, List: []float64{1}}
	if err := Validate("p", &ok); err != nil {
		t.Fatalf("valid params rejected: %v", err)
	}
	for _, c := range []struct {
		edit func(*params)
		want string
	}{
		{func(p *params) { p.Alpha = 0 }, "p.alpha: must be in (0, ∞) (got 0)"},
		{func(p *params) { p.Alpha = math.NaN() }, "p.alpha:"},
		{func(p *params) { p.N = 11 }, "p.n: must be in [1, 10] (got 11)"},
		{func(p *params) { p.Mode = "x" }, `p.mode: must be one of "vector", "coordinate" (got "x")`},
		{func(p *params) { p.In.R = 1 }, "p.inner.r: must be in [0, 1) (got 1)"},
		{func(p *params) { p.List = []float64{0, math.Inf(1)} }, "p.list[1]:"},
	} {
		p := ok
		c.edit(&p)
		err := Validate("p", &p)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("error %v, want it to start with %q", err, c.want)
		}
	}
}

// signed has a parameter without a range (as a schedule's c) and one
// that may be negative.
type signed struct {
	Shift float64 `json:"shift" doc:"shift"`
	Coef  float64 `json:"coef" doc:"a signed coefficient" range:"[-1, 1]"`
	In    inner   `json:"inner" doc:"nested"`
}

// TestFloor: a number that cannot be negative (its range starts at 0, or
// it has none) is 0 or at least MinMagnitude = 1e-100: a gradient bound
// of 5e-324 made a ledger read ε = 0 (core/scenario's
// TestNoPrivacyFigureReadsZero). One that may be negative has no floor.
func TestFloor(t *testing.T) {
	for _, c := range []struct {
		p    signed
		want string // "" for valid
	}{
		{signed{}, ""},
		{signed{Shift: 1e-100, In: inner{R: 1e-100}}, ""},
		{signed{Coef: -1e-300}, ""},
		{signed{Coef: 5e-324}, ""},
		{signed{Shift: 5e-324}, "s.shift: must be 0 or at least 1e-100 in magnitude (got 5e-324): a smaller number underflows float64"},
		{signed{Shift: -1e-200}, "s.shift: must be 0 or at least 1e-100 in magnitude (got -1e-200)"},
		{signed{In: inner{R: 1e-101}}, "s.inner.r: must be 0 or at least 1e-100 in magnitude (got 1e-101)"},
	} {
		err := Validate("s", &c.p)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v rejected: %v", c.p, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want it to start with %q", c.p, err, c.want)
		}
	}
	ok := params{Alpha: 5e-324, N: 3, Mode: "vector", In: inner{R: 0.5}}
	if errs := ValidateAll("p", &ok); len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "p.alpha: must be 0 or at least 1e-100") {
		t.Errorf("ValidateAll: %v", errs)
	}
}

func TestDescribe(t *testing.T) {
	fs := Describe(&params{Alpha: 0.1, Mode: "vector"})
	var names []string
	for _, f := range fs {
		names = append(names, f.Name+":"+f.Kind)
	}
	if got := strings.Join(names, " "); got != "alpha:number n:integer mode:string flag:bool inner:object list:list" {
		t.Fatalf("fields %s", got)
	}
	if fs[0].Doc != "step size α" || fs[0].Range != "(0, inf)" || fs[0].Default != 0.1 {
		t.Errorf("alpha described as %+v", fs[0])
	}
	if len(fs[2].Options) != 2 || len(fs[4].Fields) != 1 || fs[4].Fields[0].Name != "r" {
		t.Errorf("options %v, nested %+v", fs[2].Options, fs[4].Fields)
	}
}

// TestValidateAll: every broken rule is returned, in field order, each
// naming its own field, and Validate's error is the first of them.
func TestValidateAll(t *testing.T) {
	ok := params{Alpha: 0.1, N: 3, Mode: "vector", In: inner{R: 0.5}, List: []float64{1}}
	if errs := ValidateAll("p", &ok); len(errs) != 0 {
		t.Fatalf("valid params rejected: %v", errs)
	}
	bad := ok
	bad.Alpha, bad.Mode, bad.In.R, bad.List = -1, "x", 2, []float64{math.NaN(), math.Inf(1)}
	errs := ValidateAll("p", &bad)
	want := []string{"p.alpha:", "p.mode:", "p.inner.r:", "p.list[0]:"}
	if len(errs) != len(want) {
		t.Fatalf("%d errors %v, want %d", len(errs), errs, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d is %v, want it to start with %q", i, errs[i], w)
		}
	}
	if first := Validate("p", &bad); first == nil || first.Error() != errs[0].Error() {
		t.Errorf("Validate gave %v, want %v", first, errs[0])
	}
}

// TestUnit: the unit tag is described.
func TestUnit(t *testing.T) {
	type withUnit struct {
		N int `json:"n" doc:"agents" unit:"agents"`
	}
	if fs := Describe(&withUnit{N: 4}); fs[0].Unit != "agents" {
		t.Errorf("unit %q, want agents", fs[0].Unit)
	}
}
