package shardflag

import (
	"strconv"
	"strings"
	"testing"

	"dpsim/core/experiment"
)

// FuzzParse: whatever --shard is given, Parse returns a shard
// whose task arithmetic cannot overflow (0 ≤ i < n ≤ MaxTasks) or a
// one-line error naming the flag; it never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0/3", "2/3", "3/3", "0/9223372036854775807", "-1/2", "1/", "/", "0/0", "+1/2", "01/2", " 1/2", "1/2/3", "0/10000000", "0/10000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := Parse(s)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "--shard") || strings.Contains(msg, "\n") {
				t.Fatalf("%q: error %q", s, msg)
			}
			return
		}
		if sh.Count < 1 || sh.Count > experiment.MaxTasks || sh.Index < 0 || sh.Index >= sh.Count {
			t.Fatalf("%q: accepted %+v", s, sh)
		}
		if strconv.Itoa(sh.Index)+"/"+strconv.Itoa(sh.Count) != s {
			t.Fatalf("%q: read as %+v", s, sh)
		}
	})
}
