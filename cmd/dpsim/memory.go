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
func holdMemory(limit int64) {
	if os.Getenv("GOMEMLIMIT") != "" || limit <= 0 {
		return
	}
	debug.SetMemoryLimit(min(limit, scenario.CLIBudget))
}
