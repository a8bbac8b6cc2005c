// Package shardflag reads the dpsim command's --shard flag and range-checks
// a shard however it was given.
//
// It is a package of its own, rather than part of cmd/dpsim, so that its
// fuzz target (FuzzParse) builds only core/experiment's dependencies with
// the fuzzer's instrumentation, not the whole command's (gonum/plot, the
// figure fonts): test.sh step (f) builds the instrumented tree once per
// target on a cold cache.
package shardflag

import (
	"fmt"
	"strconv"
	"strings"

	"dpsim/core/experiment"
)

// Parse reads --shard "i/n" with 0 ≤ i < n ≤ experiment.MaxTasks, so that
// the task arithmetic (t += n) cannot overflow, whatever is typed. An
// error is one line naming the flag.
func Parse(s string) (experiment.Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || strconv.Itoa(i)+"/"+strconv.Itoa(n) != s {
		return experiment.Shard{}, fmt.Errorf("--shard: write i/n with 0 ≤ i < n, e.g. 0/3 (got %s)", strconv.Quote(s))
	}
	return Check("--shard "+s, experiment.Shard{Index: i, Count: n})
}

// Check range-checks a shard however it was given; what names where it
// came from in the error.
func Check(what string, sh experiment.Shard) (experiment.Shard, error) {
	switch {
	case sh.Count < 1 || sh.Count > experiment.MaxTasks:
		return experiment.Shard{}, fmt.Errorf("%s: the shard count n must be between 1 and %d (got %d)", what, experiment.MaxTasks, sh.Count)
	case sh.Index < 0 || sh.Index >= sh.Count:
		return experiment.Shard{}, fmt.Errorf("%s: the shard index i must satisfy 0 ≤ i < n = %d (got %d)", what, sh.Count, sh.Index)
	}
	return sh, nil
}
