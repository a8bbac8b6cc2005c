// Package experiment runs Monte Carlo sweeps: the figures of the papers
// dpsim reproduces, each declared as an experiment file (docs/experiments.md).
//
// An experiment names a base scenario, series (named sets of overrides by
// field path), an x-axis (the iteration, a swept field, or a per-run
// derived quantity such as the ledger's ε), a number of seeded runs per
// point, the metrics and the statistic to draw, and the paper's claims as
// checkable expectations.
//
// The engine is pure Go and builds for js/wasm: the CLI runs it on every
// core with goroutines, the page runs it in Web Workers, and a cluster runs
// shards of it. A Plan lists the tasks (series, point, run) in a fixed
// order; RunTask runs one; Assemble turns the finished tasks into a Result
// whose JSON depends on nothing but the experiment and which tasks
// finished, so worker count, shard split and machine cannot change a byte.
package experiment
