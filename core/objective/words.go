package objective

import (
	"fmt"
	"strings"

	"dpsim/core/glossary"
)

// Words is what the page and `dpsim plugins` say about a problem, in its
// paper's notation: every sentence the page prints about the problem
// comes from here, never from another plug-in's text (docs/words.md).
type Words struct {
	// Picture says what the picture beside (or below) the network shows
	// when the problem draws one: a planar problem's plane, an
	// allocation's gauge. "" when the problem never draws one.
	Picture string
	// Nodes says what the network's nodes show for this problem when it
	// draws them specially (a dispatch's generator squares); "" when they
	// are plain agents.
	Nodes string
	// Curve says what the error plot shows for this problem when there
	// is no picture to watch: for a dataset, the learning curve.
	Curve string
	// Symbols are the glossary entries of every symbol the problem's
	// parameters, title and metrics print.
	Symbols []glossary.Term
	// Papers names the algorithms (by name) whose papers pose this
	// problem, so that the preset menu groups a baseline's preset with
	// the paper it reproduces (method.Words.BaselineOf).
	Papers []string
}

// CheckWords reports a factory whose words are incomplete: no Curve, no
// symbols, or a glossary entry without a symbol or meaning (or given
// twice). It is a programming error, caught by the registry's tests.
func (f *Factory) CheckWords() error {
	if strings.TrimSpace(f.Words.Curve) == "" {
		return fmt.Errorf("%s: Words.Curve is empty: say what the error plot shows", f.Name)
	}
	if len(f.Words.Symbols) == 0 {
		return fmt.Errorf("%s: Words.Symbols is empty", f.Name)
	}
	return glossary.Check(f.Name, f.Words.Symbols)
}
