// Package glossary holds the entries of the page's glossary that plug-ins
// declare: a symbol or word as the page prints it, and what it means in
// plain words. An algorithm or problem lists every symbol its parameters,
// messages, theory and warnings print (method.Words, objective.Words),
// so the glossary of a new plug-in is its own, never another's.
package glossary

import (
	"fmt"
	"strings"
)

// Term is one glossary entry.
type Term struct {
	// Symbol is the symbol or word as printed, e.g. "β_k" or "PLF".
	Symbol string `json:"symbol"`
	// Meaning says what it is, in a sentence or two.
	Meaning string `json:"meaning"`
}

// Check reports an entry without a symbol or a meaning, or a symbol given
// twice, naming owner (the plug-in) in the error.
func Check(owner string, terms []Term) error {
	seen := map[string]bool{}
	for k, t := range terms {
		sym := strings.TrimSpace(t.Symbol)
		switch {
		case sym == "":
			return fmt.Errorf("%s: glossary entry %d has no symbol", owner, k)
		case strings.TrimSpace(t.Meaning) == "":
			return fmt.Errorf("%s: glossary entry %q has no meaning", owner, sym)
		case seen[sym]:
			return fmt.Errorf("%s: glossary entry %q given twice", owner, sym)
		}
		seen[sym] = true
	}
	return nil
}
