//go:build amd64

package peak

// mulAddPD runs n passes of seven VMULPD and seven VADDPD on fourteen
// independent 4-lane float64 registers (56 floating-point operations a
// pass): on two multiply and two add pipes the loop runs at the vector
// peak of separate multiplies and adds. AVX2 only (the caller checks).
//
//go:noescape
func mulAddPD(n int)

// mulAddPS is mulAddPD on 8-lane float32 registers (112 operations a
// pass).
//
//go:noescape
func mulAddPS(n int)

// readOr reads n bytes from p (n a multiple of 128), 32 bytes a load,
// four loads in flight, OR-ed together so that no floating-point latency
// limits the loop: the read bandwidth from wherever p's bytes are.
//
//go:noescape
func readOr(p *byte, n int) uint64
