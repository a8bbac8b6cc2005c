// Package cpufeat says which optional instruction sets the processor
// offers, once, for the packages in core/ that carry hand-written kernels
// (num, nn, problems/nonconvex, problems/internal/learn): each keeps the
// answer in a variable of its own so that its tests can run the portable
// path on any machine.
package cpufeat
