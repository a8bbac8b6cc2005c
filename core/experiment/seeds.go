package experiment

import (
	"hash/fnv"

	"dpsim/core/rng"
)

// The seed rule. Run r of an experiment with master seed m uses, in every
// series and at every point,
//
//	data      = fold(fold(mix(m), 1), r)
//	graph     = fold(fold(mix(m), 2), r)
//	algorithm = fold(fold(mix(m), 4), r)
//
// so the problem data, the graph and the algorithm's internal randomness
// are common random numbers: curves differ by the algorithm and its
// parameters, not by the problem instance. Its privacy noise is fresh for
// every series and point:
//
//	noise     = fold(fold(fold(fold(mix(m), 3), r), fnv1a64(series name)), point)
//
// where point is the index of the x value in the series' sweep (0 for the
// iteration axis; 0 at every point with "noise_seeds": "common"), mix is
// SplitMix64's finaliser, and
// fold(h, v) = mix(h + 0x9e3779b97f4a7c15·(v+1)) in 64-bit arithmetic.
// Each seed is then cut to its low 53 bits, so that it can be written in
// a scenario's "seeds" and read exactly by any language. Hashing the series
// name (not its position) keeps a series' numbers unchanged when another
// series is added to the experiment.
const SeedRule = "run r, series named S, point p (index in the sweep), master seed m: " +
	"data = fold(fold(mix(m),1),r), graph = fold(fold(mix(m),2),r), algorithm = fold(fold(mix(m),4),r), " +
	"noise = fold(fold(fold(fold(mix(m),3),r),fnv1a64(S)),p); mix = SplitMix64 finaliser, " +
	"fold(h,v) = mix(h + 0x9e3779b97f4a7c15*(v+1)) mod 2^64; each seed keeps its low 53 bits"

// Noise seed options of an experiment ("noise_seeds").
const (
	// NoiseFresh draws run r's privacy noise afresh at every point of a
	// series (the default): points are independent samples.
	NoiseFresh = "fresh"
	// NoiseCommon gives run r the same noise seed at every point of a
	// series (point 0's): the points differ by the swept parameter alone,
	// same draws with a different ρ_w or scale, so a claim that compares
	// the points of one series ("increasing", "decreasing") is a paired
	// test of the parameter's effect, free of the noise's own spread.
	// Series still differ in their noise (their names are hashed).
	NoiseCommon = "common"
)

// SeedRuleCommon is the seed rule of an experiment with common noise.
const SeedRuleCommon = "run r, series named S, master seed m (common noise across the points of a series: \"noise_seeds\": \"common\"): " +
	"data = fold(fold(mix(m),1),r), graph = fold(fold(mix(m),2),r), algorithm = fold(fold(mix(m),4),r), " +
	"noise = fold(fold(fold(fold(mix(m),3),r),fnv1a64(S)),0) at every point; mix = SplitMix64 finaliser, " +
	"fold(h,v) = mix(h + 0x9e3779b97f4a7c15*(v+1)) mod 2^64; each seed keeps its low 53 bits"

// SeedRuleAudit is the seed rule of an audit: the data, graph and
// algorithm seeds are the base scenario's own in every run (an audit
// compares two data sets under the same mechanism, so only the noise
// varies), and run r's noise on the series named S follows the rule.
const SeedRuleAudit = "audit: data, graph and algorithm seeds are the base scenario's own in every run; run r of series S (D or neighbour), master seed m: " +
	"noise = fold(fold(fold(fold(mix(m),3),r),fnv1a64(S)),0); mix = SplitMix64 finaliser, " +
	"fold(h,v) = mix(h + 0x9e3779b97f4a7c15*(v+1)) mod 2^64; each seed keeps its low 53 bits"

// seedRule returns the rule that e's runs follow, as the result records it.
func (e *Experiment) seedRule() string {
	if e.Audit != nil {
		return SeedRuleAudit
	}
	if e.NoiseSeeds == NoiseCommon {
		return SeedRuleCommon
	}
	return SeedRule
}

// runSeeds returns the seeds of run r of the series named series at point
// index point of e: RunSeeds, with the noise of point 0 at every point
// when e asks for common noise.
func (e *Experiment) runSeeds(run int, series string, point int) rng.Seeds {
	if e.NoiseSeeds == NoiseCommon {
		point = 0
	}
	return RunSeeds(e.Seed, run, series, point)
}

const golden = 0x9e3779b97f4a7c15

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func fold(h, v uint64) uint64 { return mix(h + golden*(v+1)) }

const seedMask = 1<<53 - 1

// RunSeeds returns the four stream seeds of run r of the series named
// series at point index point, by the seed rule above.
func RunSeeds(master uint64, run int, series string, point int) rng.Seeds {
	m := mix(master)
	r := uint64(run)
	h := fnv.New64a()
	h.Write([]byte(series))
	return rng.Seeds{
		Data:      fold(fold(m, 1), r) & seedMask,
		Graph:     fold(fold(m, 2), r) & seedMask,
		Noise:     fold(fold(fold(fold(m, 3), r), h.Sum64()), uint64(point)) & seedMask,
		Algorithm: fold(fold(m, 4), r) & seedMask,
	}
}
