package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"sort"

	"dpsim/core/scenario"
)

// holdMemory holds the process to limit bytes (runtime/debug's soft
// memory limit), unless GOMEMLIMIT is set: the collector then works
// harder as the heap nears the limit instead of letting it grow to two
// (GOGC 100) or five (a sweep's GOGC 400) times what is live. A command
// holds itself to its estimate, which includes that room
// (scenario.CollectorRoom); every command starts at the CLI's budget.
func holdMemory(limit int64) {
	if os.Getenv("GOMEMLIMIT") != "" || limit <= 0 {
		return
	}
	debug.SetMemoryLimit(min(limit, scenario.CLIBudget))
}

// mostThatFit returns the largest k in [1, hi] for which fits(k) holds,
// fits being true up to some k and false beyond (a memory estimate grows
// with its workers), or 0 when fits(1) does not hold.
func mostThatFit(hi int, fits func(k int) bool) int {
	return sort.Search(hi, func(i int) bool { return !fits(i + 1) })
}

// workersRefusal refuses --workers in one line when the workers alone
// take a command past the CLI's budget: each of the n at once holds each
// bytes of what, so that the command would need total; most would fit.
func workersRefusal(workers any, n int, what string, each, total int64, command string, most int) error {
	return flagError("workers", fmt.Sprintf("each %s holds about %s, and %d at once would take %s to about %s of memory, more than the %s it may use: at most %d fit",
		what, scenario.Bytes(each), n, command, scenario.Bytes(total), scenario.Bytes(scenario.CLIBudget), most), workers)
}
