package glossary

import (
	"strings"
	"testing"
)

// TestCheck checks that an entry without a symbol or a meaning, or a
// symbol given twice, is refused with the owner and the symbol named,
// and that a complete glossary passes.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		terms []Term
		want  string // "" when it passes
	}{
		{[]Term{{"α", "step"}, {"β_k", "noise factor"}}, ""},
		{[]Term{{" ", "step"}}, "entry 0 has no symbol"},
		{[]Term{{"α", " "}}, `"α" has no meaning`},
		{[]Term{{"α", "step"}, {"α", "again"}}, `"α" given twice`},
	} {
		err := Check("gt-dp", c.terms)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.terms, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "gt-dp: ")):
			t.Errorf("%v: error %v, want one naming gt-dp and %q", c.terms, err, c.want)
		}
	}
}
