// Package core is the pure-Go heart of dpsim: graphs, weight matrices,
// noise streams, problems, algorithms, privacy accounting and the runner.
//
// Nothing under core imports syscall/js or ebiten, so every package here
// builds natively and for js/wasm and is tested in both places.
//
// The data flows one way: an algorithm (sim.Algorithm) advances one
// iteration and reports a sim.Step holding the agents' estimates and what
// each agent released (sim.Release); recorders (sim.Recorder) consume that
// step.
package core
