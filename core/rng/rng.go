// Package rng holds dpsim's seeded random streams.
//
// Every random choice comes from a stream derived from one of four seeds
// (problem data, graph, privacy noise, algorithm-internal randomness) and a
// label naming its purpose, so that changing one purpose never shifts the
// draws of another: the same scenario and seed give the same trace, and
// two algorithms can be compared on the same graph and data.
//
// The generator is PCG from math/rand/v2: integer arithmetic only, so the
// streams are identical natively and under js/wasm.
package rng

import (
	"hash/fnv"
	"math/rand/v2"
)

// Seeds are the four independent seeds of a run.
type Seeds struct {
	Data      uint64 `json:"data"`
	Graph     uint64 `json:"graph"`
	Noise     uint64 `json:"noise"`
	Algorithm uint64 `json:"algorithm"`
}

// FromOne derives the four seeds from a single user-facing seed, so that a
// "seed" box in a user interface still gives four independent streams.
func FromOne(seed uint64) Seeds {
	return Seeds{Data: mix(seed, 1), Graph: mix(seed, 2), Noise: mix(seed, 3), Algorithm: mix(seed, 4)}
}

// New returns the stream for seed and purpose label.
func New(seed uint64, label string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(label))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// mix is SplitMix64's finaliser: distinct inputs give well-spread seeds.
func mix(seed, k uint64) uint64 {
	z := seed + k*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
