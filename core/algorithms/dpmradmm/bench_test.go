package dpmradmm_test

import (
	"testing"

	"dpsim/core/algorithms/internal/basetest"
)

// BenchmarkAdvance times one iteration on ijcnn1 over the ring of 8, and
// the time per message.
func BenchmarkAdvance(b *testing.B) { basetest.Bench(b, "dp-mradmm", "x", "none") }
