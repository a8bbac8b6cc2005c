package jsonstrict

import (
	"strings"
	"testing"
)

func TestDecodePaths(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"a": {"b": [1, 2, {"c": NaN}]}}`, "a.b[2].c"},
		{`{"a": [[1, 2], [3, x]]}`, "a[1][1]"},
		{`{"a": 1, "b": tru}`, "b"},
	} {
		var v any
		err := Decode([]byte(c.text), &v, "")
		if err == nil || !strings.HasPrefix(err.Error(), c.want+": ") {
			t.Errorf("%s: error %v, want it to start with %q", c.text, err, c.want)
		}
	}
}
