package ui

import "testing"

// TestShortG: δ as the page writes its numbers, without the exponent's
// leading zero, and every other %g form unchanged.
func TestShortG(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{1e-6, "1e-6"}, {1e-5, "1e-5"}, {2.5e-7, "2.5e-7"}, {1e-12, "1e-12"},
		{1e+21, "1e+21"}, {1e-100, "1e-100"}, {0.001, "0.001"}, {0, "0"},
	} {
		if got := shortG(c.v); got != c.want {
			t.Errorf("shortG(%g) = %q, want %q", c.v, got, c.want)
		}
	}
}
