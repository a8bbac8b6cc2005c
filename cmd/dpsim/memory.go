package main

import (
	"os"
	"runtime/debug"

	"dpsim/core/scenario"
)

// holdMemory holds the process to limit bytes (runtime/debug's soft
// memory limit), unless GOMEMLIMIT is set: the collector then works
// harder as the heap nears the limit instead of letting it grow to two
// (GOGC 100) or five (a sweep's GOGC 400) times what is live. A command
// holds itself to its estimate, which includes that room
// (scenario.CollectorRoom); every command starts at the CLI's budget.
// The returned function gives the process its earlier limit back: a
// command run in a process that goes on (the tests) leaves it as it found
// it, instead of a small run's limit making all that follows collect
// without pause.
func holdMemory(limit int64) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" || limit <= 0 {
		return func() {}
	}
	held := min(limit, scenario.CLIBudget)
	was := debug.SetMemoryLimit(held)
	if testHookHold != nil {
		testHookHold(held)
	}
	return func() { debug.SetMemoryLimit(was) }
}

// testHookHold, when set (by a test), is told each limit holdMemory sets:
// the limit is given back when the command returns, before a test in a
// child process could read it.
var testHookHold func(limit int64)

// collectSeldom sets GOGC to 400 unless GOGC is set, for commands of many
// small runs (a sweep, an audit), and returns the function that gives the
// process its earlier GOGC back. Each run allocates a few tens of
// kilobytes (its scenario, algorithm and recorders) and keeps little:
// collecting at every 100 % of growth of that small heap cost 15–20 % of
// the CPU (the DP-DGT Fig. 4 sweep); 400 % keeps the heap in megabytes
// and the collector out of the way.
func collectSeldom() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	was := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(was) }
}
