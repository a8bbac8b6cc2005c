// Package peak measures what this machine's core can do at most, so that
// the kernels' benchmarks (num.Dots, the classifier's gradient, the
// shard gradients, the CNN's products) can be read as a fraction of it:
// the floating-point peak of separate vector multiplies and adds (the
// kernels use no fused multiply-add, so that every platform rounds alike)
// and the bandwidth of reading memory from the first-level cache and
// from DRAM. Run `go test ./core/internal/peak -bench .` beside the kernels'
// benchmarks; docs/performance.md quotes both.
package peak
