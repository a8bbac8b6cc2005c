package ui

import (
	"fmt"
	"math"
	"strconv"

	"dpsim/core/check"
	"dpsim/core/pool"
)

// MaxHelpers bounds a run's helper Workers: each holds the run's problem
// (its data) in memory.
const MaxHelpers = 7

// MaxWorkers is the largest count the page's Workers setting takes: the
// run's Worker and MaxHelpers helpers.
const MaxWorkers = MaxHelpers + 1

// WorkersRule is what the page's Workers setting takes, in words.
var WorkersRule = fmt.Sprintf("must be a whole number from 0 (auto: the machine's cores but one, once an iteration is long enough to gain) to %d (a run's Worker and at most %d helpers, each holding the problem's data)", MaxWorkers, MaxHelpers)

// CheckWorkers reads the Workers setting (setWorkers(n)): num is n when
// it is a number (isNum), shown how the caller got it otherwise (a
// string, undefined). Anything but a whole number from pool.Auto to
// MaxWorkers is refused in one line naming the field, the rule and the
// value — 1e9, 2^53, −1, 1.5, NaN, Infinity, "abc" — before any Worker
// is started.
func CheckWorkers(num float64, isNum bool, shown string) (int, error) {
	if !isNum {
		return 0, check.Errorf("workers", "%s (got %s)", WorkersRule, shown)
	}
	if num != math.Trunc(num) || num < pool.Auto || num > MaxWorkers { // NaN fails the first test
		return 0, check.Errorf("workers", "%s (got %s)", WorkersRule, strconv.FormatFloat(num, 'g', -1, 64))
	}
	return int(num), nil
}

// farmSize is the workers a run of agents gets: the page's Workers
// setting (pool.Auto: the machine's cores but one, which the page's own
// thread needs to draw and answer; measured on 2 cores, a helper there
// starved the page's frames), at most one per agent and MaxWorkers.
// cores is the browser's navigator.hardwareConcurrency, which may be
// anything: a count out of range gives no helper or MaxWorkers.
func farmSize(workers, cores, agents int) int {
	if workers == pool.Auto {
		workers = cores - 1
	}
	return max(1, min(workers, agents, MaxWorkers))
}
