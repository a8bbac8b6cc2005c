package check

import "testing"

func TestOneLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"one", "one"},
		{"  padded\n", "padded"},
		{"first\nsecond", "first; second"},
		{"first\r\nsecond\nthird", "first; second; third"},
		{"", ""},
	} {
		if got := OneLine(c.in); got != c.want {
			t.Errorf("OneLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
