//go:build amd64

package peak

import (
	"testing"

	"dpsim/core/internal/cpufeat"
)

var sink uint64

// BenchmarkPeak reports the vector peak of separate multiplies and adds
// (float64 and float32 lanes, AVX2) and the read bandwidth from the
// first-level cache (16 KB, read again and again) and from DRAM
// (256 MB), in GFLOP/s and GB/s: the ceilings the kernels' own
// benchmarks are read against (docs/performance.md).
func BenchmarkPeak(b *testing.B) {
	if !cpufeat.AVX2 {
		b.Skip("no AVX2")
	}
	const passes = 1 << 16
	b.Run("mul+add-f64", func(b *testing.B) {
		for range b.N {
			mulAddPD(passes)
		}
		b.ReportMetric(56*passes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	b.Run("mul+add-f32", func(b *testing.B) {
		for range b.N {
			mulAddPS(passes)
		}
		b.ReportMetric(112*passes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	for _, c := range []struct {
		name string
		size int
	}{{"read-L1", 16 << 10}, {"read-DRAM", 256 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]byte, c.size)
			for k := range buf {
				buf[k] = byte(k)
			}
			b.ResetTimer()
			var s uint64
			for range b.N {
				s |= readOr(&buf[0], len(buf))
			}
			sink = s
			b.ReportMetric(float64(c.size)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
