package scenario

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"dpsim/core/check"
	"dpsim/core/graph"
)

// wholeRange matches the decoder's complaint about a whole number that
// does not fit its Go type, whose limits are the type's, not the rule's.
var wholeRange = regexp.MustCompile(`^must be a whole number from (-?[0-9]+) to ([0-9]+) \(got `)

// RealRange rewrites a decoding error about a whole number beyond its Go
// type (int64 or uint64 limits, which no scenario field means) into the
// field's real rule: "iterations: must be a whole number from 1 to
// 10000000 (got 99999999999999999999)", or, for a field without a
// narrower rule, the type's range written as powers of two. Other errors
// pass through unchanged.
func RealRange(err error) error {
	var ce *check.Error
	if !errors.As(err, &ce) {
		return err
	}
	m := wholeRange.FindStringSubmatch(ce.Rule)
	if m == nil {
		return err
	}
	var rule string
	switch lo, hi := m[1], m[2]; {
	case lo == "-9223372036854775808" && hi == "9223372036854775807":
		rule = "from −2^63 to 2^63 − 1"
	case lo == "0" && hi == "18446744073709551615":
		rule = "from 0 to 2^64 − 1"
	default:
		return err // a narrower Go type: its limits are real
	}
	f := ce.Field
	switch {
	case f == "iterations" || f == "record.every" || f == "record.eval_every":
		rule = fmt.Sprintf("from 1 to %d", MaxIterations)
	case strings.HasPrefix(f, "record.checkpoints["):
		rule = "from 0 to iterations"
	case f == "graph.n" || f == "graph.rows" || f == "graph.cols":
		rule = fmt.Sprintf("from 1 to %d (graph.MaxAgents)", graph.MaxAgents)
	case f == "problem.params.dim":
		rule = fmt.Sprintf("from 1 to %d", MaxDim)
	}
	return &check.Error{Field: ce.Field, Rule: "must be a whole number " + rule + " (got " + ce.Rule[len(m[0]):]}
}
